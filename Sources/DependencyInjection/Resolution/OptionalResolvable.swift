/// Lets resolution treat `Optional<T>` as "a `T` if one is registered, else `nil`".
protocol OptionalResolvable {
    static func resolveIfRegistered(in container: DIContainer, name: String?) throws(ResolutionError) -> Self
}

extension Optional: OptionalResolvable {
    static func resolveIfRegistered(in container: DIContainer, name: String?) throws(ResolutionError) -> Self {
        try container.resolveIfRegistered(Key(Wrapped.self, name: name), as: Wrapped.self)
    }
}
