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
        guard let value = try await provideAsync(key) else { return try tryResolve(type, name: name) }
        // Every value of a slot of `T` is a `Box<T>`.
        guard let box = value as? Box<T> else {
            throw Resolution.lock.withLock { error(.aliasNotConforming(implementation: "?"), for: key) }
        }
        return box.value
    }

    /// Makes every async, eager and actor-isolated `Shared` registration here and in the
    /// ancestors, independent ones concurrently.
    public func prepare() async throws {
        let keys = Resolution.lock.withLock { () -> [Key] in
            var keys: [Key] = []
            var container: DIContainer? = self
            while let candidate = container {
                candidate.bootstrapIfNeeded()
                keys += candidate.slots.filter { !$0.value.isAlias && $0.value.entry.needsPreparing }.map(\.key)
                container = candidate.parent
            }
            return keys
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for key in keys {
                group.addTask {
                    guard try await self.provideAsync(key) == nil else { return }
                    try Resolution.lock.withLock { () throws(ResolutionError) in
                        _ = try self.withResolutionScope { () throws(ResolutionError) in try self.provideValue(key) }
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    /// The value of `key` (a `Box`) once an async factory or an actor made it; `nil` when a
    /// synchronous resolve here provides it.
    private func provideAsync(_ key: Key, isolation: isolated (any Actor)? = #isolation) async throws -> AnyBox? {
        while true {
            switch try Resolution.lock.withLock({ () throws(ResolutionError) in try nextAsyncStep(key) }) {
            case .resolve:
                return nil
            case .resolveOnMainActor:
                // Made on the main actor, and handed back like a freshly made value.
                let made: Handoff<AnyBox> = try await MainActor.run {
                    Handoff(try self.resolveIsolated(to: MainActor.shared, key))
                }
                return made.value
            case .resolveOn(let actor):
                let made: Handoff<AnyBox> = try await Self.onActor(actor) {
                    Handoff(try self.resolveIsolated(to: actor, key))
                }
                return made.value
            case .wait(let making):
                await making.wait()
            case .make(let owner, let slot, let make):
                let value = try await owner.runAsyncFactory(slot.entry, requested: key, make)
                return slot.alias.flatMap { $0.convert(value) } ?? value
            }
        }
    }

    /// What an async resolve of `key` does next. Lock held.
    private func nextAsyncStep(_ key: Key) throws(ResolutionError) -> AsyncStep {
        guard let (owner, slot) = lookup(key) else { return .resolve }
        let entry = slot.entry
        let isKept = entry.kept != nil
        if case .async(let make) = entry.spec.factory.make, !isKept {
            if let making = entry.value.making { return .wait(making) }
            // `Shared` instances are made once: later resolves wait for this one.
            if entry.lifetime == .shared { entry.value.making = AsyncMaking() }
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

    /// Provides `key` synchronously on `actor`, which its synchronous factory needs.
    private func resolveIsolated(to actor: any Actor, _ key: Key) throws -> AnyBox {
        try Resolution.lock.withLock { () throws(ResolutionError) -> AnyBox in
            let previous = Resolution.state.runningActor
            Resolution.state.runningActor = actor
            defer { Resolution.state.runningActor = previous }
            return try withResolutionScope { () throws(ResolutionError) in try provideValue(key) }
        }
    }

    /// Runs an async factory outside the lock, then keeps its value as the lifetime says.
    private func runAsyncFactory(
        _ entry: Entry, requested: Key, _ make: @Sendable (Resolver) async throws -> sending AnyBox,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> AnyBox {
        let result: Result<AnyBox, any Error>
        do {
            // While it runs, what it makes resolves its property wrappers from this container.
            Resolution.lock.withLock { Resolution.state.anyTaskBinding = true }
            result = .success(try await DIContainer.boundContainer.withValue(self) { try await make(Resolver(self)) })
        } catch {
            result = .failure(error)
        }
        let (making, outcome) = Resolution.lock.withLock { () -> (AsyncMaking?, Result<Void, ResolutionError>) in
            let making = entry.value.making
            entry.value.making = nil
            let outcome = Result { () throws(ResolutionError) in
                switch result {
                case .success(let value):
                    try withResolutionScope { () throws(ResolutionError) in
                        try keepMade(value, of: entry, requested: requested)
                    }
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
    case make(DIContainer, Slot, @Sendable (Resolver) async throws -> sending AnyBox)
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
