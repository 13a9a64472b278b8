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

    static func run(_ scenario: String) throws -> TrapRun {
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
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        // A scenario prints a few hundred bytes, far below a pipe's buffer, so reading one pipe
        // after the other cannot stall the child.
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return TrapRun(
            scenario: scenario,
            stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self),
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

@Suite struct TrapMessageTests {
    /// Scenarios whose trap must print exactly the message the throwing API gives.
    @Test(arguments: [
        "missingRegistration",
        "missingRegistrationThroughStaticAPI",
        "missingName",
        "missingNestedDependencyInPlainFactory",
        "tryResolveThroughPlainFactoryWithMissingDependency",
        "cycleThroughPlainFactories",
        "argumentTypeMismatch",
        "argumentsMissing",
        "factoryError",
        "aliasNotConforming",
        "optionalRegistration",
        "weakValueType",
        "registerInsideFactory",
        "injectMissing",
        "lazyInjectMissing",
        "mainActorFactoryOffTheMainActor",
    ])
    func trapPrintsExactlyTheThrownMessage(scenario: String) throws {
        let run = try TrapRun.run(scenario)
        #expect(run.trapped, "\(scenario) did not trap; stdout: \(run.stdout)")
        let expected = try #require(run.expectedMessage, "\(scenario) printed no expected message: \(run.stdout)")
        let trapMessage = try #require(run.trapMessage, "\(scenario) printed no fatal error: \(run.stderr)")
        #expect(trapMessage == expected, "\(scenario)")
        #expect(!run.stdout.contains("did-not-trap"))
    }

    @Test func missingRegistrationTrapNamesTypeAndHowToFix() throws {
        let message = try #require(try TrapRun.run("missingRegistration").trapMessage)
        #expect(message.hasPrefix("No registration for 'Router'.\n"))
        #expect(message.contains("To fix, register it: container.register { Shared("))
    }

    @Test func plainFactoryTrapCarriesTheWholePath() throws {
        let message = try #require(try TrapRun.run("missingNestedDependencyInPlainFactory").trapMessage)
        #expect(message.hasPrefix("No registration for 'AppConfiguration'.\n"))
        #expect(message.contains("Resolution path: RouterImpl -> AppConfiguration\n"))
    }

    @Test func cycleTrapNamesTheCycle() throws {
        let message = try #require(try TrapRun.run("cycleThroughPlainFactories").trapMessage)
        #expect(message.hasPrefix("Dependency cycle: CycleA -> CycleB -> CycleA."))
    }

    @Test func argumentTrapNamesExpectedAndReceivedTypes() throws {
        let message = try #require(try TrapRun.run("argumentTypeMismatch").trapMessage)
        #expect(message.hasPrefix("Wrong arguments for 'ViewModel': expected (String), received (Int)."))
    }

    @Test func aliasTrapNamesBothTypes() throws {
        let message = try #require(try TrapRun.run("aliasNotConforming").trapMessage)
        #expect(message.hasPrefix("'Engine' does not conform to 'Router'"))
    }

    @Test(arguments: [("resetInsideFactory", "reset"), ("releaseInstancesInsideFactory", "releaseInstances")])
    func housekeepingInsideAFactoryTraps(scenario: String, operation: String) throws {
        let run = try TrapRun.run(scenario)
        #expect(run.trapped)
        let message = try #require(run.trapMessage, "no fatal error: \(run.stderr)")
        #expect(
            message.hasPrefix("\(operation)() was called on a container while it was resolving 'Engine'."))
    }

    @Test func resolverKeptPastItsContainerTrapsWithAMessage() throws {
        let run = try TrapRun.run("resolverUsedAfterItsContainer")
        #expect(run.trapped)
        let message = try #require(run.trapMessage, "no fatal error: \(run.stderr)")
        #expect(message.hasPrefix("DependencyInjection: a Resolver was used after its container was deallocated."))
    }

    /// Not a trap: `shared` before any container was bound to a task, which only a fresh process
    /// shows (the test process binds containers from its first test on).
    @Test func sharedBehavesTheSameBeforeAnyBinding() throws {
        let run = try TrapRun.run("sharedWithoutBindings")
        #expect(!run.trapped, "stderr: \(run.stderr)")
        #expect(run.stdout.contains("checks-passed"), "\(run.stdout)")
    }

    @Test func mainActorTrapSaysWhy() throws {
        let message = try #require(try TrapRun.run("mainActorFactoryOffTheMainActor").trapMessage)
        #expect(
            message.hasPrefix(
                "'ProfileModel' is made by a @MainActor factory and was resolved off the main actor."))
    }
}
