/// What a factory receives to resolve its own dependencies from the container that runs it.
///
///     Shared { resolve in RouterImpl(config: resolve()) }
///     Shared { resolve in try ConfiguredRouter(config: resolve.tryResolve()) }
///     New { resolve, id in DetailModel(id: id, store: resolve(name: "primary")) }
///
/// Use it only while the factory (or `onResolve`) runs; it does not keep the container alive,
/// and using it after its container was deallocated traps with a message saying so.
public struct Resolver: Sendable {
    // Not the container itself: a factory's product that stored the resolver would otherwise
    // keep its own container alive through the instance the container keeps. The reference is
    // the container's own, passed to factories borrowed, so making a resolver and resolving
    // through it retain nothing.
    @usableFromInline let reference: ContainerReference

    @inlinable
    init(_ container: DIContainer) {
        reference = container.reference
    }

    /// Runs `body` with the container (unretained: it is resolving, so alive), or traps with a
    /// message for a resolver kept past its container's life.
    @inlinable @inline(__always)
    func withContainer<R>(_ body: (DIContainer) throws -> R) rethrows -> R {
        guard let container = reference.container else {
            fatalError(
                "DependencyInjection: a Resolver was used after its container was deallocated. Use the "
                    + "resolver a factory receives only while that factory (or onResolve) runs; to resolve "
                    + "later, keep the container itself, or resolve what you need up front.")
        }
        return try container._withUnsafeGuaranteedRef(body)
    }

    /// Resolves a `T` (inferred from context); traps with the ``ResolutionError`` message on failure.
    @inlinable
    public func callAsFunction<T>(_ type: T.Type = T.self, name: String? = nil) -> T {
        withContainer { $0.resolve(type, name: name) }
    }

    /// Resolves a `T` made with arguments; traps on failure.
    public func callAsFunction<T, each Argument>(
        _ type: T.Type = T.self, name: String? = nil, arguments: () -> (repeat each Argument)
    ) -> T {
        withContainer { $0.resolve(type, name: name, arguments: arguments) }
    }

    /// Resolves a `T`, throwing a ``ResolutionError`` that carries the whole resolution path.
    ///
    /// In a throwing factory, `try resolve.tryResolve()` passes a missing dependency or a cycle
    /// up to the caller's `tryResolve` instead of trapping.
    public func tryResolve<T>(_ type: T.Type = T.self, name: String? = nil) throws -> T {
        try withContainer { try $0.tryResolve(type, name: name) }
    }

    /// Resolves a `T` made with arguments, throwing instead of trapping.
    public func tryResolve<T, each Argument>(
        _ type: T.Type = T.self, name: String? = nil, arguments: () -> (repeat each Argument)
    ) throws -> T {
        try withContainer { try $0.tryResolve(type, name: name, arguments: arguments) }
    }
}

/// A container's reference to itself that outlives it: what a ``Resolver`` holds.
///
/// The container clears it when it is deallocated, so a resolver kept past its container's life
/// traps with a message instead of touching freed memory. It never keeps the container alive.
@usableFromInline
final class ContainerReference: @unchecked Sendable {
    /// Set once the container is initialized; cleared by its `deinit`. Unretained: the container
    /// outlives every legitimate use (its factories run while it resolves).
    @usableFromInline @exclusivity(unchecked) var container: Unmanaged<DIContainer>?

    init() {}
}
