import DependencyInjection
import Foundation
import Testing

// `resolve` and `register` trap with exactly the message `tryResolve` and `tryRegister` throw.
// Each scenario runs in its own process (Tests/TrapScenarios); the expected message comes from
// the same setup here, built with the throwing API. Type names match the scenarios' types.

/// The scenarios' types, by the same names (so messages match).
enum TrapFixtures {
    protocol Compass: AnyObject {}
    protocol Terrain: AnyObject {}
    final class Map {
        init(terrain: Terrain) {}
    }
    final class Journey {
        init(map: Map) {}
    }
    final class Expedition {
        init(terrain: Terrain) {}
    }
    final class Ledger {
        init(audit: Audit) {}
    }
    final class Audit {
        init(ledger: Ledger) {}
    }
    final class Badge {
        init(id: String) {}
    }
    final class Engine {
        init() {}
    }
}

private typealias T = TrapFixtures

/// A scenario of Tests/TrapScenarios/main.swift and the error its setup gives without trapping.
struct TrapScenario: CustomTestStringConvertible, Sendable {
    let name: String
    let expectedError: @Sendable () -> ResolutionError?

    var testDescription: String { name }

    static let all: [TrapScenario] = [
        TrapScenario(name: "missing-registration") {
            resolutionError { try DIContainer().tryResolve(T.Compass.self) }
        },
        TrapScenario(name: "missing-registration-static") {
            resolutionError { try DIContainer().activate { try DIContainer.tryResolve(T.Compass.self) } }
        },
        TrapScenario(name: "nested-missing") {
            let box = DIContainer()
            box.register {
                Shared { resolve in try T.Journey(map: resolve.tryResolve()) }
                Shared { resolve in try T.Map(terrain: resolve.tryResolve()) }
            }
            return resolutionError { try box.tryResolve(T.Journey.self) }
        },
        TrapScenario(name: "nested-missing-wrapper") {
            // The scenario's Expedition gets its Terrain through @Inject; the path is the same.
            let box = DIContainer()
            box.register(Shared { resolve in try T.Expedition(terrain: resolve.tryResolve()) })
            return resolutionError { try box.tryResolve(T.Expedition.self) }
        },
        TrapScenario(name: "cycle") {
            let box = DIContainer()
            box.register {
                Shared { resolve in try T.Ledger(audit: resolve.tryResolve()) }
                Shared { resolve in try T.Audit(ledger: resolve.tryResolve()) }
            }
            return resolutionError { try box.tryResolve(T.Ledger.self) }
        },
        TrapScenario(name: "wrong-arguments") {
            let box = DIContainer()
            box.register(New { _, id in T.Badge(id: id) })
            return resolutionError { try box.tryResolve(T.Badge.self) { 42 } }
        },
        TrapScenario(name: "alias-mismatch") {
            resolutionError { try DIContainer().tryRegister(Shared(T.Engine(), as: T.Compass.self)) }
        },
        TrapScenario(name: "register-during-resolution") {
            let box = DIContainer()
            box.register(Shared { _ throws -> T.Engine in
                try box.tryRegister(New(T.Badge(id: "inner")))
                return T.Engine()
            })
            return resolutionError { try box.tryResolve(T.Engine.self) }
        },
    ]
}

/// What a run of the scenarios executable did.
private struct ScenarioRun {
    let crashed: Bool
    let status: Int32
    let output: String
}

/// Runs `TrapScenarios <scenario>` and collects its standard output and error.
private func runScenario(_ scenario: String) throws -> ScenarioRun {
    let process = Process()
    guard let executable = trapScenariosExecutable() else { throw ScenariosExecutableNotFound() }
    process.executableURL = executable
    process.arguments = [scenario]
    var environment = ProcessInfo.processInfo.environment
    environment["SWIFT_BACKTRACE"] = "enable=no"  // the message is enough; symbolication is slow
    process.environment = environment
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return ScenarioRun(
        crashed: process.terminationReason == .uncaughtSignal,
        status: process.terminationStatus,
        output: String(decoding: data, as: UTF8.self))
}

private struct ScenariosExecutableNotFound: Error, CustomStringConvertible {
    var description: String { "TrapScenarios was not found next to the tests; build it: swift build --build-tests" }
}

/// The scenarios executable: next to the test bundle, or in the package's build directory.
private func trapScenariosExecutable() -> URL? {
    var directories = [URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
    directories += Bundle.allBundles.map(\.bundleURL).filter { $0.pathExtension == "xctest" }
        .map { $0.deletingLastPathComponent() }
    var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    while folder.path != "/" {
        if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
            directories.append(folder.appendingPathComponent(".build/debug"))
            break
        }
        folder.deleteLastPathComponent()
    }
    return directories.map { $0.appendingPathComponent("TrapScenarios") }
        .first { FileManager.default.isExecutableFile(atPath: $0.path) }
}

@Suite struct TrapMessageTests {
    @Test(arguments: TrapScenario.all)
    func trapsWithExactlyTheThrownMessage(scenario: TrapScenario) throws {
        let expected = try #require(scenario.expectedError()).description
        let run = try runScenario(scenario.name)
        #expect(run.crashed, "exit status \(run.status); output:\n\(run.output)")
        #expect(run.output.contains("Fatal error: \(expected)\n"), "expected:\n\(expected)\noutput:\n\(run.output)")
    }

    @Test func theHarnessTellsACleanExitFromATrap() throws {
        let run = try runScenario("no-trap")
        #expect(!run.crashed)
        #expect(run.status == 0)
        #expect(run.output.contains("resolved without a trap"))
    }

    @Test func aNonThrowingFactoryTrapsWithThePathOfItsNestedFailure() throws {
        let run = try runScenario("nested-missing")
        #expect(run.output.contains("No registration for 'Terrain' (name: nil).\nResolution path: Journey -> Map -> Terrain\n"))
        let wrapped = try runScenario("nested-missing-wrapper")
        #expect(wrapped.output.contains("Resolution path: Expedition -> Terrain\n"))
    }

    @Test func anUnbreakableCycleTrapsWithItsStepsNotAStackOverflow() throws {
        let run = try runScenario("cycle")
        #expect(run.crashed)
        #expect(run.output.contains("Fatal error: Dependency cycle: Ledger -> Audit -> Ledger.\n"))
    }
}
