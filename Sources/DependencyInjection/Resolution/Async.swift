extension DIContainer {
    /// Resolves a `T` from ``current``, awaiting its factory if it is async or isolated to an
    /// actor (which then runs on that actor).
    ///
    ///     let config = try await DIContainer.resolveAsync(RemoteConfig.self)
    ///
    /// A `Shared` instance is made exactly once, however many tasks resolve it at once. Anything
    /// else resolves as ``resolve(_:name:)-swift.type.method`` does. The synchronous `resolve`
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
    public static func prepare() async throws {
        try await current.prepare()
    }

    /// Resolves a `T`, awaiting its factory if it is async or isolated to an actor.
    public func resolveAsync<T>(
        _ type: T.Type = T.self, name: String? = nil, isolation: isolated (any Actor)? = #isolation
    ) async throws -> T {
        let key = Key(T.self, name: name)
        while true {
            switch try Resolution.lock.withLock({ () throws(ResolutionError) in try nextAsyncStep(key) }) {
            case .resolve:
                return try tryResolve(type, name: name)
            case .resolveOnMainActor:
                // Made on the main actor, and handed back like a freshly made value.
                let handoff = try await MainActor.run { Handoff(try self.tryResolve(type, name: name)) }
                return handoff.value
            case .resolveOn(let actor):
                let handoff = try await Self.onActor(actor) { Handoff(try self.resolveIsolated(to: actor, key) as T) }
                return handoff.value
            case .wait(let making):
                await making.wait()
            case .make(let owner, let slot, let make):
                let value = try await owner.runAsyncFactory(slot.entry, requested: key, make)
                // Every value of a slot of `T` is a `Box<T>`, an alias's once converted.
                guard let box = slot.alias.map({ $0.convert(value) }) ?? value, let made = box as? Box<T> else {
                    throw Resolution.lock.withLock {
                        error(.aliasNotConforming(implementation: TypeName.of(slot.entry.spec.type)), for: key)
                    }
                }
                return made.value
            }
        }
    }

    /// Makes every async, eager and actor-isolated `Shared` registration here and in the
    /// ancestors, independent ones concurrently.
    public func prepare() async throws {
        let keys = Resolution.lock.withLock { () -> [Key] in
            var keys: [Key] = []
            var container: DIContainer? = self
            while let candidate = container {
                candidate.bootstrapIfNeeded()
                for (key, slot) in candidate.slots where !slot.isAlias && slot.entry.needsPreparing {
                    keys.append(key)
                }
                container = candidate.parent
            }
            return keys
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for key in keys {
                group.addTask { try await self.prepare(key) }
            }
            try await group.waitForAll()
        }
    }

    private func prepare(_ key: Key) async throws {
        while true {
            switch try Resolution.lock.withLock({ () throws(ResolutionError) in try nextAsyncStep(key) }) {
            case .resolve:
                return try Resolution.lock.withLock { () throws(ResolutionError) in
                    try withResolutionScope { () throws(ResolutionError) in try probe(key) }
                }
            case .resolveOnMainActor:
                return try await MainActor.run {
                    try Resolution.lock.withLock { () throws(ResolutionError) in
                        try self.withResolutionScope { () throws(ResolutionError) in try self.probe(key) }
                    }
                }
            case .resolveOn(let actor):
                return try await Self.onActor(actor) { _ = try self.resolveIsolated(to: actor, key) as Any }
            case .wait(let making):
                await making.wait()
            case .make(let owner, let slot, let make):
                _ = try await owner.runAsyncFactory(slot.entry, requested: key, make)
                return
            }
        }
    }

    /// What an async resolve of `key` does next. Lock held.
    private func nextAsyncStep(_ key: Key) throws(ResolutionError) -> AsyncStep {
        guard let (owner, slot) = lookup(key) else { return .resolve }
        let entry = slot.entry
        let isKept = entry.kept(in: Resolution.state) != nil
        if case .async(let make) = entry.spec.factory.make, !isKept {
            if let making = entry.making { return .wait(making) }
            // `Shared` instances are made once: later resolves wait for this one.
            if entry.lifetime == .shared { entry.making = AsyncMaking() }
            return .make(owner, slot, make)
        }
        switch entry.spec.factory.isolation {
        case .mainActor where !MainActorCheck.isOnMainActor: return .resolveOnMainActor
        case .globalActor(let actor, _) where !isKept: return .resolveOn(actor)
        default: return .resolve
        }
    }

    /// Runs `body` on `actor`.
    private static func onActor<R>(_ actor: isolated any Actor, _ body: () throws -> R) rethrows -> R {
        try body()
    }

    /// Resolves `key` synchronously on `actor`, which a synchronous factory of it needs.
    private func resolveIsolated<T>(to actor: any Actor, _ key: Key) throws -> T {
        try Resolution.lock.withLock { () throws(ResolutionError) -> T in
            let state = Resolution.state
            let previous = state.runningActor
            state.runningActor = actor
            defer { state.runningActor = previous }
            return try resolveLocked(key, .none)
        }
    }

    /// Runs an async factory outside the lock, then keeps its value as the lifetime says.
    private func runAsyncFactory(
        _ entry: Entry, requested: Key, _ make: @Sendable (Resolver) async throws -> sending Any,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> Any {
        let result: Result<Any, any Error>
        do {
            // While it runs, what it makes resolves its property wrappers from this container.
            result = .success(try await DIContainer.boundContainer.withValue(self) { try await make(Resolver(self)) })
        } catch {
            result = .failure(error)
        }
        let (making, outcome) = Resolution.lock.withLock { () -> (AsyncMaking?, Result<Void, ResolutionError>) in
            let making = entry.making
            entry.making = nil
            let outcome = Result { () throws(ResolutionError) in
                switch result {
                case .success(let value):
                    try withResolutionScope { () throws(ResolutionError) in try keepMade(value, of: entry, requested: requested) }
                case .failure(let error as ResolutionError):
                    throw error
                case .failure(let error):
                    throw self.error(.factoryFailed, for: requested, underlying: error)
                }
            }
            return (making, outcome)
        }
        making?.finish()
        try outcome.get()
        return try result.get()
    }
}

/// What an async resolve does next.
private enum AsyncStep {
    /// Resolve synchronously: made already, or made by a nonisolated synchronous factory.
    case resolve
    /// Resolve synchronously on the main actor.
    case resolveOnMainActor
    /// Resolve synchronously on this actor.
    case resolveOn(any Actor)
    /// Another task is making it: wait, then look again.
    case wait(AsyncMaking)
    /// Run this async factory.
    case make(DIContainer, Slot, @Sendable (Resolver) async throws -> sending Any)
}

/// An async factory's run in progress: later async resolves of the same entry wait for it.
final class AsyncMaking: @unchecked Sendable {
    // Unchecked: `waiters` and `isFinished` are read and written only with `Resolution.lock` held.
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var isFinished = false

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
        let waiting = Resolution.lock.withLock {
            isFinished = true
            defer { waiters = [] }
            return waiters
        }
        for waiter in waiting { waiter.resume() }
    }
}

/// A value made on another actor, handed back to the caller that asked for it.
private struct Handoff<Value>: @unchecked Sendable {
    // Unchecked: made by a factory for this one caller, and not used where it was made after.
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}
