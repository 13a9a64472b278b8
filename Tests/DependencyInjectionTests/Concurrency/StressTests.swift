import DependencyInjection
import Dispatch
import Foundation
import Testing

// Many threads register, re-register, resolve every lifetime, use the property wrappers,
// `withOverrides` and `releaseInstances` at once, checking invariants as they go. Each worker
// runs for a bounded time and a bounded number of iterations; a watchdog turns a deadlock into
// a failure that says which workers were stuck, and where. Each run prints its seed; replay the
// workers' choices with `DI_STRESS_SEED=<seed> swift test --filter StressTests` (the threads'
// interleaving still differs from run to run).

@Suite(.serialized, .timeLimit(.minutes(2))) struct StressTests {
    static let workerCount = 16
    static let runTime: Duration = .milliseconds(1200)
    static let iterationLimit = 20_000
    /// Far beyond the run time, even under ThreadSanitizer, and within the suite's time limit:
    /// reaching it means a deadlock.
    static let watchdogTimeout: Duration = .seconds(90)

    /// `DI_STRESS_SEED` (decimal or 0x-hex) to replay a run, else a new random seed.
    static let seed = environmentSeed("DI_STRESS_SEED") ?? UInt64.random(in: .min ... .max)

    /// Runs the workers, printing the seed first so that any run can be replayed.
    private func run(
        _ test: String, step: @escaping @Sendable (Int, inout SplitMix64, (String) -> Void) -> [String]
    ) async -> ThreadHarness.Outcome {
        print(
            "StressTests.\(test): seed \(Self.seed) (replay: DI_STRESS_SEED=\(Self.seed) swift test --filter StressTests)"
        )
        return await ThreadHarness.run(
            workers: Self.workerCount, runTime: Self.runTime, iterationLimit: Self.iterationLimit,
            watchdog: Self.watchdogTimeout, seed: Self.seed, step: step)
    }

    private func expectHealthy(_ outcome: ThreadHarness.Outcome) {
        let replay = "seed \(Self.seed) (replay: DI_STRESS_SEED=\(Self.seed) swift test --filter StressTests)"
        #expect(outcome.stuckWorkers.isEmpty, "\(outcome.deadlockReport); \(replay)")
        #expect(outcome.violations.isEmpty, "\(outcome.violations.prefix(10).joined(separator: "\n"))\n\(replay)")
        #expect(outcome.iterations >= Self.workerCount, "the workers barely ran; \(replay)")
    }

    @Test func sharedIsMadeOncePerRegistrationWhileThreadsReRegisterAndResolveEveryLifetime() async {
        let world = StableWorld()
        let outcome = await run(#function) { worker, random, note in
            world.step(worker: worker, random: &random, note: note)
        }
        expectHealthy(outcome)
        // After the run: every registration generation made its Shared instance at most once.
        let overMade = world.generations.withLock { $0.filter { $0.madeCount > 1 } }
        #expect(overMade.isEmpty, "generations made more than once: \(overMade.map(\.label)); seed \(Self.seed)")
        // Each lazily injected property resolved its `New` target exactly once.
        #expect(world.lazyTargetsMade.withLock { $0 } == world.touchedHolders.withLock { $0.count })
    }

    @Test func containerStaysConsistentWhileThreadsResetReleaseAndOverride() async {
        let world = ChurningWorld()
        let outcome = await run(#function) { worker, random, note in
            world.step(worker: worker, random: &random, note: note)
        }
        expectHealthy(outcome)
        // On a busy machine the concurrent run may leave no Weak step undisturbed (each that was
        // is checked above); so the same check runs once more alone, where nothing can disturb it.
        #expect(world.heldWeakIsKeptWhenUndisturbed(), "a held Weak instance was made again; seed \(Self.seed)")
    }
}

/// The seed in environment variable `name` (decimal or 0x-hex), if it is set and valid.
func environmentSeed(_ name: String) -> UInt64? {
    guard let text = ProcessInfo.processInfo.environment[name] else { return nil }
    return text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
}

// MARK: - A container that is re-registered but never reset or released

/// One registration of ``StressCounted``: counts how many times its factory ran.
final class StressGeneration: @unchecked Sendable {
    let label: String
    private let lock = NSLock()
    private var made = 0

    init(label: String) { self.label = label }

    var madeCount: Int { lock.withLock { made } }

    func make() -> StressCounted {
        lock.withLock { made += 1 }
        return StressCounted(generation: self)
    }
}

final class StressCounted {
    let generation: StressGeneration
    init(generation: StressGeneration) { self.generation = generation }
}

final class StressWeakThing { init() {} }
final class StressFreshThing { init() {} }
final class StressGraphSession { init() {} }
final class StressGraphUser {
    let session: StressGraphSession
    init(session: StressGraphSession) { self.session = session }
}
final class StressGraphPair {
    let left: StressGraphUser
    let right: StressGraphUser
    init(left: StressGraphUser, right: StressGraphUser) {
        self.left = left
        self.right = right
    }
}
final class StressLabelled {
    let label: String
    init(label: String) { self.label = label }
}
final class StressLazyTarget { init() {} }

final class StressScreen {
    @Inject var counted: StressCounted
    @Inject(name: "left") var left: StressCounted
    @MutableInject var weakThing: StressWeakThing
    @LazyInject(name: "right") var right: StressCounted
    /// A `New` service: a second resolution would be another instance.
    @LazyInject var lazyFresh: StressFreshThing
    @MutableLazyInject var fresh: StressFreshThing
}

/// Objects that every thread shares, whose lazy property must resolve exactly once.
final class StressLazyHolder: @unchecked Sendable {
    @LazyInject var target: StressLazyTarget
}

final class StableWorld: @unchecked Sendable {
    static let names: [String?] = [nil, "left", "right"]

    let container = DIContainer()
    let child: DIContainer
    let generations = Locked<[StressGeneration]>([])
    let lazyTargetsMade = Locked(0)
    let touchedHolders = Locked(Set<Int>())
    let firstLazyValues = Locked([Int: ObjectIdentifier]())
    let holders: [StressLazyHolder]

    init() {
        let made = lazyTargetsMade
        container.register {
            Weak(StressWeakThing.init)
            New(StressFreshThing.init)
            Graph(StressGraphSession.init)
            New { resolve in StressGraphUser(session: resolve()) }
            New { resolve in StressGraphPair(left: resolve(), right: resolve()) }
            New { (_: Resolver, label: String, index: Int) in StressLabelled(label: "\(label)#\(index)") }
            New { _ in
                made.withLock { $0 += 1 }
                return StressLazyTarget()
            }
        }
        holders = container.activate { (0..<8).map { _ in StressLazyHolder() } }
        child = DIContainer(parent: container)
        for name in Self.names { registerCounted(name: name) }
    }

    func registerCounted(name: String?) {
        let generation = StressGeneration(label: "\(name ?? "unnamed")#\(generations.withLock { $0.count })")
        generations.withLock { $0.append(generation) }
        container.register(Shared { _ in generation.make() }.named(optional: name))
    }

    func step(worker: Int, random: inout SplitMix64, note: (String) -> Void) -> [String] {
        var violations: [String] = []
        func check(_ condition: Bool, _ message: @autoclosure () -> String) {
            if !condition { violations.append("worker \(worker): \(message())") }
        }
        let name = Self.names[random.below(Self.names.count)]
        switch random.below(100) {
        case 0..<4:
            note("re-registering StressCounted (name: \(name ?? "nil"))")
            registerCounted(name: name)
        case 4..<30:
            note("resolving StressCounted (name: \(name ?? "nil")) twice")
            let first = container.resolve(StressCounted.self, name: name)
            let second = container.resolve(StressCounted.self, name: name)
            check(first.generation.madeCount == 1, "\(first.generation.label) made \(first.generation.madeCount) times")
            check(
                first.generation !== second.generation || first === second,
                "one registration (\(first.generation.label)) gave two Shared instances")
        case 30..<40:
            note("resolving StressCounted through a child container")
            let counted = child.resolve(StressCounted.self, name: name)
            check(
                counted.generation.madeCount == 1,
                "\(counted.generation.label) made \(counted.generation.madeCount) times (child)")
        case 40..<50:
            note("resolving Weak while holding it")
            let held = container.resolve(StressWeakThing.self)
            check(container.resolve(StressWeakThing.self) === held, "a held Weak instance was made again")
        case 50..<62:
            note("resolving a Graph pair twice")
            let pair = container.resolve(StressGraphPair.self)
            let next = child.resolve(StressGraphPair.self)
            check(pair.left.session === pair.right.session, "one resolution saw two Graph instances")
            check(next.left.session === next.right.session, "one resolution saw two Graph instances (child)")
            check(pair.left.session !== next.left.session, "two resolutions shared a Graph instance")
        case 62..<70:
            note("resolving New and parameterized services")
            check(
                container.resolve(StressFreshThing.self) !== container.resolve(StressFreshThing.self),
                "New returned a kept instance")
            let index = random.below(1000)
            let labelled = container.resolve(StressLabelled.self) { ("w\(worker)", index) }
            check(labelled.label == "w\(worker)#\(index)", "arguments got mixed up: \(labelled.label)")
        case 70..<85:
            note("making a screen with every wrapper")
            let screen = container.activate { StressScreen() }
            check(screen.counted.generation.madeCount == 1, "@Inject saw \(screen.counted.generation.label) made twice")
            check(
                screen.left.generation.madeCount == 1, "@Inject(name:) saw \(screen.left.generation.label) made twice")
            check(screen.right.generation.madeCount == 1, "@LazyInject saw \(screen.right.generation.label) made twice")
            check(screen.lazyFresh === screen.lazyFresh, "@LazyInject resolved twice")
            check(screen.fresh === screen.fresh, "@MutableLazyInject resolved twice")
        default:
            let index = random.below(holders.count)
            note("reading the lazy property of shared holder \(index)")
            let target = holders[index].target
            touchedHolders.withLock { _ = $0.insert(index) }
            let first = firstLazyValues.withLock { seen in
                if let first = seen[index] { return first }
                seen[index] = ObjectIdentifier(target)
                return ObjectIdentifier(target)
            }
            check(first == ObjectIdentifier(target), "holder \(index)'s @LazyInject resolved more than once")
        }
        return violations
    }
}

// MARK: - A container that is reset, released and overridden while in use

protocol StressRouter: AnyObject { var isMock: Bool { get } }
final class StressRouterImpl: StressRouter { var isMock: Bool { false } }
final class StressMockRouter: StressRouter { var isMock: Bool { true } }
final class ChurnService {
    let router: StressRouter
    init(router: StressRouter) { self.router = router }
}

final class ChurningWorld: @unchecked Sendable {
    let container = DIContainer()
    let child: DIContainer
    /// Changes to `container` that drop or replace instances (register, reset, releaseInstances):
    /// how many began, and how many are under way. A step that saw neither move saw no change.
    let churn = Locked((began: 0, underWay: 0))
    /// How many Weak steps ran with no change in between, and so compared their instances.
    let heldWeakComparisons = Locked(0)

    init() {
        child = DIContainer(parent: container)
        container.register(everything)
    }

    /// Throwing factories: a resolution racing a `reset` fails with an error, never a trap.
    var everything: Module {
        Module {
            Shared(StressRouterImpl.init, as: StressRouter.self)
            Shared { resolve in try ChurnService(router: resolve.tryResolve()) }
            Shared { resolve in try ChurnService(router: resolve.tryResolve()) }.named("named")
            Weak(StressWeakThing.init)
            New(StressFreshThing.init)
            Graph(StressGraphSession.init)
            New { resolve in try StressGraphUser(session: resolve.tryResolve()) }
            New { resolve in try StressGraphPair(left: resolve.tryResolve(), right: resolve.tryResolve()) }
            New { (_: Resolver, label: String, index: Int) in StressLabelled(label: "\(label)#\(index)") }
        }
    }

    /// Resolves the Weak service twice while holding it, with no other thread running.
    func heldWeakIsKeptWhenUndisturbed() -> Bool {
        container.register(everything)
        guard let held = try? container.tryResolve(StressWeakThing.self) else { return false }
        return (try? container.tryResolve(StressWeakThing.self)) === held
    }

    func step(worker: Int, random: inout SplitMix64, note: (String) -> Void) -> [String] {
        var violations: [String] = []
        func check(_ condition: Bool, _ message: @autoclosure () -> String) {
            if !condition { violations.append("worker \(worker): \(message())") }
        }
        /// Runs a resolution that may race a `reset`: only a missing registration is acceptable.
        func attempt(_ what: String, _ body: () throws -> Void) {
            do {
                try body()
            } catch let error as ResolutionError where error.reason == .missingRegistration {
                return
            } catch {
                violations.append("worker \(worker): \(what) failed unexpectedly:\n\(error)")
            }
        }
        let target = random.below(3) == 0 ? child : container
        switch random.below(100) {
        case 0..<6:
            note("registering everything")
            churning { container.register(everything) }
        case 6..<9:
            note("resetting")
            churning { container.reset() }
        case 9..<15:
            note("releasing instances")
            churning { container.releaseInstances() }
        case 15..<35:
            note("resolving Shared services")
            attempt("resolving ChurnService") {
                let service = try target.tryResolve(ChurnService.self)
                check(!service.router.isMock, "an override leaked out of withOverrides")
                _ = try target.tryResolve(ChurnService.self, name: "named")
            }
        case 35..<45:
            note("resolving Weak while holding it")
            attempt("resolving StressWeakThing") {
                let before = churn.withLock { $0 }
                let held = try container.tryResolve(StressWeakThing.self)
                let again = try container.tryResolve(StressWeakThing.self)
                let after = churn.withLock { $0 }
                // Another thread may have replaced or released it in between; otherwise it is the same.
                if before.underWay == 0, after.began == before.began {
                    heldWeakComparisons.withLock { $0 += 1 }
                    check(again === held, "a held Weak instance was made again")
                }
            }
        case 45..<60:
            note("resolving a Graph pair")
            attempt("resolving StressGraphPair") {
                let pair = try target.tryResolve(StressGraphPair.self)
                check(pair.left.session === pair.right.session, "one resolution saw two Graph instances")
            }
        case 60..<70:
            note("resolving New and parameterized services")
            attempt("resolving StressLabelled") {
                let index = random.below(1000)
                let labelled = try target.tryResolve(StressLabelled.self) { ("w\(worker)", index) }
                check(labelled.label == "w\(worker)#\(index)", "arguments got mixed up: \(labelled.label)")
                _ = try target.tryResolve(StressFreshThing.self)
            }
        default:
            note("running withOverrides")
            container.withOverrides {
                everything
                New(StressMockRouter() as StressRouter)
            } operation: {
                let service = DIContainer.resolve(ChurnService.self)
                check(service.router.isMock, "withOverrides did not apply its override")
                check(DIContainer.resolve(ChurnService.self) === service, "the copy made a Shared instance twice")
                let pair = DIContainer.resolve(StressGraphPair.self)
                check(pair.left.session === pair.right.session, "one resolution saw two Graph instances (copy)")
                let screen = StressScreenOfOverrides()
                check(screen.service === service, "@Inject in withOverrides missed the copy's instance")
                check(screen.lazyRouter.isMock, "@LazyInject in withOverrides missed the override")
                DIContainer.releaseInstances()
                check(DIContainer.resolve(ChurnService.self) !== service, "releaseInstances kept a Shared instance")
            }
        }
        return violations
    }

    /// Runs a change that drops or replaces instances, counted in `churn`.
    private func churning(_ change: () -> Void) {
        churn.withLock {
            $0.began += 1
            $0.underWay += 1
        }
        change()
        churn.withLock { $0.underWay -= 1 }
    }
}

final class StressScreenOfOverrides {
    @Inject var service: ChurnService
    @LazyInject var lazyRouter: StressRouter
}

extension Registration {
    /// `.named(name)` when `name` is not nil.
    func named(optional name: String?) -> Self {
        name.map { named($0) } ?? self
    }
}

// MARK: - Harness

/// A value behind a lock, for bookkeeping shared by test threads.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

/// A small, fast, seedable generator (SplitMix64), so runs can be replayed.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound`.
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

enum ThreadHarness {
    struct Outcome {
        var stuckWorkers: [Int]
        var lastSteps: [String]
        var violations: [String]
        var iterations: Int
        let watchdog: Duration

        var deadlockReport: String {
            "Deadlock: \(stuckWorkers.count) worker(s) did not finish within \(watchdog). "
                + "Where they were: " + stuckWorkers.map { "worker \($0): \(lastSteps[$0])" }.joined(separator: "; ")
        }
    }

    /// Runs `step` on `workers` threads until `runTime` has passed or each ran `iterationLimit`
    /// steps, and waits for them at most `watchdog`. Stuck workers are reported, not awaited.
    /// Worker `i` draws its choices from `SplitMix64(seed: seed &+ i)`. The caller is suspended
    /// while they run, not blocked (see `onThread`).
    static func run(
        workers: Int, runTime: Duration, iterationLimit: Int, watchdog: Duration, seed: UInt64,
        step: @escaping @Sendable (Int, inout SplitMix64, (String) -> Void) -> [String]
    ) async -> Outcome {
        await withCheckedContinuation { done in
            Thread {
                done.resume(
                    returning: runWaiting(
                        workers: workers, runTime: runTime, iterationLimit: iterationLimit, watchdog: watchdog,
                        seed: seed, step: step))
            }.start()
        }
    }

    private static func runWaiting(
        workers: Int, runTime: Duration, iterationLimit: Int, watchdog: Duration, seed: UInt64,
        step: @escaping @Sendable (Int, inout SplitMix64, (String) -> Void) -> [String]
    ) -> Outcome {
        let lastSteps = (0..<workers).map { _ in Locked("not started") }
        let violations = Locked<[String]>([])
        let iterations = Locked(0)
        let finished = DispatchSemaphore(value: 0)
        let start = DispatchSemaphore(value: 0)
        for worker in 0..<workers {
            let thread = Thread {
                var random = SplitMix64(seed: seed &+ UInt64(worker))
                start.wait()
                let deadline = ContinuousClock.now + runTime
                var count = 0
                while count < iterationLimit, ContinuousClock.now < deadline {
                    let found = step(worker, &random) { label in lastSteps[worker].withLock { $0 = label } }
                    if !found.isEmpty { violations.withLock { $0 += found } }
                    count += 1
                }
                lastSteps[worker].withLock { $0 = "finished" }
                iterations.withLock { $0 += count }
                finished.signal()
            }
            thread.start()
        }
        // All threads begin together, so the first steps contend as much as the later ones.
        for _ in 0..<workers { start.signal() }
        let deadline = DispatchTime.now() + .nanoseconds(Int(watchdog.components.seconds) * 1_000_000_000)
        for _ in 0..<workers where finished.wait(timeout: deadline) == .timedOut { break }
        let steps = lastSteps.map { $0.withLock { $0 } }
        return Outcome(
            stuckWorkers: steps.indices.filter { steps[$0] != "finished" }, lastSteps: steps,
            violations: violations.withLock { $0 }, iterations: iterations.withLock { $0 }, watchdog: watchdog)
    }
}
