import Dispatch

/// One `validate()`: every registration of a throwaway copy checked once, where its factory may
/// run, as the app runs after `prepare()` (docs/Design.md, "`validate()`'s probes").
///
/// The registrations are checked in five phases, so that each factory runs once and what one
/// phase makes, the next finds made:
/// 0. The closures of global actors that take no resolver (`{ @DatabaseActor in Database() }`),
///    as in phase 2: what phase 1 needs of them is made.
/// 1. Plain factories that cannot unwind (closures that take a resolver and do not throw), on
///    threads of the library's own: a nested `resolve()` that fails there parks the thread
///    (``parkAfterFailure(_:)``); what they need from an actor is tried again in phase 4.
/// 2. Async factories and those isolated to an actor, each in a task, on its actor or awaited, as
///    `prepare()` would; an async one runs on threads of the library's own (a task executor), so
///    that a failure there parks too.
/// 3. When `validate()` blocks an actor (it is called on one): that actor's synchronous factories
///    inline, and on the main thread the plain ones that can unwind too (a plain one may wait for the
///    main queue); what cannot run inline is listed at once as needing `await validate()`.
/// 4. The other plain factories, on threads of the library's own.
///
/// A property wrapper that fails while its owner is made is reported, not trapped (see
/// ``DIContainer/deferToValidation(_:file:line:)``). At most ``parkLimit`` threads park per
/// process; past that, factories that could only park are listed as unchecked.
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
    /// How to reach the async `validate()`: top-level code (`main.swift`) picks the synchronous form
    /// even when written with `await`.
    static let awaitFix =
        "call await validate() from an async function (in top-level code, such as main.swift's, Swift picks "
        + "this synchronous form even with await; there write await Task { await DIContainer.validate() }.value)"

    /// How long `validate()` waits for actors and async factories before it lists the rest as unchecked.
    static let actorTimeout = 10
    /// How to make a factory that cannot unwind checkable: a closure without a resolver, or one that
    /// throws, can unwind.
    static let fix =
        "to check it, write it with try resolve.tryResolve(), or register an initializer (Shared(Type.init)); "
        + "a closure that resolves nothing can drop its resolver ({ Type() }, not { _ in Type() }) or add throws"
    /// How to make a decorator or an action that cannot unwind checkable.
    static let actionFix =
        "to check it, write its resolves with try resolve.tryResolve(), and add throws to one that resolves nothing "
        + "({ value, _ throws in … })"
    /// The actor the synchronous `validate()` checking in this task blocks: an async resolve here
    /// never waits for it (see `DIContainer.provideAsync` and `MainActorHop`).
    static let blockedActor = TaskLocal<(any Actor)?>(wrappedValue: nil)
    /// The async check running in this task, where a failure parks its thread (see `parkInTask`).
    static let runningCheck = TaskLocal<(probe: ValidationProbe, index: Int, done: DispatchSemaphore)?>(
        wrappedValue: nil)

    private let copy: DIContainer
    /// Each registration's spec (with the isolation its value needs: its factory's, else a decorator's
    /// or an action's), its entry in the copy, the slots it serves there, and the copy (of this
    /// container or an ancestor) that holds them.
    private let items: [Item]
    typealias Item = (spec: RegistrationSpec, entry: Entry?, keys: [Key], container: DIContainer)
    private(set) var outcomes: [Outcome?]
    /// What the probes made, kept until validation ends (so that a `Weak` one is made once too).
    private var values: [AnyBox] = []
    /// What the probe thread running now has left, in order.
    private var pending: ArraySlice<Int> = []
    private let finished = DispatchSemaphore(value: 0)
    /// When the checks on actors and of async factories give up (both of their phases).
    private let deadline = DispatchTime.now() + .seconds(ValidationProbe.actorTimeout)

    /// A run of each run-only scope the registrations use, nested, bound while each check runs: its
    /// services exist only inside runs (see ``DIScope/requiresRun``).
    private let runs: ScopeRun?

    /// The actor a synchronous `validate()` runs on and blocks (the main actor on the main thread),
    /// never waited for: what needs it is listed as not checked.
    private let blocking: Factory.Isolation

    /// Set once the `await validate()` it runs for is cancelled: what is not checked yet is listed
    /// as not checked, and the check running in a task then is cancelled.
    private let cancellation: Cancellation
    private static let cancelled = "await validate() was cancelled before it was checked"

    /// The cancellation of one `await validate()`: set by its task's cancellation handler (before
    /// the probe exists, or while it runs), read by its probe; its `value` (whether it was cancelled,
    /// and the check running in a task now with what tells `checkInTasks` it is over) is guarded by
    /// `Resolution.lock` (see ``Locked``).
    final class Cancellation: Locked<(isCancelled: Bool, running: (task: Task<Void, Never>, done: DispatchSemaphore)?)>,
        @unchecked Sendable
    {
        init() { super.init((false, nil)) }

        /// Stops waiting for the check running now, cancelling its task; nothing more is checked in tasks.
        func cancel() {
            let check = Resolution.lock.withLock {
                value.isCancelled = true
                return value.running
            }
            check?.task.cancel()
            check?.done.signal()
        }
    }

    init(copy: DIContainer, items: [Item], blocking: Factory.Isolation, cancellation: Cancellation) {
        (self.copy, self.items, self.blocking, self.cancellation) = (copy, items, blocking, cancellation)
        outcomes = Array(repeating: nil, count: items.count)
        let scopes = Set(items.compactMap { $0.entry?.spec.scope }.filter(\.requiresRun))
        runs = scopes.reduce(nil) { outer, scope in ScopeRun.current.withValue(outer) { ScopeRun(scope) } }
    }

    /// `body` inside this validation's runs of the run-only scopes.
    private func inRuns<R>(_ body: () throws -> R) rethrows -> R {
        try ScopeRun.current.withValue(runs, operation: body)
    }

    /// Checks every registration, in order.
    func run() -> [Outcome?] {
        var (early, inline, onActors, late): ([Int], [Int], [Int], [Int]) = ([], [], [], [])
        for (index, spec) in items.map(\.spec).enumerated() {
            let factory = spec.factory
            let place = "registered at \(spec.place)"
            if let problem = spec.validationProblem {
                outcomes[index] = .failed(problem)
            } else if factory.takesArguments {
                outcomes[index] = .unchecked(
                    "it needs arguments \(Factory.describeArguments(factory.argumentType)) (\(place))")
            } else if factory.isolation.actor != nil, !factory.canUnwind {
                // Its factory, else a decorator or an action of it (see `DIContainer.validate(blocking:cancellation:)`).
                let isFactory = items[index].entry?.spec.factory.canUnwind == false
                outcomes[index] = .unchecked(
                    "\(isFactory ? "it" : "a Decorate or onResolve action of it") takes a resolver, does not throw and "
                        + "runs on \(factory.isolation.actorName!), where a failing resolve() can only trap (\(place)); "
                        + (isFactory ? Self.fix : Self.actionFix))
                // Nor is it run by the check of what needs it, where it would trap as well: that waits for it,
                // and is not checked either (see `uncheckWhatNeedsTheUnchecked`).
                let waiting = ResolutionError(reason: .notYetMade(actor: factory.isolation.actorName), key: spec.key)
                Resolution.lock.withLock { items[index].entry?.state.validationFailure = waiting }
            } else if let blocked = blocking.actor,
                factory.isolation.actor === blocked
                    || blocking.isMainActor && factory.isolation.isNone && (factory.isAsync || factory.canUnwind)
            {
                // Inline on the blocked actor; on the main thread a plain factory too, which may wait for
                // the main queue, and an async one that is not another actor's may need it at any await.
                if factory.isAsync {
                    outcomes[index] = .unchecked(
                        "it may need \(blockedName), which this synchronous validate() is blocking (\(place)); "
                            + "to check it, " + Self.awaitFix)
                } else {
                    inline.append(index)
                }
            } else if factory.isAwaited {
                onActors.append(index)
            } else {
                if factory.canUnwind { late.append(index) } else { early.append(index) }
            }
        }
        // A global actor's closure without a resolver first (it needs no plain factory's service): what
        // the plain ones that cannot unwind need of it is made, and their first try does not fail.
        checkInTasks(onActors.filter { items[$0].spec.factory.isActorClosure })
        // Cancelled: what is left is not checked (nor, below, what failed for want of what was not). Not
        // the plain ones that cannot unwind either: without what the actors' closures make, they would
        // fail, and a failure parks their thread for good.
        func cancelled() -> Bool { Resolution.lock.withLock { uncheckIfCancelled(Array(outcomes.indices)) } }
        if !cancelled() {
            probeOnThreads(early)
            checkInTasks(onActors.filter { !items[$0].spec.factory.isActorClosure })
        }
        if !cancelled() {
            inRuns { Resolution.lock.withLock { for index in inline { check(index, on: blocking.actor) } } }
            // What needed a service that an actor or an async factory had not made yet gets a second try.
            let retries = Resolution.lock.withLock {
                early.filter { if case .failed(let error)? = outcomes[$0] { error.waitsForAnActor } else { false } }
            }
            probeOnThreads(retries + late)
        }
        Resolution.lock.withLock { uncheckWhatNeedsTheUnchecked() }
        var run = runs
        while let ending = run { (run, _) = (ending.outer, ending.end()) }
        // What the checks made goes here, on the caller's thread: a probe thread or task may still hold
        // this probe (and the copy) a moment after it signalled. What an actor or an async factory made
        // goes last: a `deinit` that reads a lazy wrapper (from the copy) still finds it, as after prepare().
        Resolution.lock.withLock { Resolution.lock.releaseAfterUnlock(exchange(&values, with: [])) }
        for awaited in [false, true] {
            Resolution.lock.withLock {
                for slot in copy.lineage.flatMap(\.slots.values) where slot.entry.spec.factory.isAwaited == awaited {
                    Resolution.lock.releaseAfterUnlock(slot.entry.releaseInstances())
                }
            }
        }
        return Resolution.lock.withLock { outcomes }
    }

    /// Resolves each slot of registration `index` in the copy (its factory runs once: the copy keeps
    /// what it makes), on `actor`, the one this thread runs on, if any. Lock held.
    private func check(_ index: Int, on actor: (any Actor)? = nil) {
        do throws(ResolutionError) {
            for key in items[index].keys { values.append(try items[index].container.provideHere(key, on: actor)) }
            outcomes[index] = .resolved
        } catch {
            record(error, at: index)
        }
    }

    /// A registration that failed only for want of a service not checked (its check did not finish,
    /// or was cancelled), of what the blocked actor makes, or of a service made with arguments that
    /// outlives its resolution (asked for without them, it is the one made with them: a request's
    /// context) is listed as not checked too: its wiring may well be right. Lock held.
    private func uncheckWhatNeedsTheUnchecked() {
        for index in outcomes.indices {
            guard case .failed(let error)? = outcomes[index] else { continue }
            // (An ancestor's registration is not always one of the items.)
            let needed = items.indices.first { items[$0].keys.contains(error.key) }
            let isUnchecked = if let needed, case .unchecked? = outcomes[needed] { true } else { false }
            let isBlocked =
                blocking.actor != nil
                && needed.map { items[$0].spec.factory.isolation.actor === blocking.actor } == true
            let isKeptWithArguments =
                if case .argumentMismatch(_, "no arguments") = error.reason, let entry = copy.lookup(error.key)?.1.entry
                {
                    // Not a `New` or `Graph` (a `Shared` in the copy, marked made with arguments nowhere else).
                    entry.spec.factory.takesArguments && entry.state.madeWithArguments == nil
                } else { false }
            guard error.waitsForAnActor ? isUnchecked || isBlocked : isKeptWithArguments else { continue }
            let place = "registered at \(items[index].spec.place)"
            outcomes[index] = .unchecked(
                blocking.actor == nil || isKeptWithArguments
                    ? "it needs \(error.subject), which was not checked (\(place))"
                    : "it needs \(error.subject), which it cannot get while this synchronous validate() blocks "
                        + "\(blockedName) (\(place)); to check it, " + Self.awaitFix)
        }
    }

    /// The blocked actor, for messages.
    private var blockedName: String { blocking.isMainActor ? "the main actor" : blocking.actorName ?? "its actor" }

    /// Records a failure; what needs the registration later fails at once (unless it only waited for an actor).
    private func record(_ error: ResolutionError, at index: Int) {
        outcomes[index] = .failed(error)
        if !error.waitsForAnActor {
            items[index].entry?.state.validationFailure = error.with { $0.isReachedAgain = true }
        }
    }

    /// Probes `indices` in order on threads of the library's own, a new one whenever one parks.
    private func probeOnThreads(_ indices: [Int]) {
        Resolution.lock.withLock { pending = indices[...] }
        while Resolution.lock.withLock({ !pending.isEmpty }) {
            DetachedThread.start { self.inRuns { self.probePending() } }
            // A factory that waits for the main thread, which this validate() blocks, never returns (and
            // its thread holds the lock): not a silent hang.
            guard finished.wait(timeout: .now() + .seconds(Self.actorTimeout)) == .timedOut else { continue }
            StandardError.write(
                "DependencyInjection: warning: validate() has waited \(Self.actorTimeout) s for a factory to return, "
                    + "holding the library's lock. A factory that waits for the main thread (DispatchQueue.main.sync) "
                    + "never returns while the synchronous validate() blocks it: call await validate() there.\n")
            finished.wait()
        }
    }

    private func probePending() {
        while Resolution.lock.withLock({ () -> Bool in
            guard let index = pending.first else { return false }
            if !uncheckedPastParkLimit(index, parks: !items[index].spec.factory.canUnwind) {
                Resolution.state.probe = self
                defer { Resolution.state.probe = nil }
                check(index)
            }
            pending.removeFirst()
            return true
        }) {}
        finished.signal()
    }

    /// Lists registration `index` as unchecked if a failure in its check `parks` its thread and no
    /// more threads may park in this process. Lock held.
    private func uncheckedPastParkLimit(_ index: Int, parks: Bool) -> Bool {
        guard parks, Self.parked.value >= Self.parkLimit else { return false }
        outcomes[index] = .unchecked("validate() parked its \(Self.parkLimit) threads in this process; " + Self.fix)
        return true
    }

    /// Checks `indices` one at a time, each in a task of its own, on its actor or awaiting its
    /// factory, as `prepare()` would; gives up on the rest at ``deadline``, ``actorTimeout`` seconds in.
    private func checkInTasks(_ indices: [Int]) {
        for index in indices {
            if Resolution.lock.withLock({ uncheckIfCancelled(indices) }) { return }
            // The actor its value needs (its factory's, or a decorator's or action's), if any.
            let actor = Resolution.lock.withLock {
                items[index].entry.flatMap { items[index].container.isolation(of: $0).actor }
            }
            // Only a nonisolated async factory runs on the task's own threads, where a failure may park.
            let parks = actor == nil
            if Resolution.lock.withLock({ uncheckedPastParkLimit(index, parks: parks) }) { continue }
            let done = DispatchSemaphore(value: 0)
            let operation: @Sendable () async -> Void = {
                await Self.blockedActor.withValue(self.blocking.actor) {
                    await ScopeRun.current.withValue(self.runs) {
                        await Self.runningCheck.withValue(parks ? (self, index, done) : nil) {
                            await self.checkAsync(index, isolation: actor)
                        }
                    }
                }
                done.signal()
            }
            // Off the cooperative pool where it can be: a failure there parks the thread it runs on.
            let task =
                if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
                    Task.detached(executorPreference: ProbeExecutor.shared, operation: operation)
                } else {
                    Task.detached(operation: operation)
                }
            let cancelledAlready = Resolution.lock.withLock {
                cancellation.value.running = (task, done)
                return cancellation.value.isCancelled
            }
            // Cancelled since the loop's check, before `cancel()` could see this task: it stops waiting now.
            if cancelledAlready { cancellation.cancel() }
            let timedOut = done.wait(timeout: deadline) == .timedOut
            let cancelled = Resolution.lock.withLock {
                cancellation.value.running = nil
                return uncheckIfCancelled(indices)
            }
            if cancelled { return }
            guard timedOut else { continue }
            let late =
                "its actor or async factory had not finished \(Self.actorTimeout) s after validate() began (a check "
                + "waits for its actor's turn: an actor kept busy, or a cooperative pool kept full, holds it up)"
            Resolution.lock.withLock {
                for index in indices where outcomes[index] == nil {
                    let place = items[index].entry.map { " (registered at \($0.spec.place))" } ?? ""
                    outcomes[index] = .unchecked(late + place)
                }
            }
            return
        }
    }

    /// Once cancelled, lists what of `indices` has no outcome yet as not checked; returns whether
    /// it was cancelled. Lock held.
    private func uncheckIfCancelled(_ indices: [Int]) -> Bool {
        guard cancellation.value.isCancelled else { return false }
        for index in indices where outcomes[index] == nil { outcomes[index] = .unchecked(Self.cancelled) }
        return true
    }

    /// Resolves each slot of registration `index` in the copy, awaiting it, on the actor its factory
    /// needs (`isolation`), where even a value that is not `Sendable` may be made.
    private func checkAsync(_ index: Int, isolation: isolated (any Actor)?) async {
        let keys = items[index].keys
        do {
            for key in keys {
                let value = try await items[index].container.provideAsync(key)
                Resolution.lock.withLock { values.append(value) }
            }
            Resolution.lock.withLock { outcomes[index] = .resolved }
        } catch {
            let failure =
                error as? ResolutionError ?? .init(reason: .factoryFailed, key: keys[0], underlyingError: error)
            Resolution.lock.withLock {
                // Cancelled with its caller: what it threw says nothing about the registration.
                if outcomes[index] == nil, !uncheckIfCancelled([index]) { record(failure, at: index) }
            }
        }
    }

    /// Reports `error` as the outcome of the registration being probed and never returns. Called on
    /// the probe thread, which holds the lock in the middle of a resolution it will not return to.
    func parkAfterFailure(_ error: ResolutionError) -> Never {
        record(error, at: pending.removeFirst())
        abandonResolution()
        finished.signal()
        Self.parkForever()
    }

    /// Where a check runs in a task on a thread of the library's own (``runningCheck``): reports
    /// `error` as its outcome, ends the async factory run it is part of with it (so that what waits
    /// for that run goes on), and parks the thread for good. Returns anywhere else.
    static func parkInTask(_ error: ResolutionError) {
        // A check's task (or a child of it), on threads of the library's own: not a `Task {}` its factory
        // started (the check's task-locals, no executor), nor one preferring another executor; where the
        // runtime has no task executors, none (a check's task may run on the cooperative pool). Not on the
        // main actor (a task hops there, with its task-locals), whose thread must never park.
        guard let (probe, index, done) = runningCheck.get(),
            #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *), ProbeExecutor.isPreferredByCurrentTask,
            !MainActorCheck.isOnMainActor
        else { return }
        Resolution.lock.lock()
        // A task of the check (its own, or a child: none outlives it), also once validate() stopped waiting
        // for it (cancelled or late: listed as not checked, which stays), or once a sibling child parked; never
        // where this thread runs an actor's code (a global actor's resolve: parking would wedge that actor).
        guard Resolution.state.runningActor == nil else { return Resolution.lock.unlock() }
        probe.abandonResolution()
        Resolution.lock.lock()
        // The runs this task was part of end with the failure, so what waits for them goes on; it is
        // reached through them, as a failure thrown out of their factories is (see `runAsyncFactory`).
        let runs = AsyncMaking.current.get()?.chain ?? []
        let names = runs.map(\.requested.displayName)
        // The first failure is the outcome (a sibling child task of the check may park with one first).
        if probe.outcomes[index] == nil { probe.record(error.reached(through: names.reversed()), at: index) }
        // Each run's failure is reached through it and the runs it asked for, not the ones that asked for it.
        for (depth, run) in runs.enumerated() { run.abandon(with: error.reached(through: names[...depth].reversed())) }
        Resolution.lock.unlock()
        for run in runs { run.finish() }
        done.signal()
        parkForever()
    }

    /// Takes back the resolution in progress on this thread (nothing half-made is kept) and
    /// releases the lock completely. Lock held.
    private func abandonResolution() {
        Self.parked.value += 1
        // The resolution and those it set aside on this thread (a `register` in a factory).
        for frame in Resolution.state.allFrames { frame.entry?.state.isMaking = false }
        // Registrations they were installing, eager ones included, are taken back too.
        let installed = Resolution.state.stack.flatMap(\.installing).reversed().map { installing in
            defer { installing.container.registry.value = installing.registry }
            return installing.container.registry.value
        }
        // What each made goes, innermost first.
        var dropped = [copy.rollBack(to: nil)]
        while var outer = Resolution.state.setAside.popLast() {
            swap(&outer, &Resolution.state)
            dropped += [outer, copy.rollBack(to: nil)]
        }
        // The rest of its state (its frames, its probe, whether it ran actions) ends with it.
        Resolution.lock.releaseAfterUnlock((installed, dropped, ResolutionState.takeResolution()))
        Resolution.lock.unlockCompletely()
    }

    private static func parkForever() -> Never {
        let never = DispatchSemaphore(value: 0)
        while true { never.wait() }
    }
}

extension ResolutionError {
    var isNotYetMade: Bool { if case .notYetMade = reason { true } else { false } }
    /// Needs what an actor makes (an async or global-actor service, or a Sendable main-actor one),
    /// not made yet where it was asked for: `prepare()` would have made it first.
    var waitsForAnActor: Bool { isNotYetMade || reason == .mainActorRequired && details.isSendable }
}
