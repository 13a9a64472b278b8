import DependencyInjection
import Dispatch
import Foundation
import Testing

// Seeded random mixes of registration, resolution and reset on thread workers and async tasks at
// once, over aliases, main-actor and global-actor factories, decorators, scopes, overrides and
// `await validate()`, checking what must hold whatever the interleaving. (A longer, timed driver
// found the hop-leak fixed with it; this is its fixed-seed, bounded form for CI.)

@globalActor actor FcActor { static let shared = FcActor() }
extension DIScope { static let fcRun = DIScope("fcRun", requiresRun: true) }

/// Counts live instances by kind: after the final reset none may remain.
class FcNode: @unchecked Sendable {
    static let live = Locked([String: Int]())
    let kind: String
    init(_ kind: String) {
        self.kind = kind
        Self.live.withLock { $0[kind, default: 0] += 1 }
    }
    deinit { Self.live.withLock { $0[kind, default: 0] -= 1 } }
}
protocol FcA: AnyObject, Sendable {}
protocol FcB: AnyObject, Sendable {}
final class FcAliased: FcNode, FcA, FcB, @unchecked Sendable { init() { super.init("aliased") } }
final class FcOverA: FcNode, FcA, @unchecked Sendable { init() { super.init("overA") } }
final class FcDecorated: FcNode, @unchecked Sendable {
    let decorations = Locked(0)
    init() { super.init("decorated") }
}
@MainActor final class FcMain {
    let token = FcNode("main")
    nonisolated let decorations = Locked(0)
    nonisolated let mock: Bool
    init(mock: Bool = false) {
        MainActor.preconditionIsolated()
        self.mock = mock
    }
}
final class FcMainNS { let token = FcNode("mainNS") }
@MainActor final class FcMainScoped { let token = FcNode("mainScoped") }
final class FcDb: FcNode, @unchecked Sendable {
    init() {
        FcActor.preconditionIsolated()
        super.init("db")
    }
}
final class FcAsync: FcNode, @unchecked Sendable { init() { super.init("async") } }
/// Made only by FcFails's factory, which then fails: no resolve may keep one.
final class FcDropped: FcNode, @unchecked Sendable { init() { super.init("dropped") } }
final class FcFails: Sendable {}
struct FcBoom: Error {}

final class FcWorld: @unchecked Sendable {
    let parent = DIContainer()
    let child: DIContainer
    let churn = Locked((began: 0, underWay: 0))
    let violations = Locked<[String]>([])

    init() {
        child = DIContainer(parent: parent)
        parent.register(module)
    }

    var module: Module {
        Module {
            Shared(FcAliased.init, as: FcA.self, FcB.self)
            Shared(FcDecorated.init)
            Decorate(FcDecorated.self) { d, _ in
                d.decorations.withLock { $0 += 1 }
                return d
            }
            Shared { @MainActor in FcMain() }
            Decorate(FcMain.self) { @MainActor m, _ in
                m.decorations.withLock { $0 += 1 }
                return m
            }
            Shared { @MainActor in FcMainNS() }
            Scoped(.fcRun) { @MainActor in FcMainScoped() }
            Shared { @FcActor in FcDb() }
            Shared { FcDropped() }
            Shared { (resolve: Resolver) throws -> FcFails in
                _ = try resolve.tryResolve(FcDropped.self)
                throw FcBoom()
            }
            Shared { @MainActor resolve async throws in
                await Task.yield()
                _ = try resolve.tryResolve(FcMain.self)
                return FcAsync()
            }
        }
    }

    func violation(_ text: String) { violations.withLock { if $0.count < 50 { $0.append(text) } } }
    func quiet(since before: (began: Int, underWay: Int)) -> Bool {
        let now = churn.withLock { $0 }
        return before.underWay == 0 && now.underWay == 0 && now.began == before.began
    }
    func churning(_ change: () -> Void) {
        churn.withLock { $0 = ($0.began + 1, $0.underWay + 1) }
        defer { churn.withLock { $0.underWay -= 1 } }
        change()
    }

    /// An error must be a ResolutionError naming its type, with one of the reasons allowed.
    /// Any other failure is a violation, unless a churn ran meanwhile (`since` given, and not quiet since).
    func check(
        _ error: any Error, _ what: String, since before: (began: Int, underWay: Int)? = nil,
        allowed: (ResolutionError.Reason) -> Bool = { _ in false }
    ) {
        guard let error = error as? ResolutionError else { return violation("\(what): \(type(of: error)) \(error)") }
        if error.typeName.isEmpty || !error.description.contains(error.typeName) {
            violation("\(what): message does not name '\(error.typeName)': \(error)")
        }
        // Between a reset() and its re-registration, nothing is registered.
        if error.reason != .missingRegistration, !allowed(error.reason), before.map(quiet(since:)) ?? true {
            violation("\(what): \(error)")
        }
    }
    static func offMain(_ r: ResolutionError.Reason) -> Bool {
        if case .mainActorRequired = r { true } else if case .notSendable = r { true } else { false }
    }
    static func notYet(_ r: ResolutionError.Reason) -> Bool { if case .notYetMade = r { true } else { false } }

    func step(worker: Int, random: inout SplitMix64, note: (String) -> Void) -> [String] {
        let target = random.below(2) == 0 ? parent : child
        let before = churn.withLock { $0 }
        switch random.below(10) {
        case 0:
            note("churn")
            churning {
                switch random.below(4) {
                case 0: parent.releaseInstances()
                case 1: _ = parent.unregister(FcA.self)
                case 2: parent.register(Shared(FcAliased.init, as: FcA.self, FcB.self))
                default:
                    parent.reset()
                    parent.register(module)
                }
            }
        case 1, 2:
            note("aliases")
            do {
                let impl = try target.tryResolve(FcAliased.self)
                let a = try target.tryResolve(FcA.self)
                let b = try target.tryResolve(FcB.self)
                if quiet(since: before), a !== impl || b !== impl { violation("an alias gave another instance") }
            } catch { check(error, "aliases", since: before) }
        case 3:
            note("alias override")
            target.withOverrides {
                New(FcOverA() as FcA)
            } operation: {
                do {
                    if !(try DIContainer.tryResolve(FcA.self) is FcOverA) { violation("alias override not applied") }
                    if try DIContainer.tryResolve(FcB.self) as AnyObject is FcOverA {
                        violation("override replaced the other alias")
                    }
                } catch { check(error, "alias override", since: before) }
            }
            if (try? target.tryResolve(FcA.self)) is FcOverA { violation("an alias override leaked out") }
        case 4:
            note("decorated")
            do {
                let d = try target.tryResolve(FcDecorated.self)
                if d.decorations.withLock({ $0 }) != 1 { violation("an instance not decorated once") }
            } catch { check(error, "decorated", since: before) }
        case 5, 6:
            note("main actor hop")
            do {
                let a = try target.tryResolve(FcMain.self)
                let b = try target.tryResolve(FcMain.self)
                if quiet(since: before), a !== b { violation("a main-actor Shared made twice") }
                if a.mock { violation("a main-actor override leaked out") }
                if a.decorations.withLock({ $0 }) != 1 { violation("a main-actor instance not decorated once") }
            } catch { check(error, "main hop", since: before) }
            do {
                _ = try target.tryResolve(FcMainNS.self)
                violation("a non-Sendable main-actor value left it")
            } catch {
                check(error, "main NS", allowed: Self.offMain)
            }
        case 7:
            note("main actor in override and run")
            target.withOverrides {
                Shared { @MainActor in FcMain(mock: true) }
            } operation: {
                do { if try !DIContainer.tryResolve(FcMain.self).mock { violation("main override not applied") } } catch
                {
                    check(error, "main override", since: before)
                }
            }
            weak var kept: FcMainScoped?
            target.withScope(.fcRun) {
                do { kept = try DIContainer.tryResolve(FcMainScoped.self) } catch {
                    check(error, "main scoped", since: before)
                }
            }
            if kept != nil { violation("a run's main-actor instance outlived the run") }
        default:
            note("not yet made")
            do {
                _ = try target.tryResolve(FcFails.self)
                violation("a failing factory resolved")
            } catch {
                check(error, "fails", since: before) { if case .factoryFailed = $0 { true } else { false } }
            }
            for (what, body) in [
                ("db", { _ = try target.tryResolve(FcDb.self) }),
                ("async", { _ = try target.tryResolve(FcAsync.self) }),
            ]
                as [(String, () throws -> Void)]
            {
                do { try body() } catch { check(error, "\(what) sync", allowed: Self.notYet) }
            }
        }
        return []
    }

    func asyncStep(random: inout SplitMix64) async {
        let target = random.below(2) == 0 ? parent : child
        let before = churn.withLock { $0 }
        switch random.below(5) {
        case 0:
            do {
                try await target.prepare()
                do {
                    _ = try target.tryResolve(FcDb.self)
                    _ = try target.tryResolve(FcAsync.self)
                } catch {
                    if quiet(since: before) { violation("after prepare(), a sync resolve failed: \(error)") }
                }
            } catch { check(error, "prepare", since: before) }
        case 1:
            do {
                let db = try await target.resolveAsync(FcDb.self)
                let again = try target.tryResolve(FcDb.self)
                if quiet(since: before), db !== again { violation("another FcDb after resolveAsync") }
            } catch { check(error, "db async", since: before) }
        case 2:
            _ = await target.validate().description
            do {
                async let x = target.resolveAsync(FcAsync.self)
                async let y = target.resolveAsync(FcAsync.self)
                let (a, b) = try await (x, y)
                if quiet(since: before), a !== b { violation("async: an async Shared made twice") }
            } catch { check(error, "async twice", since: before) }
        case 3:
            do {
                let a = try await target.resolveAsync(FcMain.self)
                let b = try await target.resolveAsync(FcMain.self)
                if quiet(since: before), a !== b { violation("async: a main-actor Shared made twice") }
            } catch { check(error, "async main", since: before) }
        default:
            let problems: [String] = await MainActor.run {
                do {
                    let a = try target.tryResolve(FcMainNS.self)
                    let b = try target.tryResolve(FcMainNS.self)
                    return a !== b && quiet(since: before) ? ["main: a non-Sendable Shared made twice"] : []
                } catch {
                    check(error, "on main", since: before)
                    return []
                }
            }
            for p in problems { violation(p) }
        }
    }
}

@Suite(.serialized, .timeLimit(.minutes(1))) struct FuzzInvariantTests {
    @Test(arguments: [UInt64(1), 7, 0xC0FFEE]) func randomMixesKeepInvariants(seed: UInt64) async {
        let world = FcWorld()
        async let tasks: Void = withTaskGroup(of: Void.self) { group in
            for t in 0..<2 {
                group.addTask {
                    var random = SplitMix64(seed: seed &+ 1000 &+ UInt64(t))
                    for _ in 0..<60 { await world.asyncStep(random: &random) }
                }
            }
        }
        let outcome = await ThreadHarness.run(
            workers: 3, runTime: .seconds(5), iterationLimit: 250, watchdog: .seconds(30), seed: seed, step: world.step)
        await tasks
        #expect(outcome.stuckWorkers.isEmpty, "\(outcome.deadlockReport); seed \(seed)")
        let found = world.violations.withLock { $0 }
        #expect(found.isEmpty, "seed \(seed):\n\(found.prefix(20).joined(separator: "\n"))")
        #expect(FcNode.live.withLock { $0["dropped"] ?? 0 } == 0, "a failed resolve kept what it made; seed \(seed)")
        world.child.reset()
        world.parent.reset()
        let live = FcNode.live.withLock { $0.filter { $0.value != 0 } }
        #expect(live.isEmpty, "instances alive after reset: \(live); seed \(seed)")
    }
}
