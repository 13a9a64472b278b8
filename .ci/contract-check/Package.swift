// swift-tools-version:6.0
// A user's package: compiles the API contract's examples verbatim against DependencyInjection,
// in Swift 6 mode with warnings as errors (see .ci/steps/contract.sh).
import PackageDescription

let package = Package(
    name: "ContractCheck",
    platforms: [.macOS(.v10_15), .iOS(.v13)],
    dependencies: [.package(name: "DependencyInjection", path: "../..")],
    targets: [
        .executableTarget(
            name: "ContractCheck",
            dependencies: [.product(name: "DependencyInjection", package: "DependencyInjection")]),
        .testTarget(
            name: "ContractCheckTests",
            dependencies: [
                .product(name: "DependencyInjection", package: "DependencyInjection"),
                .product(name: "DependencyInjectionTesting", package: "DependencyInjection"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
