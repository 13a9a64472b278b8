/// What a factory receives to resolve its own dependencies from the container that runs it.
///
///     Shared { resolve in RouterImpl(config: resolve()) }
///     Shared { resolve in try ConfiguredRouter(config: resolve.tryResolve()) }
///     New { resolve, id in DetailModel(id: id, store: resolve(name: "primary")) }
///
/// Use it only while the factory (or `onResolve`) runs; it does not keep the container alive.
public struct Resolver: Sendable {
    // Unowned: a factory's product that stored the resolver would otherwise keep its own
    // container alive through the instance the container keeps.
    unowned let container: DIContainer

    init(_ container: DIContainer) {
        self.container = container
    }

    /// Resolves a `T` (inferred from context); traps with the ``ResolutionError`` message on failure.
    public func callAsFunction<T>(_ type: T.Type = T.self, name: String? = nil) -> T {
        container.resolve(type, name: name)
    }

    /// Resolves a `T` made with arguments; traps on failure.
    public func callAsFunction<T, each Argument>(
        _ type: T.Type = T.self, name: String? = nil, arguments: () -> (repeat each Argument)
    ) -> T {
        container.resolve(type, name: name, arguments: arguments)
    }

    /// Resolves a `T`, throwing a ``ResolutionError`` that carries the whole resolution path.
    ///
    /// In a throwing factory, `try resolve.tryResolve()` passes a missing dependency or a cycle
    /// up to the caller's `tryResolve` instead of trapping.
    public func tryResolve<T>(_ type: T.Type = T.self, name: String? = nil) throws -> T {
        try container.tryResolve(type, name: name)
    }

    /// Resolves a `T` made with arguments, throwing instead of trapping.
    public func tryResolve<T, each Argument>(
        _ type: T.Type = T.self, name: String? = nil, arguments: () -> (repeat each Argument)
    ) throws -> T {
        try container.tryResolve(type, name: name, arguments: arguments)
    }
}
