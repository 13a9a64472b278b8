/// What a factory receives to resolve its own dependencies from the container that runs it.
///
///     Shared { resolve in RouterImpl(config: resolve()) }
///     Shared { resolve in try ConfiguredRouter(config: resolve.tryResolve()) }
///     New { resolve, id in DetailModel(id: id, store: resolve(name: "primary")) }
///
/// Use it while the factory (or `onResolve`) runs. It does not keep the container alive: a
/// resolver kept and used after its container was deallocated traps with a message saying so.
public struct Resolver: Sendable {
    // Not the container itself: a factory's product that stored the resolver would otherwise keep
    // its own container alive through the instance the container keeps.
    @usableFromInline let reference: ContainerReference

    init(_ container: DIContainer) { reference = container.reference }

    /// Resolves a `T` (inferred from context); traps with the ``ResolutionError`` message on failure.
    @inlinable
    public func callAsFunction<T>(
        _ type: T.Type = T.self, name: String? = nil, file: StaticString = #fileID, line: UInt = #line
    ) -> T { DIContainer.resolvedOrFail(type, name: name, .none, from: reference, file: file, line: line) }

    /// Resolves a `T` made with arguments; traps on failure.
    @inlinable
    public func callAsFunction<T, each Argument>(
        _ type: T.Type = T.self, name: String? = nil, arguments: () -> (repeat each Argument),
        file: StaticString = #fileID, line: UInt = #line
    ) -> T {
        DIContainer.resolvedOrFail(type, name: name, Arguments(arguments), from: reference, file: file, line: line)
    }

    /// Resolves a `T`, throwing a ``ResolutionError`` that carries the whole resolution path.
    ///
    /// In a throwing factory, `try resolve.tryResolve()` passes a missing dependency or a cycle
    /// up to the caller's `tryResolve` instead of trapping.
    @inlinable
    public func tryResolve<T>(_ type: T.Type = T.self, name: String? = nil) throws -> T {
        try DIContainer.resolved(type, name: name, .none, from: reference)
    }

    /// Resolves a `T` made with arguments, throwing instead of trapping.
    @inlinable
    public func tryResolve<T, each Argument>(
        _ type: T.Type = T.self, name: String? = nil, arguments: () -> (repeat each Argument)
    ) throws -> T {
        try DIContainer.resolved(type, name: name, Arguments(arguments), from: reference)
    }
}

extension Resolver {
    /// Resolves every registration of `T` (see ``DIContainer/resolveAll(_:file:line:)-swift.type.method``).
    @inlinable
    public func resolveAll<T>(
        _ type: T.Type = T.self, file: StaticString = #fileID, line: UInt = #line
    ) -> [T] { DIContainer.resolvedAllOrFail(type, from: reference, file: file, line: line) }

    /// A closure that resolves `T` with its arguments from this resolver's container, usable after
    /// the factory that received the resolver returned (see ``DIContainer/factory(_:name:arguments:file:line:)-swift.type.method``).
    ///
    ///     Shared { resolve in ListViewModel(makeDetail: resolve.factory(DetailViewModel.self, arguments: String.self)) }
    public func factory<T, each Argument>(
        _ type: T.Type = T.self, name: String? = nil, arguments: repeat (each Argument).Type,
        file: StaticString = #fileID, line: UInt = #line
    ) -> @Sendable (repeat each Argument) -> T {
        Resolution.lock.withLock { reference.container }.factory(
            type, name: name, arguments: repeat each arguments, file: file, line: line)
    }
}

/// How a ``Resolver`` reaches its container without keeping it alive: a `weak` reference, which
/// reads `nil` once the container is going away, on whichever thread that happens.
///
/// A root class, so that its metadata needs no making at run time (a subclass of the generic
/// `Locked` did, at every launch). Resolution reaches a running container without reading this
/// reference (see `Unretained`), so its run-time exclusivity check costs a resolve nothing.
@usableFromInline
final class ContainerReference: @unchecked Sendable {
    // Unchecked: `weakContainer` is written once, by the container's initializer, and read only
    // with `Resolution.lock` held.
    weak var weakContainer: DIContainer?

    /// The container; a trap with a message once it is gone. Lock held.
    var container: DIContainer {
        guard let container = weakContainer else {
            fatalError(
                "DependencyInjection: a Resolver was used after its container was deallocated. Use the "
                    + "resolver a factory receives only while that factory (or onResolve) runs; to resolve "
                    + "later, keep the container itself, or resolve what you need up front. (A closure made by "
                    + "factory(_:name:arguments:) resolves from its container too: keep the container alive "
                    + "as long as the closure.)")
        }
        return container
    }
}
