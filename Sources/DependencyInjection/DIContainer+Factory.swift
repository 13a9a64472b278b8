extension DIContainer {
    /// A closure that resolves `T` with its arguments from ``current`` (assisted injection).
    ///
    ///     let makeDetail = DIContainer.factory(DetailViewModel.self, arguments: String.self)
    ///     let detail = makeDetail("42")   // resolve(DetailViewModel.self) { "42" }
    ///
    /// The closure resolves from the container that was current when it was made, whenever it is
    /// called. It does not keep that container alive; called after the container is gone, it traps
    /// with a message saying so. Arguments of other types than the registration's are the usual
    /// ``ResolutionError``, when it is called.
    public static func factory<T, each Argument>(
        _ type: T.Type = T.self, name: String? = nil, arguments: repeat (each Argument).Type,
        file: StaticString = #fileID, line: UInt = #line
    ) -> @Sendable (repeat each Argument) -> T {
        current.factory(type, name: name, arguments: repeat each arguments, file: file, line: line)
    }

    /// A closure that resolves `T` with its arguments from this container (see
    /// ``factory(_:name:arguments:file:line:)-swift.type.method``). It keeps a reference that does not keep
    /// the container alive, as a ``Resolver`` does.
    public func factory<T, each Argument>(
        _ type: T.Type = T.self, name: String? = nil, arguments: repeat (each Argument).Type,
        file: StaticString = #fileID, line: UInt = #line
    ) -> @Sendable (repeat each Argument) -> T {
        { [reference] (argument: repeat each Argument) in
            Self.resolvedOrFail(
                T.self, name: name, Arguments { (repeat each argument) }, from: reference, file: file, line: line)
        }
    }
}
