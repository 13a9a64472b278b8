@_spi(Testing) import DependencyInjection
import Foundation

/// Turns the library's strict-mode reports into one message per production registration resolved.
final class StrictReporter: @unchecked Sendable {
    // Unchecked: `reported` is read and written only with `lock` held.
    private let lock = NSLock()
    private var reported: Set<String> = []
    private let record: @Sendable (String) -> Void

    init(record: @escaping @Sendable (String) -> Void) { self.record = record }

    /// Reports `registration` the first time it is resolved.
    @Sendable func report(_ registration: String, path: [String]) {
        guard lock.withLock({ reported.insert(registration).inserted }) else { return }
        var lines = [
            "Strict dependencies: '\(registration)' was resolved from its production registration, which this test did not override."
        ]
        if path.count > 1 { lines.append("Resolution path: \(path.joined(separator: " -> "))") }
        lines.append(
            "To fix, override it in the test's dependencies (New(<#mock#> as \(registration))), or, for a harmless "
                + "service (a clock, a logger), register its production form there to allow it.")
        record(lines.joined(separator: "\n"))
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
                let reporter = StrictReporter { XCTFail($0, file: file, line: line) }
                DIContainer.current.reportResolvesOfCurrentRegistrations(reporter.report)
                DIContainer.register(overrides())
                return try operation()
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
                    let reporter = StrictReporter { XCTFail($0, file: file, line: line) }
                    DIContainer.current.reportResolvesOfCurrentRegistrations(reporter.report)
                    DIContainer.register(overrides())
                    return try await operation()
                })
        }
    }
#endif
