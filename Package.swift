// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "DependencyInjection",
    // Task-locals and the main actor need the Swift 5.1 concurrency runtime (back-deployed).
    // Nothing here needs Synchronization.Mutex or variadic generic types, so the minimums stay low.
    platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6), .macCatalyst(.v13)],
    products: [
        .library(name: "DependencyInjection", targets: ["DependencyInjection"]),
        .library(name: "DependencyInjectionTesting", targets: ["DependencyInjectionTesting"]),
        .executable(name: "Example", targets: ["Example"]),
    ],
    targets: [
        .target(name: "DependencyInjection"),
        .target(name: "DependencyInjectionTesting", dependencies: ["DependencyInjection"]),
        .executableTarget(name: "Example", dependencies: ["DependencyInjection"]),
        // Scenarios that must end the process (traps); the tests run it and read what it printed.
        .executableTarget(name: "TrapScenarios", dependencies: ["DependencyInjection"], path: "Tests/TrapScenarios"),
        .testTarget(
            name: "DependencyInjectionTests",
            dependencies: ["DependencyInjection", "DependencyInjectionTesting", "TrapScenarios"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
