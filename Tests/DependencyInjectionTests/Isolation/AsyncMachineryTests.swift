import DependencyInjection
import Dispatch
import Testing

// The async machinery gives no stale or doubled answers: releases racing resolves, `Weak` and
// `Graph` async services, cancellation while waiting, eager async and actor-isolated services.

/// A gate that async factories wait at until the test opens it; tells when the first one arrived.
actor AsyncGate {
    private var isOpen = false
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var arrivals: [CheckedContinuation<Void, Never>] = []
    private(set) var arrived = 0

    func pass() async {
        arrived += 1
        for arrival in arrivals { arrival.resume() }
        arrivals = []
        if isOpen { return }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Returns once some factory waits at the gate (or passed it).
    func firstArrival() async {
        if arrived > 0 { return }
        await withCheckedContinuation { arrivals.append($0) }
    }

    func open() {
        isOpen = true
        for task in waiting { task.resume() }
        waiting = []
    }
}

/// What `task` ended with, or `nil` if it has not ended `seconds` after the call (a hang).
func outcome<T: Sendable>(of task: Task<T, any Error>, within seconds: Double) async -> Result<T, any Error>? {
    let first = Guarded<CheckedContinuation<Result<T, any Error>?, Never>?>(nil)
    return await withCheckedContinuation { continuation in
        first.withLock { $0 = continuation }
        func finish(_ result: Result<T, any Error>?) {
            first.withLock { pending in
                pending?.resume(returning: result)
                pending = nil
            }
        }
        Task { finish(await task.result) }
        Task {
            try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
            finish(nil)
        }
    }
}

final class AsyncMade: Sendable {
    let number: Int
    init(number: Int) { self.number = number }
}

final class GraphPair: Sendable {
    let first: GraphSession
    let second: GraphSession
    init(_ first: GraphSession, _ second: GraphSession) { (self.first, self.second) = (first, second) }
}

final class GraphSession: Sendable { init() {} }

@Suite(.timeLimit(.minutes(1)))
struct AsyncMachineryTests {
    /// How many of `times` calls of `body` failed while a concurrent task released `box`'s instances.
    ///
    /// One release races each call, in a child task: a releasing loop that ran for the whole test
    /// held a thread of the cooperative pool and took the library's process-wide lock again and
    /// again (the lock is not fair), so under ThreadSanitizer's slower run every other test stalled
    /// behind it.
    private func failures(
        of body: @escaping (DIContainer) async throws -> Void, times: Int
    ) async -> Int {
        let box = DIContainer()
        box.register { Shared { _ async in AsyncMade(number: 1) } }
        var failures = 0
        for _ in 0..<times {
            async let released: Void = box.releaseInstances()
            do { try await body(box) } catch { failures += 1 }
            await released
        }
        return failures
    }

    @Test func resolveAsyncNeverSaysNotYetMadeWhileInstancesAreReleased() async {
        #expect(await failures(of: { _ = try await $0.resolveAsync(AsyncMade.self) }, times: 5_000) == 0)
    }

    @Test func prepareNeverSaysNotYetMadeWhileInstancesAreReleased() async {
        #expect(await failures(of: { try await $0.prepare() }, times: 3_000) == 0)
    }

    @Test func releaseInstancesWhileAnAsyncSharedIsMadeDoesNotKeepTheInstanceInFlight() async throws {
        let box = DIContainer()
        let gate = AsyncGate()
        let runs = RunCount()
        box.register {
            Shared { _ async -> AsyncMade in
                let run = runs.increment()
                if run == 1 { await gate.pass() }
                return AsyncMade(number: run)
            }
        }
        let first = Task { try await box.resolveAsync(AsyncMade.self) }
        await gate.firstArrival()
        box.releaseInstances()
        await gate.open()
        #expect(try await first.value.number == 1)
        #expect(try await box.resolveAsync(AsyncMade.self).number == 2)
        #expect(box.resolve(AsyncMade.self).number == 2)
    }

    @Test func anAsyncWeakResolvedByTwoTasksAtOnceIsMadeOnce() async throws {
        let box = DIContainer()
        let gate = AsyncGate()
        let runs = RunCount()
        box.register {
            Weak { _ async -> AsyncMade in
                let run = runs.increment()
                await gate.pass()
                return AsyncMade(number: run)
            }
        }
        let first = Task { try await box.resolveAsync(AsyncMade.self) }
        await gate.firstArrival()
        let second = Task { try await box.resolveAsync(AsyncMade.self) }
        for _ in 0..<100 { await Task.yield() }
        await gate.open()
        let (a, b) = try await (first.value, second.value)
        #expect(a === b)
        #expect(runs.count == 1)
    }

    @Test func oneResolveAsyncSharesOneGraphInstance() async throws {
        let box = DIContainer()
        box.register {
            Graph(GraphSession.init)
            New { resolve async in GraphPair(resolve(GraphSession.self), resolve(GraphSession.self)) }
        }
        let pair = try await box.resolveAsync(GraphPair.self)
        #expect(pair.first === pair.second)
        let other = try await box.resolveAsync(GraphPair.self)
        #expect(other.first !== pair.first)
    }

    @Test func aCancelledResolveAsyncWaitingForAnotherTasksMakeStopsWaiting() async throws {
        let box = DIContainer()
        let gate = AsyncGate()
        box.register {
            Shared { _ async -> AsyncMade in
                await gate.pass()
                return AsyncMade(number: 1)
            }
        }
        let making = Task { try await box.resolveAsync(AsyncMade.self) }
        await gate.firstArrival()
        let waiting = Task { try await box.resolveAsync(AsyncMade.self) }
        for _ in 0..<100 { await Task.yield() }
        waiting.cancel()
        let result = await outcome(of: waiting, within: 10)
        await gate.open()
        #expect(result != nil, "the cancelled resolve kept waiting")
        #expect(throws: CancellationError.self) { try result?.get() }
        #expect(try await making.value.number == 1)
    }

    @Test func eagerAsyncAndGlobalActorSharedServicesRegisterAndPrepareMakesThem() async throws {
        let box = DIContainer()
        try box.tryRegister {
            Shared { _ async in AsyncMade(number: 5) }.eager()
            Shared { @DatabaseActor in ActorDatabaseHandle(id: 6) }.eager()
        }
        try await box.prepare()
        #expect(box.resolve(AsyncMade.self).number == 5)
        #expect(box.resolve(ActorDatabaseHandle.self).id == 6)
    }

    /// Written in an actor's code, a synchronous registration is made before the async one beside
    /// it that needs it (phase 0, then phase 1), never at the same time: the async one finds it made.
    @Test func prepareMakesAnActorsSynchronousServiceBeforeAnAsyncOneWrittenOnTheSameActor() async throws {
        let tooEarly = Guarded(0)
        for _ in 0..<100 {
            let box = DIContainer()
            box.register(await databaseModule(countingTooEarly: tooEarly))
            try await box.prepare()
            #expect(box.resolve(DatabaseRepository.self).database.id == 9)
        }
        #expect(tooEarly.current == 0, "the async factory ran before the service it needs was made")
    }

    @Test func prepareMakesAGlobalActorServiceBeforeTheAsyncOneThatResolvesIt() async throws {
        for _ in 0..<40 {
            let box = DIContainer()
            box.register {
                Shared { @DatabaseActor in ActorDatabaseHandle(id: 8) }
                Shared { resolve async throws in DatabaseRepository(database: resolve()) }
            }
            try await box.prepare()
            #expect(box.resolve(DatabaseRepository.self).database.id == 8)
        }
    }
}

/// Both registrations written on `DatabaseActor`: the synchronous one records the actor, the async
/// one inherits it. The async one counts each time it ran before the other was made.
@DatabaseActor private func databaseModule(countingTooEarly tooEarly: Guarded<Int>) -> Module {
    Module {
        Shared { resolve async throws in
            do {
                return DatabaseRepository(database: try resolve.tryResolve(ActorDatabaseHandle.self))
            } catch {
                tooEarly.increment()
                throw error
            }
        }
        Shared(ActorDatabaseHandle(id: 9))
    }
}

/// Sendable, made on `DatabaseActor`.
final class ActorDatabaseHandle: Sendable {
    let id: Int
    @DatabaseActor init(id: Int) { self.id = id }
}

final class DatabaseRepository: Sendable {
    let database: ActorDatabaseHandle
    init(database: ActorDatabaseHandle) { self.database = database }
}
