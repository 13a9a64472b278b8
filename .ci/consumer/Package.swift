// swift-tools-version:6.0
// An app's package: production registrations through `@retroactive DependencyRegistering`,
// tested with DependencyInjectionTesting in parallel (see .ci/steps/consumer.sh).
import PackageDescription

let package = Package(
    name: "Consumer",
    platforms: [.macOS(.v10_15), .iOS(.v13)],
    dependencies: [.package(name: "DependencyInjection", path: "../..")],
    targets: [
        .target(name: "App", dependencies: [.product(name: "DependencyInjection", package: "DependencyInjection")]),
        .testTarget(
            name: "AppTests",
            dependencies: ["App", .product(name: "DependencyInjectionTesting", package: "DependencyInjection")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
