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
    /// The `Shared` services `prepare()` makes first that a synchronous factory needed (made by
    /// `async`, or the actor's name).
    var madeFirst: [(registration: String, madeBy: String)] = []

    /// Whether every checked registration resolved.
    public var isValid: Bool { problems.isEmpty }

    public var description: String {
        let counts = "\(validCount) registration(s) resolved, \(unchecked.count) not checked."
        let summary =
            isValid ? "Container is valid: \(counts)" : "Container has \(problems.count) problem(s): \(counts)"
        return ([summary] + prepareNote + problems.map(\.description) + unchecked.map(\.description))
            .joined(separator: "\n")
    }

    /// Says that the report holds as the app runs after `prepare()`, when that is why a service resolved.
    private var prepareNote: [String] {
        guard !madeFirst.isEmpty else { return [] }
        let made = madeFirst.map { "'\($0.registration)' (\($0.madeBy))" }.joined(separator: ", ")
        let offMain =
            madeFirst.contains { $0.madeBy == "MainActor" } ? " (off the main actor, for a main-actor one)" : ""
        return [
            "Checked as after `prepare()`, which makes \(made) first: before it, a synchronous resolve of what needs"
                + " them fails\(offMain)."
        ]
    }
}
