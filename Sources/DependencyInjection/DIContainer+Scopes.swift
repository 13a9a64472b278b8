/// A named lifetime for ``Scoped`` services: a signed-in user's session, a server's request.
///
///     extension DIScope {
///         static let session = DIScope("session")
///         static let request = DIScope("request", requiresRun: true)
///     }
///
/// Two scopes are the same scope when their names (and whether they require a run) are equal.
public struct DIScope: Hashable, Sendable {
    /// The scope's name, for listings and messages.
    public let name: String
    /// Whether its services exist only inside a run of ``DIContainer/withScope(_:_:)-swift.type.method``:
    /// resolving one outside a run (or from a task after its run returned) is a ``ResolutionError``,
    /// instead of one instance kept by the container for everyone. A run-only scope is shorter than
    /// an ordinary one (see `validate()`'s lifetime checks).
    public let requiresRun: Bool

    /// A scope named `name`; `requiresRun`: its services exist only inside runs of it (a server's request).
    public init(_ name: String, requiresRun: Bool = false) { (self.name, self.requiresRun) = (name, requiresRun) }
}

extension DIContainer {
    /// Runs `operation` with a run of `scope` of its own: every `Scoped(scope, …)` service it
    /// resolves (directly, through factories or property wrappers) is made once for this run and
    /// released when `operation` returns. Concurrent runs never share an instance.
    ///
    ///     let response = DIContainer.withScope(.request) {
    ///         DIContainer.resolve(RequestHandler.self).handle(request)
    ///     }
    ///
    /// The run is bound to the task (task-local), so tasks started inside it see it too.
    public static func withScope<R>(_ scope: DIScope, _ operation: () throws -> R) rethrows -> R {
        try current.withScope(scope, operation)
    }

    /// Runs an async `operation` with a run of `scope` of its own (see ``withScope(_:_:)-swift.type.method``).
    ///
    ///     let response = try await DIContainer.withScope(.request) {
    ///         try await DIContainer.resolve(RequestHandler.self).handle(request)
    ///     }
    public static func withScope<R>(
        _ scope: DIScope, isolation: isolated (any Actor)? = #isolation, _ operation: () async throws -> R
    ) async rethrows -> R {
        try await current.withScope(scope, isolation: isolation, operation)
    }

    /// Runs `operation` with this container as ``current`` and a run of `scope` of its own.
    public func withScope<R>(_ scope: DIScope, _ operation: () throws -> R) rethrows -> R {
        let run = ScopeRun(scope)
        defer { run.end() }
        return try activate { try ScopeRun.current.withValue(run, operation: operation) }
    }

    /// Runs an async `operation` with this container as ``current`` and a run of `scope` of its own.
    public func withScope<R>(
        _ scope: DIScope, isolation: isolated (any Actor)? = #isolation, _ operation: () async throws -> R
    ) async rethrows -> R {
        let run = ScopeRun(scope)
        defer { run.end() }
        return try await activate(isolation: isolation) {
            try await ScopeRun.current.withValue(run, operation: operation)
        }
    }
}

/// One run of ``DIContainer/withScope(_:_:)-swift.type.method``: the instances of its scope's
/// services made while it runs, each with its entry (whose registration's identity keys it, and is
/// not reused while it is kept); `nil` once the run has ended (a task it started may outlive it).
final class ScopeRun: Locked<[ObjectIdentifier: (entry: Entry, value: AnyBox)]?>, @unchecked Sendable {
    // Unchecked: `value` and `making` are guarded by `Resolution.lock` (see `Locked`); the rest never changes.
    static let current = TaskLocal<ScopeRun?>(wrappedValue: nil)

    let scope: DIScope
    /// The run this one is nested in (of any scope).
    let outer: ScopeRun?
    /// The async runs making its instances now (see `Entry.making`). Lock held.
    var making: [ObjectIdentifier: AsyncMaking] = [:]

    init(_ scope: DIScope) {
        (self.scope, outer) = (scope, Self.current.get())
        super.init([:])
    }

    /// The innermost run of `scope` bound to this task that has not ended, if any: a task that
    /// outlives its run resolves as outside it. Lock held.
    static func innermost(of scope: DIScope?) -> ScopeRun? {
        var run = current.get()
        while let found = run, found.scope != scope || found.value == nil { run = found.outer }
        return run
    }

    /// Ends the run and drops its instances, once the lock is let go (a run may end inside a
    /// factory): a `deinit` may resolve.
    func end() {
        Resolution.lock.withLock {
            Resolution.lock.releaseAfterUnlock((value.take(), making))
            making = [:]
        }
    }
}
