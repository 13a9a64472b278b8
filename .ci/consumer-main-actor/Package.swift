// swift-tools-version:6.2
// An app's package built with default MainActor isolation (Swift 6.2's `.defaultIsolation`): every
// class in it is @MainActor. It registers such types in every registration form and checks that
// they are made on the main actor only (see .ci/steps/consumer-main-actor.sh). `NonisolatedChecks`
// is the other way round: a module without default isolation whose services resolve anywhere.
import PackageDescription

let mainActorByDefault: [SwiftSetting] = [.defaultIsolation(MainActor.self)]
// KNOWN_ISSUE_REPROS=1 compiles, in the test target, contract lines that do not compile under
// default MainActor isolation today (the step script expects that build to fail, and says so).
let knownIssueRepros: [SwiftSetting] =
    Context.environment["KNOWN_ISSUE_REPROS"] == "1" ? [.define("KNOWN_ISSUE_REPROS")] : []
let library = Target.Dependency.product(name: "DependencyInjection", package: "DependencyInjection")
let testing = Target.Dependency.product(name: "DependencyInjectionTesting", package: "DependencyInjection")

let package = Package(
    name: "ConsumerMainActor",
    platforms: [.macOS(.v10_15), .iOS(.v13)],
    dependencies: [.package(name: "DependencyInjection", path: "../..")],
    targets: [
        .target(name: "CheckSupport", dependencies: [library], swiftSettings: mainActorByDefault),
        .target(name: "MainActorApp", dependencies: ["CheckSupport", library], swiftSettings: mainActorByDefault),
        .executableTarget(
            name: "MainActorChecks", dependencies: ["CheckSupport", "MainActorApp", library],
            swiftSettings: mainActorByDefault),
        .executableTarget(
            name: "IsolatedBootstrap", dependencies: ["CheckSupport", library], swiftSettings: mainActorByDefault),
        .executableTarget(name: "NonisolatedChecks", dependencies: ["CheckSupport", library]),
        // A small shop app with one wiring mistake of each kind: `await validate()` must report them all.
        .executableTarget(name: "ShopValidation", dependencies: [library], swiftSettings: mainActorByDefault),
        .testTarget(
            name: "MainActorAppTests", dependencies: ["CheckSupport", "MainActorApp", library, testing],
            swiftSettings: mainActorByDefault + knownIssueRepros),
    ],
    swiftLanguageModes: [.v6]
)
