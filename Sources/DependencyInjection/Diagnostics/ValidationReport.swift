/// What ``DIContainer/validate(isolation:)-swift.type.method`` found: every registration resolved once in
/// a throwaway copy of the container.
///
///     let report = DIContainer.validate()
///     if !report.isValid { print(report) }
public struct ValidationReport: Sendable, CustomStringConvertible {
    /// A registration that could not be resolved.
    public struct Problem: Sendable, CustomStringConvertible {
        /// The registration, as `Type` or `Type (name: "…")`.
        public let registration: String
        /// Why it failed: a missing dependency or a cycle with its path, a non-conforming alias,
        /// an error a factory threw.
        public let error: ResolutionError
        /// Where the registration was registered (`fileID:line`), unless the error's message says so.
        var registeredAt: String? = nil

        public var description: String {
            let place = registeredAt.map { ["Registered at \($0)."] } ?? []
            let lines = error.description.split(separator: "\n").map(String.init) + place
            return "✗ \(registration)\n" + lines.map { "    \($0)" }.joined(separator: "\n")
        }
    }

    /// A registration that validation cannot resolve on its own.
    public struct Unchecked: Sendable, CustomStringConvertible {
        /// The registration, as `Type` or `Type (name: "…")`.
        public let registration: String
        /// Why it was not checked (it takes arguments, or it must run on the main actor).
        public let reason: String

        public var description: String { "– \(registration): not checked, \(reason)" }
    }

    /// Registrations that failed, in registration order.
    public let problems: [Problem]
    /// Registrations that were not checked, and why.
    public let unchecked: [Unchecked]
    /// Registrations that resolved.
    public let validCount: Int

    /// Whether every checked registration resolved.
    public var isValid: Bool { problems.isEmpty }

    public var description: String {
        let counts = "\(validCount) registration(s) resolved, \(unchecked.count) not checked."
        let summary =
            isValid ? "Container is valid: \(counts)" : "Container has \(problems.count) problem(s): \(counts)"
        return ([summary] + problems.map(\.description) + unchecked.map(\.description)).joined(separator: "\n")
    }
}
