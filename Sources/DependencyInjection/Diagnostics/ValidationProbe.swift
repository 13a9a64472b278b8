import Dispatch

/// One `validate()`: every registration of a throwaway copy checked once, where its factory may run.
///
/// - Synchronous factories that run on any thread are probed on threads of the library's own
///   (`Thread`), never the Dispatch pool. A non-throwing factory whose nested `resolve()`
///   fails cannot be unwound: there ``DIContainer/fail(_:file:line:)`` calls ``parkAfterFailure(_:)``,
///   which reports the failure, takes back the resolution in progress (nothing half-made is kept),
///   releases the lock and parks the thread for good; a new thread goes on with the rest. No
///   instance is ever fabricated. At most ``parkLimit`` threads park per process; past that, such
///   factories (see ``Factory/canUnwind``) are listed as unchecked.
/// - Async factories and those isolated to an actor run in a task, on their actors or awaited, as
///   `prepare()` would; the main actor's inline when `validate()` runs on it (blocking it while a
///   task waits for it would deadlock). No thread may park there, so those that cannot unwind are
///   listed as unchecked.
final class ValidationProbe: @unchecked Sendable {
    // Unchecked: `outcomes`, `values` and `pending` are read and written only with `Resolution.lock` held.
    enum Outcome {
        case resolved
        case failed(ResolutionError)
        case unchecked(String)
    }

    /// How many probe threads may stay parked in one process.
    static let parkLimit = 64
    private static let parked = Locked(0)
    /// How long `validate()` waits for actors and async factories before it lists the rest as unchecked.
    static let actorTimeout = 10
    /// How to make a factory that cannot unwind checkable.
    static let fix = "write it with try resolve.tryResolve(), or register an initializer"

    private let copy: DIContainer
    /// Each registration's entry in the copy and the slots it serves there.
    private let items: [(entry: Entry?, keys: [Key])]
    private(set) var outcomes: [Outcome?]
    /// What the probes made, kept until validation ends (so that a `Weak` one is made once too).
    private var values: [AnyBox] = []
    /// What the probe thread running now has left, in order.
    private var pending: ArraySlice<Int> = []
    private let finished = DispatchSemaphore(value: 0)

    init(copy: DIContainer, items: [(entry: Entry?, keys: [Key])]) {
        (self.copy, self.items, outcomes) = (copy, items, Array(repeating: nil, count: items.count))
    }

    /// Checks every registration (their specs, in order); `onMainActor`: `validate()` runs there.
    func run(_ specs: [RegistrationSpec], onMainActor: Bool) -> [Outcome?] {
        var (threads, task, inline): ([Int], [Int], [Int]) = ([], [], [])
        for (index, spec) in specs.enumerated() {
            let factory = spec.factory
            let elsewhere = factory.isAsync || factory.isolation.actor != nil
            let onMainOrAnywhere = factory.isolation.actor == nil || factory.isolation.isMainActor
            if let problem = spec.validationProblem {
                outcomes[index] = .failed(problem)
            } else if factory.takesArguments {
                outcomes[index] = .unchecked("it needs arguments \(Factory.describeArguments(factory.argumentType))")
            } else if elsewhere, !factory.canUnwind {
                let place = factory.isolation.actorName ?? "an async task"
                outcomes[index] = .unchecked(
                    "it does not throw and runs on \(place), where nothing can park: " + Self.fix)
            } else if onMainActor, factory.canUnwind, !factory.isAsync, onMainOrAnywhere {
                inline.append(index)
            } else {
                elsewhere ? task.append(index) : threads.append(index)
            }
        }
        probeOnThreads(threads)
        checkInTask(task)
        Resolution.lock.withLock { for index in inline { check(index) } }
        // What needed a service that an actor or an async factory had not made yet gets a second try.
        probeOnThreads(
            Resolution.lock.withLock {
                threads.filter { if case .failed(let error)? = outcomes[$0] { error.isNotYetMade } else { false } }
            })
        return Resolution.lock.withLock { outcomes }
    }

    /// Resolves each slot of registration `index` in the copy (its factory runs once: the copy keeps
    /// what it makes). Lock held.
    private func check(_ index: Int) {
        do throws(ResolutionError) {
            for key in items[index].keys { values.append(try copy.provideHere(key)) }
            outcomes[index] = .resolved
        } catch {
            record(error, at: index)
        }
    }

    /// Records a failure; what needs the registration later fails at once (unless it was only not made yet).
    private func record(_ error: ResolutionError, at index: Int) {
        outcomes[index] = .failed(error)
        if !error.isNotYetMade { items[index].entry?.value.validationFailure = error }
    }

    /// Probes `indices` in order on threads of the library's own, a new one whenever one parks.
    private func probeOnThreads(_ indices: [Int]) {
        Resolution.lock.withLock { pending = indices[...] }
        while Resolution.lock.withLock({ !pending.isEmpty }) {
            DetachedThread.start { self.probePending() }
            finished.wait()
        }
    }

    private func probePending() {
        while Resolution.lock.withLock({ () -> Bool in
            guard let index = pending.first else { return false }
            if Self.parked.value >= Self.parkLimit, items[index].entry?.spec.factory.canUnwind == false {
                outcomes[index] = .unchecked(
                    "validate() parked its \(Self.parkLimit) threads in this process: " + Self.fix)
            } else {
                Resolution.state.probe = self
                defer { Resolution.state.probe = nil }
                check(index)
            }
            pending.removeFirst()
            return true
        }) {}
        finished.signal()
    }

    /// Checks `indices` in a task, on their actors or awaiting their factories, as `prepare()` would.
    private func checkInTask(_ indices: [Int]) {
        guard !indices.isEmpty else { return }
        let done = DispatchSemaphore(value: 0)
        let operation: @Sendable () async -> Void = {
            for index in indices { await self.checkAsync(index) }
            done.signal()
        }
        // Off the cooperative pool where it can be: `validate()` may be blocking one of its threads.
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            Task.detached(executorPreference: ProbeExecutor(), operation: operation)
        } else {
            Task.detached(operation: operation)
        }
        guard done.wait(timeout: .now() + .seconds(Self.actorTimeout)) == .timedOut else { return }
        let late = "its actor or async factory did not finish within \(Self.actorTimeout) s (validate() blocks it?)"
        Resolution.lock.withLock {
            for index in indices where outcomes[index] == nil { outcomes[index] = .unchecked(late) }
        }
    }

    private func make(_ key: Key, isolation: isolated (any Actor)?) async throws {
        let value = try await copy.provideAsync(key)
        Resolution.lock.withLock { values.append(value) }
    }

    private func checkAsync(_ index: Int) async {
        let keys = items[index].keys
        do {
            for key in keys {
                // On the actor its factory needs, where even a value that is not `Sendable` may be made.
                let actor = Resolution.lock.withLock { copy.lookup(key)?.1.entry.spec.factory.isolation.actor }
                try await make(key, isolation: actor)
            }
            Resolution.lock.withLock { outcomes[index] = .resolved }
        } catch {
            let failure =
                error as? ResolutionError ?? .init(reason: .factoryFailed, key: keys[0], underlyingError: error)
            Resolution.lock.withLock { record(failure, at: index) }
        }
    }

    /// Reports `error` as the outcome of the registration being probed and never returns. Called on
    /// the probe thread, which holds the lock in the middle of a resolution it will not return to.
    func parkAfterFailure(_ error: ResolutionError) -> Never {
        record(error, at: pending.removeFirst())
        Self.parked.value += 1
        for frame in Resolution.state.frames { frame.entry?.value.isMaking = false }
        Resolution.state.frames = []
        Resolution.state.probe = nil
        // Registrations the resolution was installing, eager ones included, are taken back too.
        let installed = Resolution.state.installing.reversed().map { installing in
            defer { installing.container.registry.value = installing.registry }
            return installing.container.registry.value
        }
        Resolution.state.installing = []
        let dropped = copy.rollBack(to: nil)
        (Resolution.state.isResolving, Resolution.state.origin) = (false, nil)
        Resolution.lock.releaseAfterUnlock((installed, dropped))
        Resolution.lock.unlockCompletely()
        finished.signal()
        let never = DispatchSemaphore(value: 0)
        while true { never.wait() }
    }
}

/// Runs each job of `validate()`'s task on a new thread of the library's own (a task runs one job
/// at a time; a default actor's code runs on its task's preferred executor too).
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
private final class ProbeExecutor: TaskExecutor {
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        DetachedThread.start { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

extension ResolutionError {
    var isNotYetMade: Bool { if case .notYetMade = reason { true } else { false } }
}
