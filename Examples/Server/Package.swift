// swift-tools-version:6.1
import PackageDescription

// A JSON service on Hummingbird 2 whose request handlers get their services from DependencyInjection,
// with a request scope per request. Tools 6.1: Hummingbird's optional traits (swift-configuration,
// full Foundation) are turned off, so a release build compiles less.
let package = Package(
    name: "Server",
    // Synchronization's Atomic (the process-wide counters) needs macOS 15.
    platforms: [.macOS(.v15)],
    dependencies: [
        // Named: a path dependency is otherwise known by its directory's name (the clone's).
        .package(name: "DependencyInjection", path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.0", traits: []),
        // Already in Hummingbird's graph; named here because the server uses them directly.
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
    ],
    targets: [
        .executableTarget(
            name: "Server",
            dependencies: [
                .product(name: "DependencyInjection", package: "DependencyInjection"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
