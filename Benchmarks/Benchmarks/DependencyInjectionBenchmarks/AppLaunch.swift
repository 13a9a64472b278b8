import AppLaunchServices
import Benchmark
import Foundation
import MallocInterposerSwift

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// App launch in a fresh process: each iteration of an app-launch benchmark starts this same
/// executable again with `DI_BENCHMARKS_APP_LAUNCH=<implementation>` in its environment. That
/// child runs no benchmark: the first thing it does is `AppLaunch.runIfChild()`, which wires the
/// 500 services of the `AppLaunchServices` library, resolves each once, prints the nanoseconds and the malloc
/// calls that took, and exits. Nothing of any container, nor any metadata of its generic types,
/// exists in the child before that, as at an app's launch.
enum AppLaunch {
    static let environmentKey = "DI_BENCHMARKS_APP_LAUNCH"

    /// What the child measured.
    struct Result {
        var nanoseconds: Int
        var mallocs: Int
    }

    /// In a child started by `launch(_:)`: runs the launch, prints the result and exits.
    static func runIfChild() {
        guard let value = getenv(environmentKey) else { return }
        guard let implementation = Implementation(rawValue: String(cString: value)) else {
            fatalError("\(environmentKey): unknown implementation \(String(cString: value))")
        }
        MallocInterposerSwift.initialize()
        MallocInterposerSwift.hook()
        let start = DispatchTime.now().uptimeNanoseconds
        let kept = launchApp(implementation)
        let end = DispatchTime.now().uptimeNanoseconds
        MallocInterposerSwift.unhook()
        let mallocs = MallocInterposerSwift.getStatistics().mallocCount
        blackHole(kept)
        print("\(end - start) \(mallocs)")
        fflush(nil)
        exit(0)
    }

    /// Wires the app and resolves every service once; returns what must stay alive until the
    /// clock is read.
    private static func launchApp(_ implementation: Implementation) -> AnyObject? {
        switch implementation {
        case .floor: AppLaunchServices.handWritten()
        case .dependencyInjection: AppLaunchServices.dependencyInjection()
        case .swinject: AppLaunchServices.swinject()
        case .swiftDependencies: AppLaunchServices.swiftDependencies()
        }
    }

    /// This executable's path, to start it again.
    private static var executablePath: String {
        #if os(Linux)
            return (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? "/proc/self/exe"
        #else
            return Bundle.main.executablePath!
        #endif
    }

    /// Starts a child for `implementation` and returns what it measured.
    static func launch(_ implementation: Implementation) -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executablePath)
        process.arguments = []
        var environment = ProcessInfo.processInfo.environment
        environment[environmentKey] = implementation.rawValue
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        do {
            try process.run()
        } catch {
            fatalError("could not start \(executablePath): \(error)")
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        let fields = text.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard process.terminationStatus == 0, fields.count == 2 else {
            fatalError("app-launch child for \(implementation.rawValue) failed: \(text)")
        }
        return Result(nanoseconds: fields[0], mallocs: fields[1])
    }
}
