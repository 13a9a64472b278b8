extension DIContainer {
    /// Resolves a `T` from ``current``, awaiting its factory if it is async or isolated to an
    /// actor (which then runs on that actor).
    ///
    ///     let config = try await DIContainer.resolveAsync(RemoteConfig.self)
    ///
    /// A `Shared` instance is made exactly once, however many tasks resolve it at once. Anything
    /// else resolves as ``resolve(_:name:file:line:)-swift.type.method`` does, once what its factories
    /// need that is made by awaiting it (an async or an actor's `Shared`, not made yet) is awaited,
    /// as ``prepare()-swift.type.method`` would make it first. The synchronous `resolve` keeps its
    /// name, so calling it in `async` code compiles unchanged.
    public static func resolveAsync<T>(
        _ type: T.Type = T.self, name: String? = nil, isolation: isolated (any Actor)? = #isolation
    ) async throws -> T {
        try await current.resolveAsync(type, name: name)
    }

    /// Makes every async, eager and actor-isolated `Shared` registration of ``current`` (and of
    /// its ancestors), independent ones concurrently; afterwards the synchronous `resolve` and
    /// the property wrappers return them.
    ///
    ///     try await DIContainer.prepare()
    public static func prepare() async throws { try await current.prepare() }

    /// Resolves a `T`, awaiting its factory if it is async or isolated to an actor.
    public func resolveAsync<T>(
        _ type: T.Type = T.self, name: String? = nil, isolation: isolated (any Actor)? = #isolation
    ) async throws -> T {
        Self.unbox(try await provideAsync(Key(T.self, name: name)))
    }

    /// Makes every async, eager and actor-isolated `Shared` registration here and in the
    /// ancestors, independent ones concurrently.
    ///
    /// In three phases: the synchronous factories isolated to a global actor (or another actor),
    /// so that async factories may resolve what they make with a plain `resolve()`; then the async
    /// factories, so that main-actor and eager factories may do the same with what *they* make;
    /// then the rest. A service whose factory needs one not made yet
    /// (``ResolutionError/Reason/notYetMade(actor:)``) is made again once that one is awaited (see
    /// ``resolveAsync(_:name:isolation:)-swift.method``): a synchronous factory that needs a service
    /// of a later phase resolves it with `try resolve.tryResolve()` (a plain `resolve()` of what is
    /// not made yet traps).
    public func prepare() async throws {
        let services = Resolution.lock.withLock {
            lineage.flatMap { container in
                container.bootstrapIfNeeded()
                // Each registration once, through a slot it still serves (its own, or an alias).
                return container.rootEntries.filter(\.needsPreparing).compactMap { entry in
                    let actor = entry.spec.factory.isolation.actor
                    // In a copy of an ancestor, not a key an override serves: that one is the overriding
                    // copy's own registration, made (or not) as such.
                    return container.servedKeys(of: entry).first { container.lookup($0)?.0 === container }.map { key in
                        (Service(owner: container, key: key, actor: actor), entry.preparePhase)
                    }
                }
            }
        }
        for phase in 0...2 { try await Self.prepare(services.filter { $0.1 == phase }.map(\.0)) }
    }

    /// A service `prepare()` makes: in the container that owns it, on the actor its factory needs.
    private struct Service: Sendable {
        let owner: DIContainer
        let key: Key
        let actor: (any Actor)?

        /// Makes it on its actor, where even a value that is not `Sendable` may be made and kept;
        /// returns why it could not, if it could not.
        func make(isolation: isolated (any Actor)?) async -> (any Error)? {
            do { _ = try await owner.provideAsync(key) } catch { return error }
            return nil
        }
    }

    /// Makes each service, concurrently; throws the first failure, kept on each one that failed for the
    /// message of a later synchronous resolve that finds it not made.
    private static func prepare(_ services: [Service]) async throws {
        let failures = await withTaskGroup(of: (Service, (any Error)?).self) { group in
            for service in services {
                group.addTask { (service, await service.make(isolation: service.actor)) }
            }
            var failures: [(service: Service, error: any Error)] = []
            for await case (let service, let error?) in group { failures.append((service, error)) }
            return failures
        }
        guard let failure = failures.first else { return }
        Resolution.lock.withLock {
            for (service, error) in failures {
                service.owner.slots[service.key]?.entry.state.preparationError = error as? ResolutionError
            }
        }
        throw failure.error
    }

    /// The value of `key` (an `AnyBox`), made by an async factory, on an actor, or here; `isolation`
    /// is where the caller runs (a value that is not `Sendable` never leaves its factory's actor).
    func provideAsync(_ key: Key, isolation: isolated (any Actor)? = #isolation) async throws -> AnyBox {
        // `T?`, where it is not registered itself, awaits the `T` that is.
        let optional = Resolution.lock.withLock { () -> (any OptionalResolvable.Type, Key)? in
            guard lookup(key) == nil, let optional = key.type as? any OptionalResolvable.Type else { return nil }
            let wrapped = Key(optional.wrappedType, name: key.name)
            return lookup(wrapped) == nil ? nil : (optional, wrapped)
        }
        if let (optional, wrapped) = optional { return optional.box(try await provideAsync(wrapped)) }
        // The async factory whose code asks, if any: what this resolve would wait for must not wait for it.
        let asking = AsyncMaking.current.get()
        // What a factory needed and found not made yet, awaited once each before it was asked for again,
        // and kept until this resolve returns (a `Weak` one would be gone before the factory runs again).
        var awaited: Set<Key> = []
        var keptAlive: [AnyBox] = []
        defer { withExtendedLifetime(keptAlive) {} }
        while true {
            do {
                if let value = try await provideAsyncStep(key, asking, caller: isolation) { return value }
            } catch let failure as ResolutionError
                where failure.isNotYetMade && failure.key != key && failure.details.declaration == nil
            {
                // An async service, or an actor's, that a factory of it needs: awaited first, as prepare() would
                // (a `New` never is made for a synchronous factory: asked for again, it fails). Not for a
                // property wrapper, which traps in the app (`validate()` only reports it).
                guard awaited.insert(failure.key).inserted else { throw failure }
                do {
                    keptAlive.append(try await provideAsync(failure.key))
                } catch let error as ResolutionError {
                    throw error.reached(through: failure.path.dropLast())
                }
            }
        }
    }

    /// One step of ``provideAsync(_:isolation:)``: the value, or `nil` to look again.
    private func provideAsyncStep(
        _ key: Key, _ asking: AsyncMaking?, caller isolation: isolated (any Actor)?
    ) async throws -> AnyBox? {
        let step = try Resolution.lock.withLock { () throws(ResolutionError) in
            try nextAsyncStep(key, asking, caller: isolation)
        }
        switch step {
        case .value(let value):
            return value
        case .resolveOn(let actor):
            // A synchronous `validate()` checking this blocks that actor: it would never come.
            if let blocked = ValidationProbe.blockedActor.get(), blocked === actor {
                throw ResolutionError(reason: .notYetMade(actor: TypeName.of(type(of: actor))), key: key)
            }
            // Made on the actor its factory needs, and handed back like a freshly made value.
            return try await Self.onActor(actor) { Handoff(try self.provideHere(key, on: actor)) }.value
        case .wait(let making):
            await making.wait()
            // Waiting no more (also when cancelled): the cycle search must not follow this wait.
            Resolution.lock.withLock {
                let wait = Resolution.state.asyncWaits.firstIndex { $0.waiter === asking && $0.target === making }
                if let wait { Resolution.state.asyncWaits.remove(at: wait) }
            }
            try Task.checkCancellation()
            return nil
        case .make(let owner, let slot, let making, let make):
            return try await owner.runAsyncFactory(making, of: slot, make)
        }
    }

    /// What an async resolve of `key`, asked by the factory run `asking` (if any) from code
    /// isolated to `caller`, does next; a value it can have right away, under this hold of the lock.
    private func nextAsyncStep(
        _ key: Key, _ asking: AsyncMaking?, caller: (any Actor)?
    ) throws(ResolutionError) -> AsyncStep {
        guard let (owner, slot) = lookup(key) else { return .value(try provideHere(key, on: caller)) }
        let entry = slot.entry
        // A `Graph` value the async factory run asking made already (kept in the run, not in a resolution).
        let inRun = entry.lifetime == .graph && asking?.graph[ObjectIdentifier(entry)] != nil
        if inRun { return .value(try provideHere(key, on: caller)) }
        let isKept = entry.kept != nil
        if case .async(let make) = entry.spec.factory.make, !isKept {
            if let reason = entry.runRequired { throw error(reason, for: key) }
            if let cycle = asyncCycle(reaching: entry, requested: key, from: asking) { throw cycle }
            if let failure = entry.state.validationFailure { throw failure.reachedAgain(as: key, of: entry) }
            if let making = entry.making {
                if let asking { Resolution.state.asyncWaits.append((asking, making)) }
                return .wait(making)
            }
            // What this resolve makes is what `provide` would have handed out: a strict test sees it.
            owner.reportIfStrict(slot, requested: key)
            let making = AsyncMaking(entry: entry, requested: key, asking: asking, in: owner)
            // `Shared`, `Weak` and `Scoped` instances are made once at a time: later resolves wait for
            // this run (and a `Scoped` one in another run of its scope looks again, and makes its own).
            if entry.lifetime.keepsOne { entry.making = making }
            return .make(owner, slot, making, make)
        }
        let isolation = owner.isolation(of: entry)
        guard let actor = isolation.actor, actor !== caller else {
            do {
                return .value(try provideHere(key, on: caller))
            } catch
                where error.reason == .mainActorRequired && error.details.isSendable && caller !== MainActor.shared
                && entry.isSendable(as: key)
            {
                // A Sendable main-actor service its factory needs: made on the main actor, with it, if
                // what is made there may come back here (a value that is not Sendable may hold main-actor state).
                return .resolveOn(MainActor.shared)
            }
        }
        // Made on its actor, a value that is not `Sendable` stays there.
        if !entry.isSendable(as: key) {
            if isolation.isMainActor { throw mainActorRequired(entry, requested: key, canHop: false) }
            throw error(.notSendable(actor: isolation.actorName!), for: key)
        }
        return isKept ? .value(try provideHere(key, on: caller)) : .resolveOn(actor)
    }

    /// The cycle that an async resolve of `entry` from the run `asking` would close, if any: `entry`
    /// is made by `asking` or a run that asked for it (the same task), or by a run that waits,
    /// directly or through other waiting runs, for one of those (another task). Lock held.
    private func asyncCycle(reaching entry: Entry, requested: Key, from asking: AsyncMaking?) -> ResolutionError? {
        guard let asking else { return nil }
        let chain = Array(asking.chain.reversed())  // outermost first, ending with `asking` (if running)
        // The runs of the cycle before the requested step, and after it.
        var cycle: (before: ArraySlice<AsyncMaking>, after: [AsyncMaking])?
        if let start = chain.firstIndex(where: { $0.entry === entry }) {
            cycle = (chain[start...], [])
        } else if let making = entry.making {
            // Breadth first along the waits: each run reached with the walk from `making` to it.
            var walks = [[making]]
            var reached: Set = [ObjectIdentifier(making)]
            while cycle == nil, !walks.isEmpty {
                let walk = walks.removeFirst()
                let run = walk[walk.count - 1]
                if let start = chain.firstIndex(where: { $0 === run }) {
                    cycle = (chain[start...], Array(walk.dropFirst()))
                }
                for wait in Resolution.state.asyncWaits where wait.waiter.chain.contains(where: { $0 === run }) {
                    // With the runs between `run` and the one that waits (asked for in turn, in its task).
                    let walk = walk + wait.waiter.chain.prefix { $0 !== run }.reversed()
                    if reached.insert(ObjectIdentifier(wait.target)).inserted { walks.append(walk + [wait.target]) }
                }
            }
        }
        guard let cycle else { return nil }
        let names = cycle.before.map(\.requested.displayName) + [requested.displayName]
        // The path: this run, what it asks for, and the waits that close the cycle; each outer run adds
        // itself as the error leaves it (`reached(through:)`).
        return ResolutionError(
            reason: .dependencyCycle(cycle: names + cycle.after.map(\.requested.displayName)), key: requested,
            path: [asking.requested.displayName, requested.displayName] + cycle.after.map(\.requested.displayName)
        ).with { $0.isAsyncCycle = true }
    }

    /// Runs `body` on `actor`.
    private static func onActor<R>(_ actor: isolated any Actor, _ body: () throws -> R) rethrows -> R { try body() }

    /// Provides `key` synchronously, as one resolution (for the async API and `validate()`); `actor`
    /// is the one this code runs on.
    func provideHere(_ key: Key, on actor: (any Actor)? = nil) throws(ResolutionError) -> AnyBox {
        try resolving(on: actor) { () throws(ResolutionError) in try resolveStep(key, .none) }
    }

    /// Runs `body` as one resolution, with the lock held, on `actor` (the one this code runs on).
    private func resolving<R>(
        on actor: (any Actor)?, _ body: () throws(ResolutionError) -> R
    ) throws(ResolutionError) -> R {
        try Resolution.lock.withLock { () throws(ResolutionError) -> R in
            let previous = Resolution.state.runningActor
            Resolution.state.runningActor = actor
            defer { Resolution.state.runningActor = previous }
            return try asOneResolution(body)
        }
    }

    /// Runs an async factory outside the lock, then keeps its value as the lifetime says, on the
    /// actor its decorators and actions need, if any (see ``keep(_:of:in:on:)``).
    private func runAsyncFactory(
        _ making: AsyncMaking, of slot: Slot, _ make: @Sendable (Resolver) async throws -> sending AnyBox,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> AnyBox {
        var result: Result<AnyBox, any Error>
        do {
            // While it runs, what it makes resolves its property wrappers from this container, and
            // its own async resolves know which run asks.
            result = .success(
                try await AsyncMaking.current.withValue(making) {
                    try await activate { try await make(Resolver(self)) }
                })
        } catch {
            // A failure inside names the async service on its path.
            result = .failure((error as? ResolutionError)?.reached(through: making.requested.displayName) ?? error)
        }
        // A property wrapper of what it made failed in a `validate()` copy: the run fails with it.
        if let failure = Resolution.lock.withLock({ making.failedInjection.take() }) {
            result = .failure(failure.reached(through: making.requested.displayName))
        }
        // The tasks waiting for this run look again once it is over and the lock is released.
        defer { making.finish() }
        // Cancelled (its own `CancellationError`, or a cancelled wait inside): nothing is kept, and the
        // caller gets the `CancellationError` itself, as a cancelled wait's caller does.
        if case .failure(let failure) = result, failure is CancellationError {
            Resolution.lock.withLock { if slot.entry.making === making { slot.entry.making = nil } }
            throw failure
        }
        guard let actor = Resolution.lock.withLock({ self.isolation(of: slot.entry).actor }), actor !== isolation else {
            return try keep(result, of: making, in: slot, on: isolation)
        }
        let made = Handoff((result, slot))
        return try await Self.onActor(actor) {
            Handoff(try self.keep(made.value.0, of: making, in: made.value.1, on: actor))
        }.value
    }

    /// Keeps what an async run made as the lifetime says (unless `releaseInstances()` or `reset()`
    /// came meanwhile), on `actor`; returns it as the type of `slot` (an alias, if it is one).
    private func keep(
        _ result: Result<AnyBox, any Error>, of making: AsyncMaking, in slot: Slot, on actor: (any Actor)?
    ) throws(ResolutionError) -> AnyBox {
        try resolving(on: actor) { () throws(ResolutionError) in
            let isCurrent = slot.entry.making === making
            if isCurrent { slot.entry.making = nil }
            // A `Shared`, `Weak` or `Scoped` run that `releaseInstances()` or `reset()` overtook keeps nothing.
            let keeps = isCurrent || !slot.entry.lifetime.keepsOne
            let value = try Self.call(
                { _, _ in try result.get() }, Resolver(self), (), key: making.requested, in: self)
            // Its decorators run as a step of its entry, as a synchronous one's do (so they may not
            // change this container, and what they resolve is an edge of it).
            Resolution.state.frames.append(.init(self, entry: slot.entry, requested: making.requested))
            defer { _ = Resolution.state.frames.removeLast() }
            return try keepMade(value, of: slot.entry, as: slot.alias, requested: making.requested, keeping: keeps)
        }
    }
}

/// What an async resolve does next.
private enum AsyncStep {
    /// The value: made already, or made here by a synchronous factory.
    case value(AnyBox)
    /// Resolve synchronously on this actor (the main actor, or another global actor).
    case resolveOn(any Actor)
    /// Another task is making it: wait, then look again.
    case wait(AsyncMaking)
    /// Run this async factory (in the container that owns the slot, converting to its alias, if any).
    case make(DIContainer, Slot, AsyncMaking, @Sendable (Resolver) async throws -> sending AnyBox)
}

/// One run of an async factory: later async resolves of one that keeps its value (`Shared`, `Weak`,
/// `Scoped`) wait for it, and the runs
/// it asks for know it, so that a cycle through async factories is an error, not a task waiting
/// for itself.
final class AsyncMaking: @unchecked Sendable {
    // Unchecked: `entry`, `asking`, `waiters`, `nextWaiter`, `graph` and `failedInjection` are read and
    // written only with `Resolution.lock` held; `requested` and `owner` never change.
    /// The run whose factory code is running in this task, if any. A task the factory starts
    /// (`Task { }`) inherits it, and may outlive the run.
    static let current = TaskLocal<AsyncMaking?>(wrappedValue: nil)

    let requested: Key
    /// The container whose factory it runs (which refuses to be changed meanwhile).
    let owner: ContainerReference
    /// The entry it makes, and the run whose factory asked for this one, until it finishes: a
    /// finished run keeps nothing alive (an instance's own task may hold the run) and is in no chain.
    private(set) var entry: Entry?
    private(set) var asking: AsyncMaking?
    /// Set for a run in a `validate()` copy: a property wrapper's failure in what its factory
    /// makes, which the run fails with once the factory returns (see `DIContainer.deferToValidation`).
    var failedInjection: ResolutionError?
    private var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    private var nextWaiter = 0
    /// The `Graph` instances of the synchronous resolves its factory makes: one set per run, as
    /// one synchronous resolve has.
    var graph: ResolutionState.GraphValues = [:]

    /// Lock held.
    init(entry: Entry, requested: Key, asking: AsyncMaking?, in owner: DIContainer) {
        (self.entry, self.requested, self.asking, self.owner) = (entry, requested, asking, owner.reference)
        Resolution.state.asyncRuns += 1
    }

    /// The run whose factory code is running in this task, if any (the task-local is read only
    /// while some run is in progress). Lock held.
    static var running: AsyncMaking? {
        guard Resolution.state.asyncRuns > 0, let run = current.get(), !run.isFinished else { return nil }
        return run
    }

    /// Whether its factory runs in a `validate()` copy. Read while the run is in progress, when its
    /// container is alive (the owner runs it, see `runAsyncFactory`). Lock held.
    var isValidating: Bool { owner.weakContainer?.registry.value.isValidationCopy == true }

    /// Over: `finish()` let go of its entry. Lock held.
    private var isFinished: Bool { entry == nil }

    /// This run, the run that asked for it, and so on, while they run. Lock held.
    var chain: [AsyncMaking] { sequence(first: self) { $0.asking }.prefix { !$0.isFinished } }

    /// Returns once the run is over, or once the waiting task is cancelled.
    func wait() async {
        let id = Resolution.lock.withLock {
            defer { nextWaiter += 1 }
            return nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready = Resolution.lock.withLock {
                    let ready = isFinished || Task.isCancelled
                    if !ready { waiters[id] = continuation }
                    return ready
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            Resolution.lock.withLock { waiters.removeValue(forKey: id) }?.resume()
        }
    }

    /// A `validate()` probe parked this run's task: what waits for it, and what asks for its entry
    /// later in that validation, fails with `error`. Lock held.
    func abandon(with error: ResolutionError) {
        entry?.state.validationFailure = error.with { $0.isReachedAgain = true }
        if entry?.making === self { entry?.making = nil }
    }

    func finish() {
        // What it kept is released, and its waiters are woken, after the lock.
        let waiting = Resolution.lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            guard !isFinished else { return [] }
            Resolution.state.asyncRuns -= 1
            Resolution.state.asyncWaits.removeAll { $0.target === self }
            Resolution.lock.releaseAfterUnlock((entry, asking, graph))
            defer { (waiters, entry, asking, graph) = ([:], nil, nil, [:]) }
            return Array(waiters.values)
        }
        for waiter in waiting { waiter.resume() }
    }
}

/// Carries a value across an isolation boundary that Swift cannot see through: into and out of
/// a main-actor factory run under `MainActor.assumeIsolated`, and back from the actor an async
/// resolve made a value on.
final class Handoff<Value>: @unchecked Sendable {
    // Unchecked: each handoff has one user at a time: it is made before the boundary is crossed
    // and read after, never concurrently.
    let value: Value

    init(_ value: Value) { self.value = value }
}
