extension DIContainer {
    /// Placeholder until diagnostics land.
    public static func validate() -> ValidationReport { current.validate() }
    public func validate() -> ValidationReport { ValidationReport() }
    public var registrations: [RegistrationInfo] { [] }
    public func dependencyGraph() -> String { "digraph {}" }
}
public struct ValidationReport { public var isValid: Bool { true } }
