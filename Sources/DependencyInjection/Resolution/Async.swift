extension DIContainer {
    /// Resolves a `T` from ``current``, awaiting its factory if it is async or isolated to an
    /// actor (which then runs on that actor).
    ///
    ///     let config = try await DIContainer.resolveAsync(RemoteConfig.self)
    ///
    /// A `Shared` instance is made exactly once, however many tasks resolve it at once. Anything
    /// else resolves as ``resolve(_:name:file:line:)-swift.type.method`` does. The synchronous `resolve`
    /// keeps its name, so calling it in `async` code compiles unchanged.
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
        guard let value = try await provideAsync(Key(T.self, name: name)) else {
            return try tryResolve(type, name: name)
        }
        return Self.unbox(value)
    }

    /// Makes every async, eager and actor-isolated `Shared` registration here and in the
    /// ancestors, independent ones concurrently.
    ///
    /// Async factories run first, so that synchronous factories (on an actor, or eager) that
    /// resolve what they make find it made; a service that fails because one it needs is not made
    /// yet (``ResolutionError/Reason/notYetMade(actor:)``) is tried again once the others are.
    public func prepare() async throws {
        let services = Resolution.lock.withLock {
            lineage.flatMap { container in
                container.bootstrapIfNeeded()
                // Each registration once, through a slot it still serves (its own, or an alias).
                return container.rootEntries.filter(\.needsPreparing).compactMap { entry in
                    container.servedKeys(of: entry).first.map {
                        (owner: container, key: $0, isAsync: entry.spec.factory.isAsync)
                    }
                }
            }
        }
        try await Self.prepare(services.filter(\.isAsync).map { ($0.owner, $0.key) })
        try await Self.prepare(services.filter { !$0.isAsync }.map { ($0.owner, $0.key) })
    }

    /// Makes each service in the container that owns it, concurrently, in rounds.
    private static func prepare(_ services: [(owner: DIContainer, key: Key)]) async throws {
        var pending = services
        while !pending.isEmpty {
            let failures = await withTaskGroup(of: (DIContainer, Key, (any Error)?).self) { group in
                for (owner, key) in pending {
                    group.addTask {
                        do {
                            if try await owner.provideAsync(key) == nil { _ = try owner.provideHere(key) }
                            return (owner, key, nil)
                        } catch {
                            return (owner, key, error)
                        }
                    }
                }
                var failures: [(owner: DIContainer, key: Key, error: any Error)] = []
                for await case (let owner, let key, let error?) in group { failures.append((owner, key, error)) }
                return failures
            }
            func waitsForAnother(_ error: any Error) -> Bool {
                if case .notYetMade? = (error as? ResolutionError)?.reason { true } else { false }
            }
            // Another error, or a round that made nothing: what failed cannot be made.
            if let failure = failures.first(where: { !waitsForAnother($0.error) }) ?? failures.first,
                !waitsForAnother(failure.error) || failures.count == pending.count
            {
                // Kept for the message of a synchronous resolve that finds them not made.
                Resolution.lock.withLock {
                    for (owner, key, error) in failures { owner.slots[key]?.entry.value.preparationError = error }
                }
                throw failure.error
            }
            pending = failures.map { ($0.owner, $0.key) }
        }
    }

    /// The value of `key` (a `Box`) once an async factory or an actor made it; `nil` when a
    /// synchronous resolve here provides it.
    func provideAsync(_ key: Key, isolation: isolated (any Actor)? = #isolation) async throws -> AnyBox? {
        // `T?`, where it is not registered itself, awaits the `T` that is.
        let optional = Resolution.lock.withLock { lookup(key) == nil ? key.type as? any OptionalResolvable.Type : nil }
        if let optional, let value = try await provideAsync(Key(optional.wrappedType, name: key.name)) {
            return optional.box(value)
        }
        // The async factory whose code asks, if any: what this resolve would wait for must not wait for it.
        let asking = AsyncMaking.current.get()
        while true {
            switch try Resolution.lock.withLock({ () throws(ResolutionError) in try nextAsyncStep(key, asking) }) {
            case .resolve:
                return nil
            case .resolveOn(let actor):
                // Made on the actor its factory needs, and handed back like a freshly made value.
                return try await Self.onActor(actor) { Handoff(try self.provideHere(key, on: actor)) }.value
            case .wait(let making):
                await making.wait()
            case .make(let owner, let slot, let making, let make):
                return try await owner.runAsyncFactory(making, of: slot, make)
            }
        }
    }

    /// What an async resolve of `key`, asked by the factory run `asking` (if any), does next. Lock held.
    private func nextAsyncStep(_ key: Key, _ asking: AsyncMaking?) throws(ResolutionError) -> AsyncStep {
        guard let (owner, slot) = lookup(key) else { return .resolve }
        let entry = slot.entry
        let isKept = entry.kept != nil
        if case .async(let make) = entry.spec.factory.make, !isKept {
            if let cycle = asyncCycle(reaching: entry, requested: key, from: asking) { throw cycle }
            if let making = entry.value.making {
                if let asking { Resolution.state.asyncWaits.append((asking, making)) }
                return .wait(making)
            }
            let making = AsyncMaking(entry: entry, requested: key, asking: asking)
            // `Shared` instances are made once: later resolves wait for this run.
            if entry.lifetime == .shared { entry.value.making = making }
            return .make(owner, slot, making, make)
        }
        switch entry.spec.factory.isolation {
        case .mainActor where !MainActorCheck.isOnMainActor: return .resolveOn(MainActor.shared)
        case .globalActor(let actor, _) where !isKept: return .resolveOn(actor)
        default: return .resolve
        }
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
        } else if let making = entry.value.making {
            // Breadth first along the waits, each run reached with the run it was reached from.
            var frontier = [making]
            var reachedFrom: [ObjectIdentifier: AsyncMaking] = [:]
            while cycle == nil, !frontier.isEmpty {
                let run = frontier.removeFirst()
                if let start = chain.firstIndex(where: { $0 === run }) {
                    var walk = [run]
                    while let previous = reachedFrom[ObjectIdentifier(walk[0])] { walk.insert(previous, at: 0) }
                    cycle = (chain[start...], Array(walk.dropFirst()))
                }
                for wait in Resolution.state.asyncWaits where wait.waiter.chain.contains(where: { $0 === run }) {
                    guard wait.target !== making, reachedFrom[ObjectIdentifier(wait.target)] == nil else { continue }
                    reachedFrom[ObjectIdentifier(wait.target)] = run
                    frontier.append(wait.target)
                }
            }
        }
        guard let cycle else { return nil }
        let names = cycle.before.map(\.requested.displayName) + [requested.displayName]
        return ResolutionError(
            reason: .dependencyCycle(cycle: names + cycle.after.map(\.requested.displayName)), key: requested,
            path: chain.map(\.requested.displayName) + [requested.displayName])
    }

    /// Runs `body` on `actor`.
    private static func onActor<R>(_ actor: isolated any Actor, _ body: () throws -> R) rethrows -> R { try body() }

    /// Provides `key` synchronously, as one resolution (for the async API and `validate()`); `actor`
    /// is the one this code runs on.
    func provideHere(_ key: Key, on actor: (any Actor)? = nil) throws(ResolutionError) -> AnyBox {
        try Resolution.lock.withLock { () throws(ResolutionError) -> AnyBox in
            let previous = Resolution.state.runningActor
            Resolution.state.runningActor = actor
            defer { Resolution.state.runningActor = previous }
            return try withResolutionScope { () throws(ResolutionError) in try resolveStep(key, .none) }
        }
    }

    /// Runs an async factory outside the lock, then keeps its value as the lifetime says; returns it
    /// as the type of `slot` (an alias, if it is one).
    private func runAsyncFactory(
        _ making: AsyncMaking, of slot: Slot, _ make: @Sendable (Resolver) async throws -> sending AnyBox,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> AnyBox {
        let result: Result<AnyBox, any Error>
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
        // The tasks waiting for this run look again once it is over and the lock is released.
        defer { making.finish() }
        return try Resolution.lock.withLock { () throws(ResolutionError) -> AnyBox in
            slot.entry.value.making = nil
            let value = try Self.call(
                { _, _ in try result.get() }, Resolver(self), (), key: making.requested, in: self)
            return try withResolutionScope { () throws(ResolutionError) in
                try keepMade(value, of: slot.entry, requested: making.requested)
                return try converted(value, to: slot.alias, of: slot.entry, requested: making.requested)
            }
        }
    }
}

/// What an async resolve does next.
private enum AsyncStep {
    /// Resolve synchronously: made already, or made by a nonisolated synchronous factory.
    case resolve
    /// Resolve synchronously on this actor (the main actor, or another global actor).
    case resolveOn(any Actor)
    /// Another task is making it: wait, then look again.
    case wait(AsyncMaking)
    /// Run this async factory (in the container that owns the slot, converting to its alias, if any).
    case make(DIContainer, Slot, AsyncMaking, @Sendable (Resolver) async throws -> sending AnyBox)
}

/// One run of an async factory: later async resolves of a `Shared` one wait for it, and the runs
/// it asks for know it, so that a cycle through async factories is an error, not a task waiting
/// for itself.
final class AsyncMaking: @unchecked Sendable {
    // Unchecked: `entry`, `asking`, `waiters` and `isFinished` are read and written only with
    // `Resolution.lock` held; `requested` never changes.
    /// The run whose factory code is running in this task, if any. A task the factory starts
    /// (`Task { }`) inherits it, and may outlive the run.
    static let current = TaskLocal<AsyncMaking?>(wrappedValue: nil)

    let requested: Key
    /// The entry it makes, and the run whose factory asked for this one, until it finishes: a
    /// finished run keeps nothing alive (an instance's own task may hold the run) and is in no chain.
    private(set) var entry: Entry?
    private(set) var asking: AsyncMaking?
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var isFinished = false

    init(entry: Entry, requested: Key, asking: AsyncMaking?) {
        (self.entry, self.requested, self.asking) = (entry, requested, asking)
    }

    /// This run, the run that asked for it, and so on, while they run. Lock held.
    var chain: [AsyncMaking] { sequence(first: self) { $0.asking }.prefix { !$0.isFinished } }

    func wait() async {
        await withCheckedContinuation { continuation in
            let ready = Resolution.lock.withLock {
                if !isFinished { waiters.append(continuation) }
                return isFinished
            }
            if ready { continuation.resume() }
        }
    }

    func finish() {
        // What it kept is released, and its waiters are woken, after the lock.
        let (waiting, kept) = Resolution.lock.withLock {
            isFinished = true
            Resolution.state.asyncWaits.removeAll { $0.target === self }
            defer { (waiters, entry, asking) = ([], nil, nil) }
            return (waiters, (entry, asking))
        }
        withExtendedLifetime(kept) {}
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
