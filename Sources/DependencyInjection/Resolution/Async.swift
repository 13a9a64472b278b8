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
    public func prepare() async throws {
        let keys = Resolution.lock.withLock {
            lineage.flatMap { container in
                container.bootstrapIfNeeded()
                return container.slots.filter { !$0.value.isAlias && $0.value.entry.needsPreparing }.map(\.key)
            }
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for key in keys {
                group.addTask { if try await self.provideAsync(key) == nil { _ = try self.provideHere(key) } }
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
            case .resolveOn(let actor):
                // Made on the actor its factory needs, and handed back like a freshly made value.
                return try await Self.onActor(actor) { Handoff(try self.provideHere(key, on: actor)) }.value
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
        case .mainActor where !MainActorCheck.isOnMainActor: return .resolveOn(MainActor.shared)
        case .globalActor(let actor, _) where !isKept: return .resolveOn(actor)
        default: return .resolve
        }
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

    /// Runs an async factory outside the lock, then keeps its value as the lifetime says.
    private func runAsyncFactory(
        _ entry: Entry, requested: Key, _ make: @Sendable (Resolver) async throws -> sending AnyBox,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> AnyBox {
        let result: Result<AnyBox, any Error>
        do {
            // While it runs, what it makes resolves its property wrappers from this container.
            result = .success(try await activate { try await make(Resolver(self)) })
        } catch {
            result = .failure(error)
        }
        // The tasks waiting for this run look again once it is over and the lock is released.
        var making: AsyncMaking?
        defer { making?.finish() }
        return try Resolution.lock.withLock { () throws(ResolutionError) -> AnyBox in
            (making, entry.value.making) = (entry.value.making, nil)
            let value = try Self.call({ _, _ in try result.get() }, Resolver(self), (), key: requested, in: self)
            try withResolutionScope { () throws(ResolutionError) in
                try keepMade(value, of: entry, requested: requested)
            }
            return value
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

/// Carries a value across an isolation boundary that Swift cannot see through: into and out of
/// a main-actor factory run under `MainActor.assumeIsolated`, and back from the actor an async
/// resolve made a value on.
final class Handoff<Value>: @unchecked Sendable {
    // Unchecked: each handoff has one user at a time: it is made before the boundary is crossed
    // and read after, never concurrently.
    let value: Value

    init(_ value: Value) { self.value = value }
}
