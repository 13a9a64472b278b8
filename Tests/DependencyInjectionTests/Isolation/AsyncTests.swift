import DependencyInjection
import Dispatch
import Testing

@globalActor actor DatabaseActor {
    static let shared = DatabaseActor()
}

@DatabaseActor final class ActorDatabase {
    let id: Int
    init(id: Int) {
        DatabaseActor.shared.preconditionIsolated("ActorDatabase must be made on DatabaseActor")
        self.id = id
    }
}

final class RemoteConfig: Sendable {
    let version: Int
    init(version: Int) { self.version = version }

    static func load(client: HTTPClient) async throws -> RemoteConfig {
        await Task.yield()
        return RemoteConfig(version: client.version)
    }
}

protocol RemoteSettings: Sendable {}
extension RemoteConfig: RemoteSettings {}

final class HTTPClient: Sendable {
    let version: Int
    init() { version = 3 }
    init(version: Int) { self.version = version }
}

@MainActor final class MainActorService {
    init() { MainActor.preconditionIsolated("MainActorService must be made on the main actor") }
}

/// Counts factory runs across tasks.
final class RunCount: @unchecked Sendable {
    // Unchecked: `value` is guarded by `lock`.
    private let lock = DispatchSemaphore(value: 1)
    private var value = 0

    func increment() -> Int {
        lock.wait()
        defer { lock.signal() }
        value += 1
        return value
    }

    var count: Int {
        lock.wait()
        defer { lock.signal() }
        return value
    }
}

struct Flaky: Error {}

/// Whether code runs on the main dispatch queue, where the main actor runs (also on Linux, where
/// the main thread may hand the main queue to another thread).
enum MainActorQueue {
    private static let key: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    static var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }
}

/// The `ResolutionError` that `body` throws in a detached task (off the main actor), if any.
func errorInDetachedTask(_ body: @escaping @Sendable () throws -> Void) async -> ResolutionError? {
    await errorInDetachedTask(awaiting: body)
}

/// ``errorInDetachedTask(_:)`` for an async `body` (a `resolveAsync` off every actor).
func errorInDetachedTask(awaiting body: @escaping @Sendable () async throws -> Void) async -> ResolutionError? {
    await Task.detached { () -> ResolutionError? in
        do {
            try await body()
            return nil
        } catch {
            return error as? ResolutionError
        }
    }.value
}

@Suite(.timeLimit(.minutes(1)))
struct AsyncFactoryTests {
    @Test func anAsyncSharedIsMadeOnceAcrossConcurrentTasks() async throws {
        let box = DIContainer()
        let runs = RunCount()
        box.register {
            Shared(HTTPClient.init)
            Shared { resolve async throws in
                _ = runs.increment()
                return try await RemoteConfig.load(client: resolve())
            }
        }
        let configs = try await withThrowingTaskGroup(of: RemoteConfig.self) { group in
            for _ in 0..<50 { group.addTask { try await box.resolveAsync(RemoteConfig.self) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(runs.count == 1)
        #expect(configs.count == 50)
        #expect(configs.allSatisfy { $0 === configs[0] })
        #expect(configs[0].version == 3)
        #expect(box.resolve(RemoteConfig.self) === configs[0])
    }

    @Test func aSynchronousResolveBeforeItIsMadeSaysToAwaitIt() throws {
        let box = DIContainer()
        box.register { Shared { _ async throws in RemoteConfig(version: 1) } }
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(RemoteConfig.self) }
        #expect(error.reason == .notYetMade(actor: nil))
        #expect(
            error.description == """
                'RemoteConfig' is made by an async factory and has not been made yet.
                To fix, await it first: call try await container.prepare() at startup, or resolve it with \
                try await container.resolveAsync(RemoteConfig.self).
                """)
    }

    @Test func prepareMakesAsyncEagerAndActorIsolatedSharedServices() async throws {
        let box = DIContainer()
        let runs = RunCount()
        box.register {
            Shared { _ async throws in RemoteConfig(version: runs.increment()) }
            Shared { @DatabaseActor in ActorDatabase(id: 7) }
            New { _ async throws in HTTPClient(version: 9) }
        }
        try await box.prepare()
        let config = try box.tryResolve(RemoteConfig.self)
        #expect(config.version == 1)
        #expect(try box.tryResolve(ActorDatabase.self).id == 7)
        try await box.prepare()
        #expect(runs.count == 1)
        #expect(try box.tryResolve(RemoteConfig.self) === config)
        // A New async factory is not prepared: each async resolve makes one.
        #expect(throws: ResolutionError.self) { try box.tryResolve(HTTPClient.self) }
        #expect(try await box.resolveAsync(HTTPClient.self).version == 9)
    }

    @Test func aGlobalActorFactoryRunsOnItsActorAndIsReportedBeforeThat() async throws {
        let box = DIContainer()
        box.register { Shared { @DatabaseActor in ActorDatabase(id: 1) } }
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(ActorDatabase.self) }
        #expect(error.reason == .notYetMade(actor: "DatabaseActor"))
        #expect(error.description.hasPrefix("'ActorDatabase' is made by a factory isolated to DatabaseActor"))
        let database = try await box.resolveAsync(ActorDatabase.self)
        #expect(try box.tryResolve(ActorDatabase.self) === database)
    }

    @Test func aFailingAsyncFactoryKeepsNothingAndTheNextResolveTriesAgain() async throws {
        let box = DIContainer()
        let runs = RunCount()
        box.register {
            Shared { _ async throws -> RemoteConfig in
                if runs.increment() == 1 { throw Flaky() }
                return RemoteConfig(version: 2)
            }
        }
        await #expect(throws: ResolutionError.self) { try await box.resolveAsync(RemoteConfig.self) }
        #expect(throws: ResolutionError.self) { try box.tryResolve(RemoteConfig.self) }
        #expect(try await box.resolveAsync(RemoteConfig.self).version == 2)
        #expect(runs.count == 2)
    }

    @Test func aCancelledAsyncFactoryKeepsNothing() async throws {
        let box = DIContainer()
        box.register {
            Shared { _ async throws -> RemoteConfig in
                try Task.checkCancellation()
                return RemoteConfig(version: 5)
            }
        }
        let task = Task { try await box.resolveAsync(RemoteConfig.self) }
        task.cancel()
        _ = await task.result
        #expect(try await box.resolveAsync(RemoteConfig.self).version == 5)
    }

    @Test func aMainActorFactoryResolvedAsynchronouslyRunsOnTheMainActor() async throws {
        let box = DIContainer()
        box.register { Shared { @MainActor in MainActorService() } }
        let model = try await Task.detached { try await box.resolveAsync(MainActorService.self) }.value
        let again = try await Task.detached { try await box.resolveAsync(MainActorService.self) }.value
        #expect(model === again)
        // Made, the main-actor instance (Sendable) is handed out off the main actor too.
        #expect(try await Task.detached { try box.tryResolve(MainActorService.self) }.value === model)
    }

    @MainActor @Test func anAsyncFactoryWrittenInMainActorCodeRunsOnTheMainActor() async throws {
        let box = DIContainer()
        box.register {
            Shared { @MainActor in MainActorService() }
            // Written here, on the main actor: its synchronous resolve() of a main-actor service works.
            Shared { resolve async throws -> RemoteConfig in
                MainActor.preconditionIsolated("an async factory written on the main actor runs there")
                _ = resolve(MainActorService.self)
                return RemoteConfig(version: 4)
            }
            // With aliases too (another initializer).
            Shared(
                { _ async throws -> RemoteConfig in
                    MainActor.preconditionIsolated("an async factory with aliases written on the main actor runs there")
                    return RemoteConfig(version: 8)
                }, as: RemoteSettings.self
            ).named("aliased")
        }
        let notYet = await errorInDetachedTask { _ = try box.tryResolve(RemoteConfig.self) }
        #expect(notYet?.reason == .notYetMade(actor: nil))
        let config = try await Task.detached { try await box.resolveAsync(RemoteConfig.self) }.value
        #expect(config.version == 4)
        // Made, its Sendable instance is returned off the main actor too.
        #expect(try await Task.detached { try box.tryResolve(RemoteConfig.self) }.value === config)
        let aliased = try await Task.detached { try await box.resolveAsync(RemoteSettings.self, name: "aliased") }.value
        #expect((aliased as? RemoteConfig)?.version == 8)
    }

    @Test func anAsyncFactoryWrittenInNonisolatedCodeRunsOffTheMainActor() async throws {
        let box = DIContainer()
        box.register {
            Shared { @MainActor in MainActorService() }
            // Written here, in nonisolated code: it runs off the main actor, and the main-actor
            // (Sendable) service it resolves is made on the main actor for it.
            Shared { resolve async throws -> RemoteConfig in
                let onMainActor = await MainActor.run { MainActorQueue.isCurrent }
                _ = try resolve.tryResolve(MainActorService.self)
                return RemoteConfig(version: MainActorQueue.isCurrent || !onMainActor ? 0 : 6)
            }
        }
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(RemoteConfig.self) }
        #expect(error.reason == .notYetMade(actor: nil))
        #expect(try await box.resolveAsync(RemoteConfig.self).version == 6)
    }

    @Test func resolveAsyncOfASynchronousServiceResolvesIt() async throws {
        let box = DIContainer()
        box.register { Shared(HTTPClient.init) }
        let client = try await box.resolveAsync(HTTPClient.self)
        #expect(client === box.resolve(HTTPClient.self))
        let missing = await #expect(throws: ResolutionError.self) { try await box.resolveAsync(RemoteConfig.self) }
        #expect(missing?.reason == .missingRegistration)
    }
}

/// Async services that need each other (through `resolveAsync` in their factories).
final class AsyncEgg: Sendable { init() {} }
final class AsyncHen: Sendable { init() {} }

/// Lets tasks go on only once `parties` of them arrived; stays open after that.
actor Rendezvous {
    private let parties: Int
    private var arrived = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(parties: Int) { self.parties = parties }

    func arrive() async {
        arrived += 1
        guard arrived < parties else {
            for task in waiting { task.resume() }
            waiting = []
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }
}

/// The error `body` throws, if any.
func thrownError(_ body: () async throws -> Void) async -> ResolutionError? {
    do {
        try await body()
        return nil
    } catch {
        return error as? ResolutionError
    }
}

private final class CancelledWaitA: Sendable {}
private final class CancelledWaitB: Sendable {}
private final class OuterRun: Sendable {}
private final class InnerA: Sendable {}
private final class InnerB: Sendable {}
private final class AsksForItself: Sendable {}
private final class TwoTaskX: Sendable {}
private final class TwoTaskY: Sendable {}
private final class SyncBelowOuter: Sendable {}
private final class SyncBelowMiddle: Sendable {}
private final class SyncBelowPlain: Sendable {}
private final class ThreeRunX: Sendable {}
private final class ThreeRunY: Sendable {}
private final class ThreeRunN: Sendable {}
private final class ChildAboveA: Sendable {}
private final class ChildAboveB: Sendable {}

@Suite(.timeLimit(.minutes(1)))
struct AsyncCycleTests {
    // Factories resolve through the static API: while an async factory runs, its container is
    // current (capturing `box` would make a reference cycle: box, its factory, box).

    /// A cycle of async runs below an outer run: the path goes through the outer run once.
    @Test func anAsyncCycleBelowAnOuterRunKeepsItsPath() async {
        let box = DIContainer()
        box.register {
            Shared { _ async throws -> OuterRun in
                _ = try await DIContainer.resolveAsync(InnerA.self)
                return OuterRun()
            }
            Shared { _ async throws -> InnerA in
                _ = try await DIContainer.resolveAsync(InnerB.self)
                return InnerA()
            }
            Shared { _ async throws -> InnerB in
                _ = try await DIContainer.resolveAsync(InnerA.self)
                return InnerB()
            }
        }
        let error = await thrownError { _ = try await box.resolveAsync(OuterRun.self) }
        #expect(error?.reason == .dependencyCycle(cycle: ["InnerA", "InnerB", "InnerA"]))
        #expect(error?.path == ["OuterRun", "InnerA", "InnerB", "InnerA"], "\(String(describing: error))")
    }

    /// Task one makes X, which awaits Y; task two makes Y, which awaits X: whichever side finds the
    /// cycle, each side's path closes it.
    @Test func aCycleAcrossTwoTasksHasAClosedPathOnBothSides() async throws {
        let (xAsks, yStarted) = (AsyncGate(), AsyncGate())
        let box = DIContainer()
        box.register {
            Shared { _ async throws -> TwoTaskX in
                await xAsks.pass()  // once task two makes Y
                _ = try await DIContainer.resolveAsync(TwoTaskY.self)
                return TwoTaskX()
            }
            Shared { _ async throws -> TwoTaskY in
                await yStarted.pass()
                _ = try await DIContainer.resolveAsync(TwoTaskX.self)
                return TwoTaskY()
            }
        }
        await yStarted.open()
        let first = Task { await thrownError { _ = try await box.resolveAsync(TwoTaskX.self) } }
        await xAsks.firstArrival()
        let second = Task { await thrownError { _ = try await box.resolveAsync(TwoTaskY.self) } }
        await yStarted.firstArrival()
        await xAsks.open()
        let (x, y) = await (first.value, second.value)
        #expect(x?.path == ["TwoTaskX", "TwoTaskY", "TwoTaskX"], "\(String(describing: x))")
        #expect(y?.path == ["TwoTaskY", "TwoTaskX", "TwoTaskY"], "\(String(describing: y))")
    }

    /// Outer (async) -> Middle (async) -> Plain (synchronous, resolved by Middle's resolveAsync) -> Outer:
    /// the cycle names every run on it, as its path does.
    @Test func aCycleClosedByASynchronousFactoryNamesEveryRunOnIt() async {
        let box = DIContainer()
        box.register {
            Shared { _ async throws -> SyncBelowOuter in
                _ = try await DIContainer.resolveAsync(SyncBelowMiddle.self)
                return SyncBelowOuter()
            }
            Shared { _ async throws -> SyncBelowMiddle in
                _ = try await DIContainer.resolveAsync(SyncBelowPlain.self)
                return SyncBelowMiddle()
            }
            Shared { resolve throws -> SyncBelowPlain in
                _ = try resolve.tryResolve(SyncBelowOuter.self)
                return SyncBelowPlain()
            }
        }
        let error = await thrownError { _ = try await box.resolveAsync(SyncBelowOuter.self) }
        let steps = ["SyncBelowOuter", "SyncBelowMiddle", "SyncBelowPlain", "SyncBelowOuter"]
        #expect(error?.reason == .dependencyCycle(cycle: steps), "\(String(describing: error))")
        #expect(error?.path == steps, "\(String(describing: error))")
    }

    @Test func anAsyncRunAskingForItselfBelowAnOuterRunKeepsItsPath() async {
        let box = DIContainer()
        box.register {
            Shared { _ async throws -> OuterRun in
                _ = try await DIContainer.resolveAsync(AsksForItself.self)
                return OuterRun()
            }
            Shared { _ async throws -> AsksForItself in
                _ = try await DIContainer.resolveAsync(AsksForItself.self)
                return AsksForItself()
            }
        }
        let error = await thrownError { _ = try await box.resolveAsync(OuterRun.self) }
        #expect(error?.path == ["OuterRun", "AsksForItself", "AsksForItself"], "\(String(describing: error))")
        let report = await box.validate()
        let outer = report.problems.first { $0.registration == "OuterRun" }
        #expect(outer?.error.path == ["OuterRun", "AsksForItself", "AsksForItself"], "\(report)")
    }
    /// A wait that its task's cancellation ended is forgotten: a run that then asks for the
    /// service of the run that waited waits for it, and is no cycle.
    @Test func aWaitEndedByCancellationLeavesNoCycleBehind() async throws {
        let box = DIContainer()
        let (aStarted, aAsked, aGoesOn, bAsks) = (AsyncGate(), AsyncGate(), AsyncGate(), AsyncGate())
        box.register {
            // A: asks for B once its task is cancelled (so its wait ends at once), then goes on.
            Shared { _ async -> CancelledWaitA in
                await aStarted.pass()
                _ = try? await DIContainer.resolveAsync(CancelledWaitB.self)
                await aAsked.pass()
                await aGoesOn.pass()
                return CancelledWaitA()
            }
            // B: asks for A, which runs and waits for nothing.
            Shared { _ async throws -> CancelledWaitB in
                await bAsks.pass()
                _ = try await DIContainer.resolveAsync(CancelledWaitA.self)
                return CancelledWaitB()
            }
        }
        await aAsked.open()  // only tells that A got there
        let b = Task { try await box.resolveAsync(CancelledWaitB.self) }
        await bAsks.firstArrival()
        let a = Task { try await box.resolveAsync(CancelledWaitA.self) }
        await aStarted.firstArrival()
        a.cancel()
        await aStarted.open()
        await aAsked.firstArrival()
        await bAsks.open()
        // B waits for A (a cycle would fail it at once), until A goes on.
        #expect(await outcome(of: b, within: 1) == nil)
        await aGoesOn.open()
        let made = try #require(await outcome(of: b, within: 20), "B never finished")
        #expect(throws: Never.self) { try made.get() }
    }

    @Test func anAsyncSharedThatAwaitsItselfIsACycleNotATaskWaitingForItself() async throws {
        let box = DIContainer()
        box.register {
            Shared { _ async throws -> AsyncEgg in
                _ = try await DIContainer.resolveAsync(AsyncEgg.self)
                return AsyncEgg()
            }
        }
        let error = await thrownError { _ = try await box.resolveAsync(AsyncEgg.self) }
        #expect(error?.reason == .dependencyCycle(cycle: ["AsyncEgg", "AsyncEgg"]))
        #expect(error?.path == ["AsyncEgg", "AsyncEgg"])
        // Nothing was kept: the next resolve runs the factory again and fails the same way.
        #expect(await thrownError { _ = try await box.resolveAsync(AsyncEgg.self) }?.reason == error?.reason)
    }

    @Test func anAsyncNewThatAwaitsItselfIsACycleNotEndlessRecursion() async throws {
        let box = DIContainer()
        box.register {
            New { _ async throws -> AsyncEgg in
                _ = try await DIContainer.resolveAsync(AsyncEgg.self)
                return AsyncEgg()
            }
        }
        let error = await thrownError { _ = try await box.resolveAsync(AsyncEgg.self) }
        #expect(error?.reason == .dependencyCycle(cycle: ["AsyncEgg", "AsyncEgg"]))
    }

    @Test func twoAsyncFactoriesThatAwaitEachOtherInOneTaskAreACycle() async throws {
        let box = DIContainer()
        box.register {
            Shared { _ async throws -> AsyncEgg in
                _ = try await DIContainer.resolveAsync(AsyncHen.self)
                return AsyncEgg()
            }
            New { _ async throws -> AsyncHen in
                _ = try await DIContainer.resolveAsync(AsyncEgg.self)
                return AsyncHen()
            }
        }
        let error = await thrownError { _ = try await box.resolveAsync(AsyncEgg.self) }
        #expect(error?.reason == .dependencyCycle(cycle: ["AsyncEgg", "AsyncHen", "AsyncEgg"]))
        #expect(error?.path == ["AsyncEgg", "AsyncHen", "AsyncEgg"])
        // The fix it gives works for async factories: an onResolve action cannot await the other side.
        let message = error?.description ?? ""
        #expect(message.contains("an async factory cannot wait for a service that waits for it"), "\(message)")
        #expect(!message.contains("onResolve"), "\(message)")
    }

    /// Task one makes the egg and waits for the hen that task two makes, which waits for the egg:
    /// whichever asks second gets the cycle (each task's own run would otherwise wait forever).
    @Test func asyncFactoriesThatAwaitEachOtherFromTwoTasksAreACycleNotADeadlock() async throws {
        let box = DIContainer()
        let bothStarted = Rendezvous(parties: 2)
        box.register {
            Shared { _ async throws -> AsyncEgg in
                await bothStarted.arrive()
                _ = try await DIContainer.resolveAsync(AsyncHen.self)
                return AsyncEgg()
            }
            Shared { _ async throws -> AsyncHen in
                await bothStarted.arrive()
                _ = try await DIContainer.resolveAsync(AsyncEgg.self)
                return AsyncHen()
            }
        }
        async let egg = thrownError { _ = try await box.resolveAsync(AsyncEgg.self) }
        async let hen = thrownError { _ = try await box.resolveAsync(AsyncHen.self) }
        let reasons = await [egg?.reason, hen?.reason]
        #expect(reasons.contains(.dependencyCycle(cycle: ["AsyncEgg", "AsyncHen", "AsyncEgg"])))
        #expect(reasons.contains(.dependencyCycle(cycle: ["AsyncHen", "AsyncEgg", "AsyncHen"])))
    }

    @Test func prepareReportsACycleOfAsyncFactories() async throws {
        let box = DIContainer()
        box.register {
            Shared { _ async throws -> AsyncEgg in
                _ = try await DIContainer.resolveAsync(AsyncHen.self)
                return AsyncEgg()
            }
            Shared { _ async throws -> AsyncHen in
                _ = try await DIContainer.resolveAsync(AsyncEgg.self)
                return AsyncHen()
            }
        }
        let error = await thrownError { try await box.prepare() }
        guard case .dependencyCycle(let cycle)? = error?.reason else {
            Issue.record("expected a cycle, got \(String(describing: error))")
            return
        }
        #expect(Set(cycle) == ["AsyncEgg", "AsyncHen"] && cycle.count == 3)
    }

    /// Two child tasks of one factory both wait for another task's run: waiting for a run that
    /// does not wait for them is no cycle.
    @Test func siblingTasksAwaitingOneAsyncSharedAreNoCycle() async throws {
        for _ in 0..<50 {
            let box = DIContainer()
            let made = RunCount()
            box.register {
                Shared { _ async throws -> AsyncEgg in
                    async let first = DIContainer.resolveAsync(AsyncHen.self)
                    async let second = DIContainer.resolveAsync(AsyncHen.self)
                    #expect(try await first === second)
                    return AsyncEgg()
                }
                Shared { _ async throws -> AsyncHen in
                    _ = made.increment()
                    await Task.yield()
                    return AsyncHen()
                }
            }
            _ = try await box.resolveAsync(AsyncEgg.self)
            #expect(made.count == 1)
        }
    }

    /// Task one makes X, which asks for Y; task two makes Y, which asks for N (in its own task),
    /// which asks for X: each side's cycle and path name every run on it, N included, whichever
    /// task finds the cycle (the other then makes the rest itself and finds it in its own task).
    @Test func aCycleAcrossTwoTasksNamesTheInnerRunsOfTheOtherTask() async {
        let (xAsks, nAsks) = (AsyncGate(), AsyncGate())
        let box = DIContainer()
        box.register {
            Shared { _ async throws -> ThreeRunX in
                await xAsks.pass()  // once task two's N asks for X
                _ = try await DIContainer.resolveAsync(ThreeRunY.self)
                return ThreeRunX()
            }
            Shared { _ async throws -> ThreeRunY in
                _ = try await DIContainer.resolveAsync(ThreeRunN.self)
                return ThreeRunY()
            }
            Shared { _ async throws -> ThreeRunN in
                await nAsks.pass()
                _ = try await DIContainer.resolveAsync(ThreeRunX.self)
                return ThreeRunN()
            }
        }
        await nAsks.open()
        let first = Task { await thrownError { _ = try await box.resolveAsync(ThreeRunX.self) } }
        await xAsks.firstArrival()
        let second = Task { await thrownError { _ = try await box.resolveAsync(ThreeRunY.self) } }
        await nAsks.firstArrival()
        await xAsks.open()
        let (x, y) = await (first.value, second.value)
        #expect(
            x?.reason == .dependencyCycle(cycle: ["ThreeRunX", "ThreeRunY", "ThreeRunN", "ThreeRunX"]),
            "\(String(describing: x))")
        #expect(x?.path == ["ThreeRunX", "ThreeRunY", "ThreeRunN", "ThreeRunX"], "\(String(describing: x))")
        #expect(y?.path == ["ThreeRunY", "ThreeRunN", "ThreeRunX", "ThreeRunY"], "\(String(describing: y))")
    }

    /// The parent's A and B need each other; the child's own A needs B (the parent's, whose A is the
    /// parent's): the child's A is not on the cycle, and its path goes through the parent's A back to
    /// B, as a synchronous resolve's does (the two A's share a name: the path is not cut at it).
    @Test func aChildsServiceAboveAParentsAsyncCycleHasTheWholePath() async {
        let parent = DIContainer()
        parent.register {
            Shared { _ async throws -> ChildAboveA in
                _ = try await DIContainer.resolveAsync(ChildAboveB.self)
                return ChildAboveA()
            }
            Shared { _ async throws -> ChildAboveB in
                _ = try await DIContainer.resolveAsync(ChildAboveA.self)
                return ChildAboveB()
            }
        }
        let child = DIContainer(parent: parent)
        child.register {
            Shared { _ async throws -> ChildAboveA in
                _ = try await DIContainer.resolveAsync(ChildAboveB.self)
                return ChildAboveA()
            }
        }
        let error = await thrownError { _ = try await child.resolveAsync(ChildAboveA.self) }
        let whole = ["ChildAboveA", "ChildAboveB", "ChildAboveA", "ChildAboveB"]
        #expect(error?.reason == .dependencyCycle(cycle: ["ChildAboveB", "ChildAboveA", "ChildAboveB"]))
        #expect(error?.path == whole, "\(String(describing: error))")
        let report = await child.validate()
        #expect(report.problems.first { $0.registration == "ChildAboveA" }?.error.path == whole, "\(report)")
    }
}

/// A protocol the runtime cannot rebuild from its name (it is private): registration cannot check
/// that a type conforms, so a value that does not is found when it is made.
private protocol PrivateAudit: Sendable {}

@MainActor final class MainActorSettings {
    let version: Int
    init(config: RemoteConfig) { version = config.version }
}

@MainActor final class DatabaseScreen {
    let databaseID: Int
    init(database: ActorDatabase) { databaseID = database.id }
}

/// A Sendable main-actor service, a plain one that needs it (autowired), and an async one that
/// needs that: the contract's `Shared { resolve async throws in … RemoteConfig.load(client: resolve()) }`.
@MainActor final class StoreSettings: Sendable { init() { MainActor.preconditionIsolated() } }
final class StoreClient: Sendable { init(settings: StoreSettings) {} }
final class StoreFeed: Sendable { init(client: StoreClient) {} }
final class StoreWrappedClient: @unchecked Sendable { @Inject var settings: StoreSettings }
final class StoreWrappedFeed: Sendable { init(client: StoreWrappedClient) {} }
final class StorePart: Sendable {}
final class StoreCatalog: Sendable { init(part: StorePart, client: StoreClient) {} }
final class StoreJournal: Sendable { init(_ runs: Tally) { runs.increment() } }
final class StoreDesk: Sendable { init(journal: StoreJournal, settings: StoreSettings) {} }
final class StoreFront: Sendable { init(desk: StoreDesk) {} }
/// Needs the config an async factory loads; made by an async factory that resolves it synchronously.
private final class PreparedConfigUser: Sendable {
    let config: RemoteConfig
    init(config: RemoteConfig) { self.config = config }
}

@Suite(.timeLimit(.minutes(1)))
struct AsyncEdgeTests {
    /// The same when the plain dependency declares its need with `@Inject`: prepare() makes it, as
    /// validate() says (it trapped: a wrapper cannot pass the failure up for the hop).
    @Test func prepareMakesAnAsyncServiceWhosePlainDependencysWrapperNeedsAMainActorShared() async throws {
        let box = DIContainer()
        box.register {
            Shared { @MainActor in StoreSettings() }
            Shared { StoreWrappedClient() }
            Shared { resolve async throws in StoreWrappedFeed(client: try resolve.tryResolve()) }
        }
        let report = await box.validate()
        #expect(report.isValid && report.validCount == 3, "\(report)")
        try await box.prepare()
        #expect((try? box.tryResolve(StoreWrappedFeed.self)) != nil)
    }

    /// A `Graph` the run resolved before is not something this resolve kept: the hop still happens.
    @Test func aGraphResolvedEarlierInTheRunDoesNotStopTheHop() async throws {
        let box = DIContainer()
        box.register {
            Shared { @MainActor in StoreSettings() }
            Graph { StorePart() }
            Shared(StoreClient.init)
            Shared { resolve async throws in
                StoreCatalog(part: try resolve.tryResolve(), client: try resolve.tryResolve())
            }
        }
        let report = await box.validate()
        #expect(report.isValid, "\(report)")
        try await box.prepare()
        #expect((try? box.tryResolve(StoreCatalog.self)) != nil)
    }

    /// A resolve an async factory's code makes is made again on the main actor only if it kept
    /// nothing yet: a `Shared` it completed is never made twice (it fails instead, as before).
    @Test func aSharedMadeBeforeTheMainActorIsNeededIsMadeOnce() async throws {
        let runs = Tally()
        let box = DIContainer()
        box.register {
            Shared { @MainActor in StoreSettings() }
            Shared { StoreJournal(runs) }
            Shared { resolve throws in StoreDesk(journal: try resolve.tryResolve(), settings: try resolve.tryResolve())
            }
            Shared { resolve async throws in StoreFront(desk: try resolve.tryResolve()) }
        }
        _ = try? await box.resolveAsync(StoreFront.self)
        #expect(runs.value == 1, "StoreJournal's factory ran \(runs.value) times")
    }

    /// One `Graph` instance for everything one async factory run resolves, async or not.
    @Test func anAsyncGraphIsOneInstancePerAsyncFactoryRun() async throws {
        let box = DIContainer()
        let same = Guarded<Bool?>(nil)
        box.register {
            Graph { _ async in AsyncEgg() }
            Shared { _ async throws -> AsyncHen in
                let first = try await box.resolveAsync(AsyncEgg.self)
                let second = try await box.resolveAsync(AsyncEgg.self)
                let third = box.resolve(AsyncEgg.self)
                same.withLock { $0 = first === second && second === third }
                return AsyncHen()
            }
        }
        _ = try await box.resolveAsync(AsyncHen.self)
        #expect(same.current == true)
    }

    /// prepare() makes the async service before the main-actor one: its plain dependency's need is
    /// met on the main actor for it, as for a top-level resolve, with a plain resolve() too.
    @Test func prepareMakesAnAsyncServiceWhosePlainDependencyNeedsAMainActorShared() async throws {
        for form in ["resolve()", "tryResolve()"] {
            let box = DIContainer()
            box.register {
                Shared { @MainActor in StoreSettings() }
                Shared(StoreClient.init)
                if form == "resolve()" {
                    Shared { resolve async in StoreFeed(client: resolve()) }
                } else {
                    Shared { resolve async throws in StoreFeed(client: try resolve.tryResolve()) }
                }
            }
            let report = await box.validate()
            #expect(report.isValid && report.validCount == 3, "\(form): \(report)")
            try await box.prepare()
            #expect((try? box.tryResolve(StoreFeed.self)) != nil, "\(form)")
        }
    }

    @Test func anAsyncValueThatIsNotItsAliasIsAnErrorAndIsNotKept() async throws {
        let box = DIContainer()
        try box.tryRegister(Shared({ _ async throws in RemoteConfig(version: 1) }, as: (any PrivateAudit).self))
        let error = await thrownError { _ = try await box.resolveAsync((any PrivateAudit).self) }
        #expect(error?.reason == .aliasNotConforming(implementation: "RemoteConfig"))
        #expect(throws: ResolutionError.self) { try box.tryResolve(RemoteConfig.self) }
    }

    @Test func resolveAsyncOfAnOptionalAwaitsTheAsyncFactory() async throws {
        let box = DIContainer()
        box.register { Shared { _ async throws in RemoteConfig(version: 1) } }
        #expect(try await box.resolveAsync(RemoteConfig?.self)?.version == 1)
        #expect(try await box.resolveAsync(HTTPClient?.self) == nil)
    }

    @Test func prepareOfAChildMakesTheParentsAsyncServiceTheChildShadows() async throws {
        let parent = DIContainer()
        parent.register {
            Shared { _ async throws in RemoteConfig(version: 1) }
            Shared { resolve in HTTPClient(version: try resolve.tryResolve(RemoteConfig.self).version) }
        }
        let child = DIContainer(parent: parent)
        child.register { Shared(RemoteConfig(version: 2)) }
        try await child.prepare()
        // HTTPClient is the parent's: made by the parent, with the parent's RemoteConfig.
        #expect(try child.tryResolve(HTTPClient.self).version == 1)
        #expect(try child.tryResolve(RemoteConfig.self).version == 2)
    }

    @Test func prepareMakesAnAsyncServiceBeforeTheMainActorServiceThatNeedsIt() async throws {
        let box = DIContainer()
        box.register {
            Shared { _ async throws -> RemoteConfig in
                try await Task.sleep(nanoseconds: 50_000_000)  // a slow load, not synchronization
                return RemoteConfig(version: 3)
            }
            // Not `tryResolve`: a synchronous resolve of what is not made yet would trap.
            Shared { @MainActor resolve in MainActorSettings(config: resolve()) }
        }
        try await box.prepare()
        #expect(await MainActor.run { box.resolve(MainActorSettings.self).version } == 3)
    }

    @Test func prepareTriesAgainAServiceWhoseDependencyWasNotMadeYet() async throws {
        let box = DIContainer()
        box.register {
            Shared { @DatabaseActor in ActorDatabase(id: 4) }
            // Made on the main actor while the database may not be made yet: then tried again.
            Shared { @MainActor resolve in DatabaseScreen(database: try resolve.tryResolve()) }
        }
        try await box.prepare()
        #expect(await MainActor.run { box.resolve(DatabaseScreen.self).databaseID } == 4)
    }

    /// An async factory that synchronously needs another async service, not made yet when it first
    /// runs, is made in prepare()'s next round, with the instance the other one's factory made.
    @Test func prepareMakesInRoundsWhatNeedsAnotherAsyncServiceSynchronously() async throws {
        let box = DIContainer()
        box.register {
            Shared { _ async throws -> RemoteConfig in
                try await Task.sleep(nanoseconds: 100_000_000)  // a slow load, not synchronization
                return RemoteConfig(version: 5)
            }
            Shared { resolve async throws in PreparedConfigUser(config: try resolve.tryResolve()) }
        }
        try await box.prepare()
        let user = try box.tryResolve(PreparedConfigUser.self)
        #expect(user.config === (try box.tryResolve(RemoteConfig.self)))
        #expect(user.config.version == 5)
    }
}

/// A connection made by an async factory.
final class AsyncConnection: Sendable {
    let id: Int
    init(id: Int) { self.id = id }
}

/// A task a factory started, kept for the test to await.
final class StartedTask: @unchecked Sendable {
    // Unchecked: `task` is guarded by `lock`.
    private let lock = DispatchSemaphore(value: 1)
    private var task: Task<AsyncConnection, any Error>?

    func keep(_ task: Task<AsyncConnection, any Error>) {
        lock.wait()
        defer { lock.signal() }
        self.task = task
    }

    /// Starts a `Task { }` (it inherits the caller's task-locals) that resolves a connection once
    /// `gate` opens, and keeps it.
    func resolveAgain(after gate: Rendezvous) {
        keep(
            Task {
                await gate.arrive()
                return try await DIContainer.resolveAsync(AsyncConnection.self)
            })
    }

    var kept: Task<AsyncConnection, any Error>? {
        lock.wait()
        defer { lock.signal() }
        return task
    }
}

/// An instance that runs a task of its own for as long as it lives.
final class Heartbeat: Sendable {
    private let task: Task<Void, Never>
    private let ticks: AsyncStream<Int>.Continuation

    init() {
        let (stream, ticks) = AsyncStream<Int>.makeStream()
        self.ticks = ticks
        task = Task { for await _ in stream {} }
    }

    deinit { task.cancel() }
}

@Suite(.timeLimit(.minutes(1)))
struct AsyncRunLifetimeTests {
    /// A `Task { }` inherits the run's task-locals and outlives it: once the run is over, it is in no cycle.
    @Test func aTaskStartedByAnAsyncFactoryResolvesItAgainOnceTheRunIsOver() async throws {
        let box = DIContainer()
        let runs = RunCount()
        let started = StartedTask()
        let runIsOver = Rendezvous(parties: 2)
        box.register {
            New { _ async throws -> AsyncConnection in
                let run = runs.increment()
                if run == 1 {
                    started.resolveAgain(after: runIsOver)
                }
                return AsyncConnection(id: run)
            }
        }
        #expect(try await box.resolveAsync(AsyncConnection.self).id == 1)
        await runIsOver.arrive()
        #expect(try await started.kept?.value.id == 2)
    }

    @Test func aRetryStartedByAFailedAsyncSharedAfterItsRunIsNoCycle() async throws {
        let box = DIContainer()
        let runs = RunCount()
        let started = StartedTask()
        let runIsOver = Rendezvous(parties: 2)
        box.register {
            Shared { _ async throws -> AsyncConnection in
                let run = runs.increment()
                if run == 1 {
                    started.resolveAgain(after: runIsOver)
                    throw Flaky()
                }
                return AsyncConnection(id: run)
            }
        }
        #expect(await thrownError { _ = try await box.resolveAsync(AsyncConnection.self) }?.reason == .factoryFailed)
        await runIsOver.arrive()
        #expect(try await started.kept?.value.id == 2)
    }

    @Test func resetReleasesAnAsyncSharedWhoseInstanceRunsATaskOfItsOwn() async throws {
        let box = DIContainer()
        box.register { Shared { _ async throws in Heartbeat() } }
        let made = WeakReference(try await box.resolveAsync(Heartbeat.self))
        box.reset()
        #expect(made.object == nil)
    }

    @Test func prepareMakesAnAsyncSharedThatServesOnlyItsAlias() async throws {
        let box = DIContainer()
        box.register { Shared({ _ async throws in RemoteConfig(version: 1) }, as: (any RemoteSettings).self) }
        box.register { Shared(RemoteConfig(version: 2)) }  // replaces the RemoteConfig slot only
        try await box.prepare()
        #expect((try box.tryResolve((any RemoteSettings).self) as? RemoteConfig)?.version == 1)
    }
}
