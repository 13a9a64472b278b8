@_spi(Testing) import DependencyInjection
import Foundation

/// Turns the library's strict-mode reports into one issue per production registration resolved,
/// recorded against the test that owns the container whatever thread resolved it.
///
/// One reporter serves one test (case): the trait makes it with the test's container copy. A
/// resolve on the test's own task (or a child task) is recorded at once, where the test framework
/// attributes it to the test; one on another thread, a detached task or the main actor (the
/// library's hop) is kept, and recorded by ``recordPending()`` when the test's body returns.
final class StrictReporter: @unchecked Sendable {
    // Unchecked: `reported` and `pending` are read and written only with `lock` held.
    private let lock = NSLock()
    private var reported: Set<String> = []
    private var pending: [(message: String, resolve: StrictResolve)] = []
    /// Set when the test's body returned: what resolves after that is not recorded.
    private var ended = false
    private let allowed: Set<ObjectIdentifier>
    /// Whether its test may allow services by type (`.strict(allowing:)`); XCTest's registers them.
    private let allowsByType: Bool
    private let record: @Sendable (_ message: String, _ resolve: StrictResolve) -> Void

    /// The reporter of the test whose task this is (child tasks inherit it).
    @TaskLocal static var running: StrictReporter?

    init(
        allowing allowed: Set<ObjectIdentifier> = [], allowsByType: Bool = false,
        record: @escaping @Sendable (_ message: String, _ resolve: StrictResolve) -> Void
    ) {
        (self.allowed, self.allowsByType, self.record) = (allowed, allowsByType, record)
    }

    /// Reports `resolve` the first time its registration is resolved, unless one of its types is allowed.
    @Sendable func report(_ resolve: StrictResolve) {
        guard allowed.isDisjoint(with: resolve.types) else { return }
        let registration = resolve.typeName + (resolve.name.map { " (name: \($0.debugDescription))" } ?? "")
        let isOnTestTask = Self.running === self
        // Kept in the same hold that finds the test running: `recordPending()` cannot end it in between.
        let now = lock.withLock { () -> String? in
            guard !ended, reported.insert(registration).inserted else { return nil }
            let message = message(for: resolve, registration: registration)
            guard isOnTestTask else {
                pending.append((message, resolve))
                return nil
            }
            return message
        }
        if let now { record(now, resolve) }
    }

    /// Records what was resolved off the test's task; called in the test's context as it ends.
    func recordPending() {
        let pending = lock.withLock {
            ended = true
            return self.pending.take()
        }
        for (message, resolve) in pending { record(message, resolve) }
    }

    private func message(for resolve: StrictResolve, registration: String) -> String {
        var lines = [
            "Strict dependencies: '\(registration)' was resolved from its production registration, which this test did not override."
        ]
        if resolve.path.count > 1 { lines.append("Resolution path: \(resolve.path.joined(separator: " -> "))") }
        // An override takes the registration's arguments, or the test's resolve with them traps; a main-actor
        // mock is made in a `@MainActor` closure, the trait's being nonisolated (Testing, "Main-actor tests").
        let parameters = resolve.argumentTypes.map { "_: \($0)" }
        let closure = parameters.isEmpty ? "" : "(_, \(parameters.joined(separator: ", "))) "
        let named = resolve.name.map { ".named(\($0.debugDescription))" } ?? ""
        let mock = "<#mock#> as \(resolve.typeName)"
        let override = parameters.isEmpty ? "New(\(mock))\(named)" : "New { \(closure)in \(mock) }\(named)"
        let mainActorOverride = "New { @MainActor \(closure)in \(mock) }\(named)"
        // An async factory's mock may need `await` (an actor's async init), which only an async factory
        // compiles; a `Shared` one is what `prepare()` makes for synchronous resolves too. It takes no arguments.
        let overrides =
            resolve.isAsync
            ? "Shared { _ async in \(mock) }\(named)"
            : "\(override), or \(mainActorOverride) for a main-actor mock"
        // `(Reader & Writer).self`: a type of more than one word is parenthesized to compile.
        let type = resolve.typeName.contains(" ") ? "(\(resolve.typeName))" : resolve.typeName
        let allow =
            allowsByType
            ? "allow it: .dependencies(.strict(allowing: \(type).self))"
            : "register its production form there to allow it"
        lines.append(
            "To fix, override it in the test's dependencies (\(overrides)), or, for a harmless service (a clock, a logger), "
                + "\(allow).")
        return lines.joined(separator: "\n")
    }
}

extension Array {
    /// The elements, leaving the array empty.
    fileprivate mutating func take() -> [Element] {
        defer { self = [] }
        return self
    }
}

#if canImport(XCTest)
    import XCTest

    extension DIContainer {
        /// XCTest's strict mode: runs `operation` in an isolated copy of ``DIContainer/current`` plus
        /// `overrides`, and fails the test (`XCTFail`) once for each production registration it
        /// resolves that the overrides do not replace, naming it and its resolution path.
        ///
        ///     func testCheckout() throws {
        ///         try DIContainer.withStrictDependencies {
        ///             New(MockPayments() as Payments)
        ///             Shared(SystemClock() as Clock)      // allowed: registered by the test
        ///         } operation: {
        ///             try CheckoutScreen().pay()
        ///         }
        ///     }
        public static func withStrictDependencies<R>(
            @RegistrationBuilder _ overrides: () -> Module, file: StaticString = #filePath, line: UInt = #line,
            operation: () throws -> R
        ) rethrows -> R {
            try current.withOverrides {
            } operation: {
                let reporter = strictReporter(file: file, line: line)
                DIContainer.register(overrides())
                defer { reporter.recordPending() }
                return try StrictReporter.$running.withValue(reporter, operation: operation)
            }
        }

        /// XCTest's strict mode for an async `operation` (see ``withStrictDependencies(_:file:line:operation:)``).
        public static func withStrictDependencies<R>(
            @RegistrationBuilder _ overrides: () -> Module, file: StaticString = #filePath, line: UInt = #line,
            isolation: isolated (any Actor)? = #isolation, operation: () async throws -> R
        ) async rethrows -> R {
            try await current.withOverrides(
                {}, isolation: isolation,
                operation: {
                    let reporter = strictReporter(file: file, line: line)
                    DIContainer.register(overrides())
                    defer { reporter.recordPending() }
                    return try await StrictReporter.$running.withValue(reporter, operation: operation)
                })
        }

        /// A reporter for `DIContainer.current` that fails the test at `file:line`, the message naming
        /// the resolve's own place (XCTest takes a path, which the library does not keep).
        private static func strictReporter(file: StaticString, line: UInt) -> StrictReporter {
            let reporter = StrictReporter { message, resolve in
                let place = resolve.fileID.map { "\nResolved at \($0):\(resolve.line)." } ?? ""
                XCTFail(message + place, file: file, line: line)
            }
            DIContainer.current.reportResolvesOfCurrentRegistrations(reporter.report)
            return reporter
        }
    }
#endif
