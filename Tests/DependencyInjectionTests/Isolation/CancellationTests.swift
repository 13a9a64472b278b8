import DependencyInjection
import Dispatch
import Testing

// Cancellation at each `await` of the async API: nothing half-made is kept, no task hangs, the
// caller gets a `CancellationError`, and the other tasks waiting for the same service go on.

/// Suspends until the task is cancelled (a cancellable await with no timer), then throws.
private func suspendUntilCancelled() async throws {
    let slot = Guarded<CheckedContinuation<Void, Never>?>(nil)
    let resumed = Guarded(false)
    await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
            slot.withLock { $0 = continuation }
            if Task.isCancelled,
                resumed.withLock({
                    let was = $0
                    $0 = true
                    return !was
                })
            {
                continuation.resume()
            }
        }
    } onCancel: {
        if let continuation = slot.withLock({ $0 }),
            resumed.withLock({
                let was = $0
                $0 = true
                return !was
            })
        {
            continuation.resume()
        }
    }
    try Task.checkCancellation()
}

private final class CancelProbe: Sendable {
    let number: Int
    init(number: Int) { self.number = number }
}

/// An async factory's body: the first run passes `gate`, then waits until its task is cancelled;
/// later runs make the probe at once, numbered by run.
private func firstRunWaitsForCancellation(_ runs: Guarded<Int>, _ gate: AsyncGate) async throws -> CancelProbe {
    let run = runs.withLock {
        $0 += 1
        return $0
    }
    if run == 1 {
        await gate.pass()
        try await suspendUntilCancelled()
    }
    return CancelProbe(number: run)
}

private final class CancelProbeDep: Sendable {}

@globalActor private actor LedgerActor { static let shared = LedgerActor() }
private final class Ledger: Sendable {}
private final class LedgerReporter: Sendable { init(ledger: Ledger) {} }

/// A weak reference that a factory sets on one thread and the test reads on another.
private final class WeakHolder<T: AnyObject>: Sendable {
    private struct Reference { weak var object: T? }
    private let reference = Guarded(Reference())

    var value: T? {
        get { reference.withLock { $0.object } }
        set { reference.withLock { $0.object = newValue } }
    }
}

/// A container with a `Shared` `CancelProbe` whose first run waits for cancellation (see
/// `firstRunWaitsForCancellation`), its gate open; and how many runs began.
private func containerWithACancellableProbe() async -> (box: DIContainer, gate: AsyncGate, runs: Guarded<Int>) {
    let box = DIContainer()
    let gate = AsyncGate()
    let runs = Guarded(0)
    box.register {
        Shared { _ async throws in try await firstRunWaitsForCancellation(runs, gate) }
    }
    await gate.open()
    return (box, gate, runs)
}

@Suite(.timeLimit(.minutes(1)))
struct CancellationTests {
    /// A factory cancelled while it awaits: error type and message.
    @Test func cancelledFactoryErrorSaysCancelled() async throws {
        let (box, gate, runs) = await containerWithACancellableProbe()
        let task = Task { try await box.resolveAsync(CancelProbe.self) }
        await gate.firstArrival()
        task.cancel()
        let result = await task.result
        switch result {
        case .success: Issue.record("a cancelled factory returned a value")
        case .failure(let error): #expect(error is CancellationError, "\(error)")
        }
        #expect(try await box.resolveAsync(CancelProbe.self).number == 2)
        #expect(try await box.resolveAsync(CancelProbe.self).number == 2)
        #expect(runs.current == 2)
    }

    /// The maker is cancelled; waiters that are not go on and get one instance.
    @Test func waitersSurviveTheMakersCancellation() async throws {
        let (box, gate, runs) = await containerWithACancellableProbe()
        let maker = Task { try await box.resolveAsync(CancelProbe.self) }
        await gate.firstArrival()
        let waiters = (0..<4).map { _ in Task { try await box.resolveAsync(CancelProbe.self) } }
        for _ in 0..<200 { await Task.yield() }
        maker.cancel()
        _ = await maker.result
        var got: [CancelProbe] = []
        for waiter in waiters { got.append(try await waiter.value) }
        #expect(got.allSatisfy { $0 === got[0] })
        #expect(got[0].number == 2)
        #expect(runs.current == 2)
    }

    /// A cancelled waiter among many: others unaffected, made once.
    @Test func someWaitersCancelled() async throws {
        let box = DIContainer()
        let gate = AsyncGate()
        let runs = Guarded(0)
        box.register {
            Shared { _ async -> CancelProbe in
                let run = runs.withLock {
                    $0 += 1
                    return $0
                }
                await gate.pass()
                return CancelProbe(number: run)
            }
        }
        let maker = Task { try await box.resolveAsync(CancelProbe.self) }
        await gate.firstArrival()
        let waiters = (0..<6).map { _ in Task { try await box.resolveAsync(CancelProbe.self) } }
        for _ in 0..<100 { await Task.yield() }
        for (index, waiter) in waiters.enumerated() where index.isMultiple(of: 2) { waiter.cancel() }
        for (index, waiter) in waiters.enumerated() where index.isMultiple(of: 2) {
            let result = await outcome(of: waiter, within: 10)
            #expect(result != nil)
        }
        await gate.open()
        let made = try await maker.value
        for (index, waiter) in waiters.enumerated() where !index.isMultiple(of: 2) {
            #expect(try await waiter.value === made)
        }
        #expect(runs.current == 1)
    }

    /// Cancelled before it starts: a factory that checks cancellation.
    @Test func cancelledBeforeStart() async throws {
        let box = DIContainer()
        let onResolve = Guarded(0)
        box.register {
            Shared { _ async throws -> CancelProbe in
                try Task.checkCancellation()
                return CancelProbe(number: 1)
            }.onResolve { _, _ in onResolve.withLock { $0 += 1 } }
        }
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await box.resolveAsync(CancelProbe.self)
        }
        let result = await task.result
        if case .failure(let error) = result { #expect(error is CancellationError, "\(error)") }
        #expect(onResolve.current == 0)
        #expect(try await box.resolveAsync(CancelProbe.self).number == 1)
        #expect(onResolve.current == 1)
    }

    /// A prepare() cancelled in the async phase; later a plain resolve's message and prepare again.
    @Test func prepareCancelledInTheAsyncPhase() async throws {
        let (box, gate, runs) = await containerWithACancellableProbe()
        let task = Task { try await box.prepare() }
        await gate.firstArrival()
        task.cancel()
        let result = await task.result
        if case .failure(let error) = result { #expect(error is CancellationError, "\(error)") }
        do {
            _ = try box.tryResolve(CancelProbe.self)
        } catch {
        }
        try await box.prepare()
        #expect(box.resolve(CancelProbe.self).number == 2)
        #expect(runs.current == 2)
    }

    /// prepare() cancelled in phase 0 (an actor-isolated synchronous factory) and phase 2.
    @Test func prepareCancelledBeforeItStarts() async throws {
        let box = DIContainer()
        let made = Guarded(0)
        box.register {
            Shared { @DatabaseActor in
                made.withLock { $0 += 1 }
                return ActorDatabaseHandle(id: 1)
            }
            Shared { _ async throws -> CancelProbe in
                try Task.checkCancellation()
                return CancelProbe(number: 1)
            }
            Shared { @MainActor in MainActorService() }
        }
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await box.prepare()
        }
        let result = await task.result
        if case .failure(let error) = result { #expect(error is CancellationError, "\(error)") }
        try await box.prepare()
        #expect(made.current == 1)
        #expect(box.resolve(CancelProbe.self).number == 1)
    }

    /// A waiting prepare: one async factory awaits another async service being made; cancel.
    @Test func prepareWhereOneServiceWaitsForAnother() async throws {
        let box = DIContainer()
        let gate = AsyncGate()
        let runs = Guarded(0)
        box.register {
            Shared { _ async throws in try await firstRunWaitsForCancellation(runs, gate) }
            Shared { _ async throws -> CancelProbeDep in
                _ = try await DIContainer.resolveAsync(CancelProbe.self)
                return CancelProbeDep()
            }
        }
        await gate.open()
        let task = Task { try await box.prepare() }
        await gate.firstArrival()
        for _ in 0..<100 { await Task.yield() }
        task.cancel()
        let result = await outcome(of: task, within: 20)
        #expect(result != nil, "prepare hung")
        if case .failure(let error)? = result { #expect(error is CancellationError, "\(error)") }
        try await box.prepare()
        #expect(box.resolve(CancelProbe.self).number == 2)
        _ = box.resolve(CancelProbeDep.self)
    }

    /// releaseInstances() while an async run is in flight, then the caller is cancelled.
    @Test func releaseInstancesDuringARunThenCancel() async throws {
        let box = DIContainer()
        let gate = AsyncGate()
        let runs = Guarded(0)
        let actions = Guarded(0)
        let weak = WeakHolder<CancelProbe>()
        box.register {
            Shared { _ async -> CancelProbe in
                let run = runs.withLock {
                    $0 += 1
                    return $0
                }
                if run == 1 { await gate.pass() }
                let made = CancelProbe(number: run)
                if run == 1 { weak.value = made }
                return made
            }.onResolve { _, _ in actions.withLock { $0 += 1 } }
        }
        let task = Task { try await box.resolveAsync(CancelProbe.self) }
        await gate.firstArrival()
        box.releaseInstances()
        task.cancel()
        await gate.open()
        let result = await task.result
        _ = result
        let next = try await box.resolveAsync(CancelProbe.self)
        #expect(next.number == 2)
        #expect(try await box.resolveAsync(CancelProbe.self) === next)
        #expect(runs.current == 2)
    }

    /// reset() while an async run is in flight, then cancel; later register/resolve works.
    @Test func resetDuringARunThenCancel() async throws {
        let box = DIContainer()
        let gate = AsyncGate()
        let weak = WeakHolder<CancelProbe>()
        box.register {
            Shared { _ async -> CancelProbe in
                await gate.pass()
                let made = CancelProbe(number: 1)
                weak.value = made
                return made
            }
        }
        let task = Task { try await box.resolveAsync(CancelProbe.self).number }
        await gate.firstArrival()
        box.reset()
        task.cancel()
        await gate.open()
        _ = await task.result
        #expect(weak.value == nil, "reset's run kept its instance")
        box.register { Shared { _ async in CancelProbe(number: 7) } }
        #expect(try await box.resolveAsync(CancelProbe.self).number == 7)
    }

    /// withScope (async) cancelled while an async Scoped factory runs: released.
    @Test func withScopeCancelledReleasesTheRunsInstances() async throws {
        let box = DIContainer()
        let scope = DIScope("cancelledScope")
        let gate = AsyncGate()
        let weak = WeakHolder<CancelProbe>()
        let dep = WeakHolder<CancelProbeDep>()
        box.register {
            Scoped(scope) { _ async -> CancelProbeDep in
                let made = CancelProbeDep()
                dep.value = made
                return made
            }
            Scoped(scope) { _ async throws -> CancelProbe in
                _ = try await DIContainer.resolveAsync(CancelProbeDep.self)
                let made = CancelProbe(number: 1)
                weak.value = made
                await gate.pass()
                try await suspendUntilCancelled()
                return made
            }
        }
        let task = Task {
            try await box.withScope(scope) { () async throws -> Int in
                try await box.resolveAsync(CancelProbe.self).number
            }
        }
        await gate.firstArrival()
        task.cancel()
        await gate.open()
        _ = await task.result
        #expect(weak.value == nil)
        #expect(dep.value == nil, "the run's Scoped dependency outlived the run")
    }

    /// Two tasks of one scope run; the maker cancelled, the other makes its own.
    @Test func scopedMakerCancelledWithinARun() async throws {
        let box = DIContainer()
        let scope = DIScope("cancelledRunScope", requiresRun: true)
        let gate = AsyncGate()
        let runs = Guarded(0)
        box.register {
            Scoped(scope) { _ async throws in try await firstRunWaitsForCancellation(runs, gate) }
        }
        await gate.open()
        let numbers = try await box.withScope(scope) { () async throws -> [Int] in
            let maker = Task { try await DIContainer.resolveAsync(CancelProbe.self) }
            await gate.firstArrival()
            let waiter = Task { try await DIContainer.resolveAsync(CancelProbe.self) }
            for _ in 0..<100 { await Task.yield() }
            maker.cancel()
            _ = await maker.result
            let first = try await waiter.value.number
            return [first, try await DIContainer.resolveAsync(CancelProbe.self).number]
        }
        #expect(numbers == [2, 2])
    }

    /// A main-actor async factory cancelled.
    @Test func mainActorAsyncFactoryCancelled() async throws {
        let box = DIContainer()
        let gate = AsyncGate()
        let runs = Guarded(0)
        box.register {
            Shared { @MainActor _ async throws in try await firstRunWaitsForCancellation(runs, gate) }
        }
        await gate.open()
        let task = Task.detached { try await box.resolveAsync(CancelProbe.self) }
        await gate.firstArrival()
        task.cancel()
        let result = await task.result
        if case .failure(let error) = result { #expect(error is CancellationError, "\(error)") }
        #expect(try await box.resolveAsync(CancelProbe.self).number == 2)
    }

    /// Optional form cancelled while waiting.
    @Test func optionalWaitCancelled() async throws {
        let box = DIContainer()
        let gate = AsyncGate()
        box.register {
            Shared { _ async -> CancelProbe in
                await gate.pass()
                return CancelProbe(number: 1)
            }
        }
        let maker = Task { try await box.resolveAsync(CancelProbe.self) }
        await gate.firstArrival()
        let waiter = Task { try await box.resolveAsync(CancelProbe?.self) }
        for _ in 0..<100 { await Task.yield() }
        waiter.cancel()
        let result = await outcome(of: waiter, within: 10)
        #expect(result != nil)
        if case .success(let value)? = result {
            Issue.record("cancelled optional wait returned \(String(describing: value))")
        }
        await gate.open()
        #expect(try await maker.value.number == 1)
    }

    /// Nested: A's factory resolves async B being made; A's task cancelled.
    @Test func nestedAsyncWaitCancelled() async throws {
        let box = DIContainer()
        let gate = AsyncGate()
        let aRuns = Guarded(0)
        box.register {
            Shared { _ async -> CancelProbeDep in
                await gate.pass()
                return CancelProbeDep()
            }
            Shared { _ async throws -> CancelProbe in
                let run = aRuns.withLock {
                    $0 += 1
                    return $0
                }
                _ = try await DIContainer.resolveAsync(CancelProbeDep.self)
                return CancelProbe(number: run)
            }
        }
        let bMaker = Task { try await box.resolveAsync(CancelProbeDep.self) }
        await gate.firstArrival()
        let a = Task { try await box.resolveAsync(CancelProbe.self) }
        for _ in 0..<100 { await Task.yield() }
        a.cancel()
        let result = await outcome(of: a, within: 10)
        #expect(result != nil)
        if case .failure(let error)? = result { #expect(error is CancellationError, "\(error)") }
        await gate.open()
        _ = try await bMaker.value
        #expect(try await box.resolveAsync(CancelProbe.self).number == 2)
    }

    /// await validate() from a cancelled task.
    @Test func validateFromACancelledTask() async throws {
        let box = DIContainer()
        box.register {
            Shared { _ async throws -> CancelProbe in
                try Task.checkCancellation()
                return CancelProbe(number: 1)
            }
        }
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await box.validate()
        }
        let report = await task.value
        #expect(report.isValid)
    }

    /// withOverrides (async) cancelled while an async factory of the copy runs.
    @Test func withOverridesCancelled() async throws {
        let box = DIContainer()
        let gate = AsyncGate()
        let weak = WeakHolder<CancelProbe>()
        box.register { Shared { _ async in CancelProbe(number: 0) } }
        let task = Task {
            try await box.withOverrides {
                Shared { _ async throws -> CancelProbe in
                    let made = CancelProbe(number: 9)
                    weak.value = made
                    await gate.pass()
                    try await suspendUntilCancelled()
                    return made
                }
            } operation: { () async throws -> Int in
                try await DIContainer.resolveAsync(CancelProbe.self).number
            }
        }
        await gate.firstArrival()
        task.cancel()
        await gate.open()
        _ = await task.result
        #expect(weak.value == nil)
        #expect(try await box.resolveAsync(CancelProbe.self).number == 0)
    }

    /// Many tasks, some cancelled, the factory checks cancellation after a gate.
    @Test func manyTasksSomeCancelled() async throws {
        for _ in 0..<20 {
            let box = DIContainer()
            let gate = AsyncGate()
            let runs = Guarded(0)
            let actions = Guarded(0)
            box.register {
                Shared { _ async throws -> CancelProbe in
                    let run = runs.withLock {
                        $0 += 1
                        return $0
                    }
                    await gate.pass()
                    try Task.checkCancellation()
                    return CancelProbe(number: run)
                }.onResolve { _, _ in actions.withLock { $0 += 1 } }
            }
            let tasks = (0..<8).map { _ in Task { try await box.resolveAsync(CancelProbe.self) } }
            await gate.firstArrival()
            for (index, task) in tasks.enumerated() where index < 4 { task.cancel() }
            await gate.open()
            var got: [CancelProbe] = []
            for (index, task) in tasks.enumerated() {
                switch await task.result {
                case .success(let value): got.append(value)
                case .failure(let error): #expect(index < 4, "uncancelled task failed: \(error)")
                }
            }
            #expect(got.allSatisfy { $0 === got[0] })
            #expect(actions.current == 1)
            let final = try await box.resolveAsync(CancelProbe.self)
            #expect(got.isEmpty || final === got[0])
        }
    }

    /// A stale "prepare() failed" after a cancelled prepare, once the service was made and released.
    @Test func staleCancelledPrepareMessage() async throws {
        let (box, gate, _) = await containerWithACancellableProbe()
        let task = Task { try await box.prepare() }
        await gate.firstArrival()
        task.cancel()
        _ = await task.result
        try await box.prepare()
        box.releaseInstances()
        do {
            _ = try box.tryResolve(CancelProbe.self)
            Issue.record("resolved")
        } catch {
            #expect(!"\(error)".contains("CancellationError"), "stale: \(error)")
        }
    }

    /// Two prepare() calls at once; the one making is cancelled, the other finishes.
    @Test func twoPreparesOneCancelled() async throws {
        let (box, gate, _) = await containerWithACancellableProbe()
        let first = Task { try await box.prepare() }
        await gate.firstArrival()
        let second = Task { try await box.prepare() }
        for _ in 0..<200 { await Task.yield() }
        first.cancel()
        _ = await first.result
        let result = await outcome(of: second, within: 20)
        #expect(result != nil)
        if case .failure(let error)? = result { Issue.record("uncancelled prepare failed: \(error)") }
        #expect(box.resolve(CancelProbe.self).number == 2)
    }

    /// Weak async: maker cancelled, waiter makes its own, kept weakly.
    @Test func weakAsyncMakerCancelled() async throws {
        let box = DIContainer()
        let gate = AsyncGate()
        let runs = Guarded(0)
        box.register {
            Weak { _ async throws in try await firstRunWaitsForCancellation(runs, gate) }
        }
        await gate.open()
        let maker = Task { try await box.resolveAsync(CancelProbe.self).number }
        await gate.firstArrival()
        let waiter = Task { try await box.resolveAsync(CancelProbe.self) }
        for _ in 0..<200 { await Task.yield() }
        maker.cancel()
        _ = await maker.result
        let held = try await waiter.value
        #expect(held.number == 2)
        #expect(try await box.resolveAsync(CancelProbe.self) === held)
    }

    /// Cancelled nested wait: the error should be CancellationError (catch is CancellationError).
    @Test func nestedCancelledWaitIsACancellationError() async throws {
        let box = DIContainer()
        let gate = AsyncGate()
        box.register {
            Shared { _ async -> CancelProbeDep in
                await gate.pass()
                return CancelProbeDep()
            }
            Shared { _ async throws -> CancelProbe in
                _ = try await DIContainer.resolveAsync(CancelProbeDep.self)
                return CancelProbe(number: 1)
            }
        }
        let bMaker = Task { try await box.resolveAsync(CancelProbeDep.self) }
        await gate.firstArrival()
        let a = Task { try await box.resolveAsync(CancelProbe.self).number }
        for _ in 0..<100 { await Task.yield() }
        a.cancel()
        let result = await outcome(of: a, within: 10)
        await gate.open()
        _ = try await bMaker.value
        #expect(throws: CancellationError.self) { try result?.get() }
    }

    /// Two resolves of one service in one async factory (async let), one wait cancelled by a group.
    @Test func cycleSearchAfterAGroupCancelledWait() async throws {
        let box = DIContainer()
        let gate = AsyncGate()
        box.register {
            Shared { _ async -> CancelProbeDep in
                await gate.pass()
                return CancelProbeDep()
            }
            Shared { _ async throws -> CancelProbe in
                // A child resolve that is cancelled, then a real one.
                let child = Task { try await DIContainer.resolveAsync(CancelProbeDep.self) }
                child.cancel()
                _ = await child.result
                _ = try await DIContainer.resolveAsync(CancelProbeDep.self)
                return CancelProbe(number: 1)
            }
        }
        let bMaker = Task { try await box.resolveAsync(CancelProbeDep.self) }
        await gate.firstArrival()
        let a = Task { try await box.resolveAsync(CancelProbe.self).number }
        for _ in 0..<100 { await Task.yield() }
        await gate.open()
        _ = try await bMaker.value
        #expect(try await a.value == 1)
    }

    /// Stress: random cancellation of resolvers of an async Shared that resolves another async
    /// Shared; every success gets one instance, onResolve runs once per kept instance, no hang.
    @Test func stressRandomCancellation() async throws {
        for round in 0..<60 {
            let box = DIContainer()
            let runs = Guarded(0)
            let actions = Guarded(0)
            let depRuns = Guarded(0)
            box.register {
                Shared { _ async throws -> CancelProbeDep in
                    depRuns.increment()
                    for _ in 0..<(round % 5) { await Task.yield() }
                    try Task.checkCancellation()
                    return CancelProbeDep()
                }
                Shared { _ async throws -> CancelProbe in
                    let run = runs.withLock {
                        $0 += 1
                        return $0
                    }
                    for _ in 0..<(round % 3) { await Task.yield() }
                    _ = try await DIContainer.resolveAsync(CancelProbeDep.self)
                    try Task.checkCancellation()
                    return CancelProbe(number: run)
                }.onResolve { _, _ in actions.increment() }
            }
            let tasks = (0..<8).map { index in
                Task { () async throws -> CancelProbe in
                    if index.isMultiple(of: 2) { _ = try await box.resolveAsync(CancelProbeDep.self) }
                    return try await box.resolveAsync(CancelProbe.self)
                }
            }
            for _ in 0..<(round % 7) { await Task.yield() }
            for (index, task) in tasks.enumerated() where (index + round) % 3 == 0 { task.cancel() }
            var got: [CancelProbe] = []
            for (index, task) in tasks.enumerated() {
                let result = await outcome(of: task, within: 20)
                switch result {
                case nil: Issue.record("round \(round): task \(index) hung")
                case .success(let value)?: got.append(value)
                case .failure(let error)?:
                    #expect((index + round) % 3 == 0, "round \(round): uncancelled task \(index) failed: \(error)")
                }
            }
            #expect(got.allSatisfy { $0 === got[0] }, "round \(round)")
            let final = try await box.resolveAsync(CancelProbe.self)
            if let first = got.first { #expect(final === first, "round \(round)") }
            #expect(actions.current == 1, "round \(round): onResolve ran \(actions.current) times")
        }
    }

    /// Stress: waiters that are factories themselves, some cancelled; no cycle error, no hang.
    @Test func stressFactoryWaitersCancelled() async throws {
        for round in 0..<40 {
            let box = DIContainer()
            let gate = AsyncGate()
            box.register {
                Shared { _ async throws -> CancelProbeDep in
                    await gate.pass()
                    try Task.checkCancellation()
                    return CancelProbeDep()
                }
                New { _ async throws -> CancelProbe in
                    _ = try await DIContainer.resolveAsync(CancelProbeDep.self)
                    return CancelProbe(number: 1)
                }
            }
            let tasks = (0..<6).map { _ in Task { try await box.resolveAsync(CancelProbe.self).number } }
            await gate.firstArrival()
            for (index, task) in tasks.enumerated() where (index + round) % 2 == 0 { task.cancel() }
            await gate.open()
            for (index, task) in tasks.enumerated() {
                let result = await outcome(of: task, within: 20)
                switch result {
                case nil: Issue.record("round \(round): task \(index) hung")
                case .success?: break
                case .failure(let error)?:
                    #expect((index + round) % 2 == 0, "round \(round): uncancelled task \(index) failed: \(error)")
                }
            }
        }
    }

    /// await validate() cancelled while an async factory of its copy awaits: the cancellation
    /// should reach the probe (prompt return, the probe's task ends, nothing it made is left held).
    @Test func validateCancelledWhileAProbeAwaits() async throws {
        let box = DIContainer()
        let gate = AsyncGate()
        let weak = WeakHolder<CancelProbeDep>()
        let (ended, endedContinuation) = AsyncStream<Void>.makeStream()
        box.register {
            Shared { _ async throws -> CancelProbe in
                var failure: (any Error)?
                do {
                    let held = CancelProbeDep()
                    weak.value = held
                    await gate.pass()
                    do { try await suspendUntilCancelled() } catch { failure = error }
                    withExtendedLifetime(held) {}
                }
                endedContinuation.yield()
                if let failure { throw failure }
                return CancelProbe(number: 1)
            }
        }
        await gate.open()  // only tells that the factory got there
        let task = Task { await box.validate() }
        await gate.firstArrival()
        let start = ContinuousClock.now
        task.cancel()
        let report = await task.value
        let took = ContinuousClock.now - start
        #expect(took < .seconds(5), "validate() ignored its cancellation for \(took)")
        #expect(report.problems.isEmpty, "a cancelled check is reported as a problem: \(report)")
        let probeEnded = Task { () async throws -> Bool in
            for await _ in ended { return true }
            return false
        }
        #expect(await outcome(of: probeEnded, within: 5) != nil, "the probe's task is still suspended")
        #expect(weak.value == nil, "what the cancelled probe made is still held")
    }

    /// The same stale note without cancellation: prepare() failed once (a transient error), a
    /// later prepare() made it, releaseInstances() dropped it; a plain resolve blames the old failure.
    @Test func aSucceededPrepareForgetsAnEarlierFailure() async throws {
        struct Offline: Error {}
        let box = DIContainer()
        let runs = Guarded(0)
        box.register {
            Shared { _ async throws -> CancelProbe in
                let run = runs.withLock {
                    $0 += 1
                    return $0
                }
                if run == 1 { throw Offline() }
                return CancelProbe(number: run)
            }
        }
        await #expect(throws: (any Error).self) { try await box.prepare() }
        try await box.prepare()
        box.releaseInstances()
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(CancelProbe.self) }
        #expect(!"\(error)".contains("Offline"), "stale: \(error)")
        #expect(error.underlyingError == nil)
    }

    /// A cancelled await validate(): a plain factory that needs the async service whose check was
    /// cancelled is not reported as a problem.
    @Test func aCancelledValidateReportsNoFalseProblem() async throws {
        let box = DIContainer()
        let gate = AsyncGate()
        box.register {
            Shared { _ async throws -> CancelProbe in
                await gate.pass()
                try await suspendUntilCancelled()
                return CancelProbe(number: 1)
            }
            Shared { resolve throws -> CancelProbeDep in
                _ = try resolve.tryResolve(CancelProbe.self)
                return CancelProbeDep()
            }
        }
        await gate.open()
        let task = Task { await box.validate() }
        await gate.firstArrival()
        task.cancel()
        let report = await task.value
        #expect(report.isValid, "\(report)")
    }

    /// An `await validate()` cancelled before it starts checks nothing: not even a plain factory that
    /// cannot unwind, which would fail for want of the actor's service nobody made, and park its
    /// thread for good.
    @Test func aValidateCancelledBeforeItStartsRunsNoFactory() async {
        let box = DIContainer()
        let runs = Guarded(0)
        box.register {
            Shared { @LedgerActor in Ledger() }
            Shared { (resolve: Resolver) -> LedgerReporter in
                runs.withLock { $0 += 1 }
                return LedgerReporter(ledger: resolve())
            }
        }
        let report = await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await box.validate()
        }.value
        #expect(runs.current == 0, "\(report)")
        #expect(report.problems.isEmpty, "\(report)")
        #expect(await box.validate().isValid)
    }
}
