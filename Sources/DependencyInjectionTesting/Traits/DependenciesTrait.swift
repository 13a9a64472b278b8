@_spi(Testing) import DependencyInjection
import Testing

/// A Swift Testing trait that runs each test case in its own isolated container.
///
/// Use it through `.dependencies` and `.dependencies { … }`:
///
///     @Suite(.dependencies)                     // every test gets a fresh isolated container
///     struct CheckoutTests {
///         @Test(.dependencies { New(MockPayments() as Payments) })
///         func paysWithMock() { ... }           // overrides for this test only
///     }
///
/// Every test case (each argument of a parameterized test, too) runs inside
/// `DIContainer.withOverrides`: an isolated copy of `DIContainer.current` (its registrations,
/// including the production ones `registerDependencies()` makes, with fresh instances) plus
/// the trait's overrides, bound to the test's task. Static calls such as `DIContainer.resolve`,
/// the property wrappers, and what the test registers all use that copy, so tests running in
/// parallel never see each other's registrations or instances.
///
/// On a suite the trait applies to every test case of the suite and of its nested suites
/// (never once for the whole suite, so tests share no instances). When a suite and a test
/// both carry it, the suite's scope encloses the test's: the test's container is a copy of
/// the suite's, so the suite's overrides apply and the test's overrides win where both
/// register the same type.
///
/// The overrides closure is evaluated again for every test case, so each case gets instances
/// of its own. A registration error in it (for example an alias the instance does not
/// conform to) is recorded as a test failure instead of ending the test process.
public struct DependenciesTrait: TestTrait, SuiteTrait, TestScoping {
    /// How a test's container treats the production registrations it did not override.
    public struct Mode: Sendable {
        /// The production services the test may use, by type.
        let allowed: Set<ObjectIdentifier>

        /// Resolving a production registration the test did not override records an issue that
        /// names it and its resolution path; the test goes on with the production service.
        public static let strict = Mode(allowed: [])

        /// Strict, except for the production services of `types` (a logger, a clock): resolving
        /// a registration of one of them, by any name or alias, is not reported.
        ///
        ///     @Test(.dependencies(.strict(allowing: Logger.self, Clock.self)) { New(MockPayments() as Payments) })
        public static func strict(allowing types: any Any.Type...) -> Mode {
            Mode(allowed: Set(types.map(ObjectIdentifier.init)))
        }
    }

    /// The container each test case gets a copy of; `nil`: ``DIContainer/current``.
    private let source: DIContainer?
    private let overrides: @Sendable () -> Module
    /// `nil`: not strict.
    private let strict: Mode?

    init(source: DIContainer? = nil, strict: Mode? = nil, overrides: @escaping @Sendable () -> Module) {
        self.source = source
        self.strict = strict
        self.overrides = overrides
    }

    /// Always `true`: on a suite, the trait applies to every test in it and in nested suites.
    public var isRecursive: Bool { true }

    /// Scopes test cases only: a suite gets no container of its own, and a parameterized test
    /// gets one container per argument, not one for all of them.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    /// The overrides of the traits whose scopes enclose the running one, outermost first.
    @TaskLocal private static var enclosingOverrides: [@Sendable () -> Module] = []

    /// The strict mode of the innermost enclosing trait that has one: a test on a container of its
    /// own (`on:`) inside a strict suite is strict too.
    @TaskLocal private static var enclosingStrict: Mode?

    /// Runs one test case with an isolated copy of the current container plus the overrides.
    ///
    /// With a container of its own (`on:`), the copy is of that container, and the overrides of
    /// the enclosing suites' traits are registered in it first, as they would be in a copy of the
    /// suite's container: the suite's overrides apply, the test's win. A strict trait registers
    /// them again too, after production is marked: a suite's overrides are never production.
    ///
    /// A strict trait's issues are recorded against `test` at the resolve's place: at once when the
    /// test's task resolved, otherwise (another thread, a detached task, the main actor) once
    /// `function` returns.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let enclosing = Self.enclosingOverrides
        // A copy of the current container keeps its strict mode; a copy of another one takes it here.
        let mode = strict ?? Self.enclosingStrict
        try await (source ?? DIContainer.current).withOverrides {
        } operation: {
            let reporter = (strict ?? (source != nil ? mode : nil)).map { Self.reporter(for: test, $0) }
            if let reporter { DIContainer.current.reportResolvesOfCurrentRegistrations(reporter.report) }
            // Registering inside the copy (rather than as withOverrides' overrides, which trap on
            // error) turns a bad override into a thrown error: a failed test, not a crashed run.
            if source != nil || reporter != nil { for outer in enclosing { try DIContainer.tryRegister(outer()) } }
            try DIContainer.tryRegister(overrides())
            defer { reporter?.recordPending() }
            try await StrictReporter.$running.withValue(reporter ?? StrictReporter.running) {
                try await Self.$enclosingStrict.withValue(mode) {
                    try await Self.$enclosingOverrides.withValue(enclosing + [overrides], operation: function)
                }
            }
        }
    }

    /// Records each issue at the resolve's `#fileID` and line, or at the test when it has none.
    private static func reporter(for test: Test, _ mode: Mode) -> StrictReporter {
        StrictReporter(allowing: mode.allowed, allowsByType: true) { message, resolve in
            var location = test.sourceLocation
            if let fileID = resolve.fileID, resolve.line > 0 {
                // A path is known only for the test's own file; elsewhere the file's ID stands in.
                let filePath = fileID == location.fileID ? location.filePath : fileID
                location = SourceLocation(fileID: fileID, filePath: filePath, line: resolve.line, column: 1)
            }
            Issue.record(Comment(rawValue: message), sourceLocation: location)
        }
    }
}

extension Trait where Self == DependenciesTrait {
    /// Runs each test case in a fresh isolated container.
    ///
    ///     @Suite(.dependencies)
    ///     struct CheckoutTests { ... }
    ///
    /// The container is a copy of `DIContainer.current` (usually
    /// `DIContainer.shared`): it has the production registrations, none
    /// of the instances, and whatever the test registers stays in it.
    public static var dependencies: Self {
        DependenciesTrait { Module {} }
    }

    /// Runs each test case in a fresh isolated container with `overrides` registered on top.
    ///
    ///     @Test(.dependencies { New(MockPayments() as Payments) })
    ///     func paysWithMock() { ... }
    ///
    /// `overrides` is evaluated for every test case. A `Shared` service that depends on an
    /// overridden type is made with the override, a parent container's too (its copy serves the
    /// override in place of its own registration of that type). Inside a suite that
    /// also has the trait, these overrides are registered on top of the suite's.
    public static func dependencies(
        @RegistrationBuilder _ overrides: @escaping @Sendable () -> Module
    ) -> Self {
        DependenciesTrait(overrides: overrides)
    }

    /// Runs each test case with an isolated copy of `container` (its registrations, fresh
    /// instances) bound as `DIContainer.current`.
    ///
    ///     let box = DIContainer()
    ///     @Test(.dependencies(on: box))
    ///     func usesBox() { … }
    public static func dependencies(on container: DIContainer) -> Self {
        DependenciesTrait(source: container) { Module {} }
    }

    /// Runs each test case with an isolated copy of `container` plus `overrides`, bound as
    /// `DIContainer.current`.
    ///
    ///     @Test(.dependencies(on: box) { New(MockPayments() as Payments) })
    ///     func paysWithMock() { … }
    public static func dependencies(
        on container: DIContainer, @RegistrationBuilder _ overrides: @escaping @Sendable () -> Module
    ) -> Self {
        DependenciesTrait(source: container, overrides: overrides)
    }
}

extension Trait where Self == DependenciesTrait {
    /// Runs each test case in a fresh isolated container in which resolving a production
    /// registration (one the container had before the test) records an issue naming it and its
    /// resolution path, at the resolve; the test goes on with the production service.
    ///
    ///     @Test(.dependencies(.strict))
    ///     func touchesNothingLive() { ... }
    ///
    /// To allow harmless services (a clock, a logger), name their types: every name and alias of
    /// them is allowed, `.dependencies(.strict(allowing: Logger.self, Clock.self))`. What the test
    /// registers is never reported, nor are the overrides of its suites. On a suite, every test in
    /// it is strict, and a test's own trait adds its overrides.
    public static func dependencies(_ mode: DependenciesTrait.Mode) -> Self {
        DependenciesTrait(strict: mode) { Module {} }
    }

    /// A strict test (see ``dependencies(_:)``) with `overrides` registered on top.
    ///
    ///     @Test(.dependencies(.strict) { New(MockPayments() as Payments) })
    ///     func paysWithMock() { ... }
    public static func dependencies(
        _ mode: DependenciesTrait.Mode, @RegistrationBuilder _ overrides: @escaping @Sendable () -> Module
    ) -> Self {
        DependenciesTrait(strict: mode, overrides: overrides)
    }

    /// A strict test with an isolated copy of `container` bound as `DIContainer.current`.
    public static func dependencies(_ mode: DependenciesTrait.Mode, on container: DIContainer) -> Self {
        DependenciesTrait(source: container, strict: mode) { Module {} }
    }

    /// A strict test with an isolated copy of `container` plus `overrides`.
    ///
    ///     @Test(.dependencies(.strict(allowing: Logger.self), on: box) { New(MockPayments() as Payments) })
    ///     func paysWithMockToo() { ... }
    public static func dependencies(
        _ mode: DependenciesTrait.Mode, on container: DIContainer,
        @RegistrationBuilder _ overrides: @escaping @Sendable () -> Module
    ) -> Self {
        DependenciesTrait(source: container, strict: mode, overrides: overrides)
    }
}
