import Foundation
import Testing

// What `resolve` and `register` print when they trap. Each case runs one scenario of the
// `TrapScenarios` executable in its own process and reads its output (see its main.swift).

/// The output of one scenario run.
struct TrapRun {
    let scenario: String
    let stdout: String
    let stderr: String
    let trapped: Bool

    /// The message the non-trapping twin of the call gave, if the scenario printed one.
    var expectedMessage: String? {
        let lines = stdout.components(separatedBy: "\n")
        guard let begin = lines.firstIndex(of: "expected-begin"),
            let end = lines.firstIndex(of: "expected-end"), begin < end
        else { return nil }
        return lines[(begin + 1)..<end].joined(separator: "\n")
    }

    /// What follows `Fatal error: ` on stderr, up to the stack trace the runtime prints after it.
    var trapMessage: String? {
        guard let start = stderr.range(of: "Fatal error: ") else { return nil }
        var message = stderr[start.upperBound...]
        if let trace = message.range(of: "\nCurrent stack trace:") { message = message[..<trace.lowerBound] }
        while message.last?.isNewline == true { message = message.dropLast() }
        return String(message)
    }

    /// Runs `scenario`; past `timeout` seconds (a hang), the process is terminated and counts as trapped.
    /// The caller is suspended, not blocked, while the child runs: a test waiting for a slow child
    /// (under a sanitizer, a child can take a minute) must not hold one of the few threads of the
    /// cooperative pool that every other test's main-actor and async work needs.
    static func run(_ scenario: String, timeout: Double = 60) async throws -> TrapRun {
        let executable = try #require(
            TrapRun.executableURL,
            "TrapScenarios was not built next to the test bundle; run `swift build --build-tests`.")
        let process = Process()
        process.executableURL = executable
        process.arguments = [scenario]
        var environment = ProcessInfo.processInfo.environment
        // The runtime's crash backtracer takes seconds per crash and adds nothing here.
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        // Output goes to files, not pipes: reading a pipe while other tests' children exit can fail
        // with EINTR (SIGCHLD), which Foundation's readDataToEndOfFile turns into a crash.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("TrapRun-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (outURL, errURL) = (directory.appendingPathComponent("out"), directory.appendingPathComponent("err"))
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let (stdout, stderr) = (try FileHandle(forWritingTo: outURL), try FileHandle(forWritingTo: errURL))
        defer {
            try? stdout.close()
            try? stderr.close()
        }
        process.standardOutput = stdout
        process.standardError = stderr
        let exited = AsyncStream<Void> { continuation in
            process.terminationHandler = { _ in continuation.finish() }
        }
        try process.run()
        // Weakly: the timer outlives a child that ends in time, and must not keep its `Process`.
        // SIGKILL, not `terminate()`'s SIGTERM: a child may inherit SIGTERM blocked, and a hang with
        // no thread that accepts it would outlive the test.
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [weak process] in
            if let process, process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        for await _ in exited {}
        return TrapRun(
            scenario: scenario,
            stdout: readTextFile(outURL.path), stderr: readTextFile(errURL.path),
            trapped: process.terminationReason == .uncaughtSignal)
    }

    /// `TrapScenarios`, built into the same products directory as the test bundle.
    static let executableURL: URL? = {
        var directories: [URL] = []
        #if os(macOS)
            for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
                directories.append(bundle.bundleURL.deletingLastPathComponent())
            }
        #endif
        if let executable = Bundle.main.executableURL {
            directories.append(executable.deletingLastPathComponent())
        }
        directories.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        return directories.lazy
            .map { $0.appendingPathComponent("TrapScenarios") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()
}

/// A scenario whose trap must print exactly the message the throwing API gives, and what that
/// message must say on its own, so that the same wrong message on both sides still fails.
struct TrapScenario: Sendable, CustomTestStringConvertible {
    let name: String
    var prefix: String?
    var contains: [String] = []

    init(_ name: String, prefix: String? = nil, contains: [String] = []) {
        self.name = name
        self.prefix = prefix
        self.contains = contains
    }

    var testDescription: String { name }
}

@Suite(.timeLimit(.minutes(1))) struct TrapMessageTests {
    static let scenarios: [TrapScenario] = [
        TrapScenario(
            "missingRegistration", prefix: "No registration for 'Router'.\n",
            contains: ["To fix, register it: container.register { Shared("]),
        TrapScenario("missingRegistrationThroughStaticAPI"),
        TrapScenario("missingName"),
        TrapScenario(
            "missingNestedDependencyInPlainFactory", prefix: "No registration for 'AppConfiguration'.\n",
            contains: ["Resolution path: RouterImpl -> AppConfiguration\n"]),
        TrapScenario("tryResolveThroughPlainFactoryWithMissingDependency"),
        TrapScenario("cycleThroughPlainFactories", prefix: "Dependency cycle: CycleA -> CycleB -> CycleA."),
        TrapScenario(
            "argumentTypeMismatch",
            prefix: "Wrong arguments for 'ViewModel': expected (String), received (Int)."),
        TrapScenario("argumentsMissing"),
        TrapScenario("factoryError"),
        TrapScenario("aliasNotConforming", prefix: "'Engine' does not conform to 'Router'"),
        TrapScenario("optionalRegistration"),
        TrapScenario("weakValueType"),
        TrapScenario("registerInsideFactory"),
        TrapScenario("injectMissing"),
        TrapScenario("lazyInjectMissing"),
        TrapScenario(
            "resolveAllOfANonSendableMainActorServiceOffTheMainActor",
            prefix:
                "'ScreenState' is not Sendable and is made by a @MainActor factory; it was resolved off the main actor."
        ),
        TrapScenario(
            "mainActorFactoryOffTheMainActor",
            prefix:
                "'ScreenState' is not Sendable and is made by a @MainActor factory; it was resolved off the main actor."
        ),
    ]

    @Test(arguments: scenarios)
    func trapPrintsExactlyTheThrownMessage(scenario: TrapScenario) async throws {
        let run = try await TrapRun.run(scenario.name)
        #expect(run.trapped, "\(scenario.name) did not trap; stdout: \(run.stdout)")
        let expected = try #require(run.expectedMessage, "\(scenario.name) printed no expected message: \(run.stdout)")
        let trapMessage = try #require(run.trapMessage, "\(scenario.name) printed no fatal error: \(run.stderr)")
        #expect(trapMessage == expected, "\(scenario.name)")
        #expect(!run.stdout.contains("did-not-trap"))
        if let prefix = scenario.prefix {
            #expect(trapMessage.hasPrefix(prefix))
        }
        for part in scenario.contains {
            #expect(trapMessage.contains(part))
        }
    }

    /// A trap names the line that asked, not the library's: the `resolve`, `register` or nested
    /// `resolve()` call, or a property wrapper's declaration.
    @Test(arguments: [
        ("missingRegistration", "_ = box.resolve(Router.self)"),
        ("aliasNotConforming", "box.register(registration)"),
        ("missingNestedDependencyInPlainFactory", "RouterImpl(config: resolve())"),
        ("injectMissing", "@Inject var router: Router"),
        ("lazyInjectMissing", "@LazyInject var router: Router"),
    ])
    func trapNamesTheCallersFileAndLine(scenario: String, code: String) async throws {
        let run = try await TrapRun.run(scenario)
        let location = try #require(
            run.stderr.components(separatedBy: ": Fatal error: ").first?.split(separator: "\n").last)
        #expect(location.hasPrefix("TrapScenarios/main.swift:"), "\(run.stderr)")
        let source = readTextFile(
            URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../../TrapScenarios/main.swift").path)
        let line = try #require(Int(location.split(separator: ":").last ?? ""))
        let lines = source.components(separatedBy: "\n")
        try #require((1...lines.count).contains(line), "TrapScenarios/main.swift was not read, or is shorter")
        #expect(lines[line - 1].contains(code), "\(location)")
    }

    /// Traps that have no throwing twin: misuse that only a trap can report.
    @Test(arguments: [
        ("resetInsideFactory", "reset() was called on a container while it was resolving 'Engine'."),
        (
            "releaseInstancesInsideFactory",
            "releaseInstances() was called on a container while it was resolving 'Engine'."
        ),
        (
            "validateInsideFactory",
            "DependencyInjection: validate() was called inside a factory; call it before or after resolving."
        ),
        (
            "validateInRegisterDependenciesReachedInAFactory",
            "DependencyInjection: validate() was called inside a factory; call it before or after resolving."
        ),
        (
            "resolverUsedAfterItsContainer",
            "DependencyInjection: a Resolver was used after its container was deallocated."
        ),
    ])
    func misuseTrapsWithAMessage(scenario: String, prefix: String) async throws {
        let run = try await TrapRun.run(scenario)
        #expect(run.trapped)
        let message = try #require(run.trapMessage, "no fatal error: \(run.stderr)")
        #expect(message.hasPrefix(prefix))
    }

    /// A cycle through `@Inject` properties traps with the fix `validate()` gives for it (make one side
    /// lazy), not with an `onResolve` action, which a property wrapper's owner cannot use.
    @Test func aCycleThroughInjectPropertiesTrapsWithTheLazyInjectFix() async throws {
        let run = try await TrapRun.run("injectCycle")
        #expect(run.trapped)
        let message = try #require(run.trapMessage, "no fatal error: \(run.stderr)")
        #expect(message.hasPrefix("Dependency cycle: WrapperCycleA -> WrapperCycleB -> WrapperCycleA."), "\(message)")
        #expect(message.contains("To fix, break the cycle: declare one side's property @LazyInject"), "\(message)")
    }

    /// Not a trap: `shared` before any container was bound to a task, which only a fresh process
    /// shows (the test process binds containers from its first test on).
    @Test func sharedBehavesTheSameBeforeAnyBinding() async throws {
        let run = try await TrapRun.run("sharedWithoutBindings")
        #expect(!run.trapped, "stderr: \(run.stderr)")
        #expect(run.stdout.contains("checks-passed"), "\(run.stdout)")
    }
}

@Suite(.timeLimit(.minutes(1))) struct SlowFactoryWarningTests {
    @Test func aSlowSynchronousFactoryIsReportedOnceByItsOwnTime() async throws {
        let run = try await TrapRun.run("slowFactoryIsReportedOnce", timeout: 30)
        #expect(!run.trapped, "\(run.stderr)")
        let warnings = run.stderr.components(separatedBy: "\n").filter { $0.contains("warning: the factory of") }
        #if DEBUG
            #expect(warnings.count == 1, "\(run.stderr)")
            #expect(
                warnings.first?.contains("'Engine' (New, on MainActor, TrapScenarios/main.swift:") == true,
                "\(warnings)")
            #expect(warnings.first?.contains("prepare()") == true)
        #else
            // Release builds leave the timing out (see `SlowFactory`): nothing is reported.
            #expect(warnings.isEmpty, "\(run.stderr)")
        #endif
    }

    @Test func aSlowEagerFactoryAFastFactoryRegistersIsNotTheFastOnesTime() async throws {
        let run = try await TrapRun.run("slowEagerFactoryRegisteredInsideAFastOne", timeout: 30)
        #expect(!run.trapped, "\(run.stderr)")
        let warnings = run.stderr.components(separatedBy: "\n").filter { $0.contains("warning: the factory of") }
        #if DEBUG
            #expect(warnings.count == 1, "\(warnings)")
            #expect(warnings.first?.contains("'Engine' (Shared") == true, "\(warnings)")
        #else
            #expect(warnings.isEmpty, "\(run.stderr)")
        #endif
    }
}
