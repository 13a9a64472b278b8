// swift-tools-version:6.0
import PackageDescription

// Benchmarks live in their own package so the library itself stays free of dependencies.
// Run: swift run -c release --package-path Benchmarks [--quick]
let package = Package(
    name: "Benchmarks",
    platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6)],
    products: [
        .executable(name: "Benchmarks", targets: ["Benchmarks"])
    ],
    dependencies: [
        .package(name: "DependencyInjection", path: ".."),
        .package(url: "https://github.com/Swinject/Swinject", exact: "2.10.0"),
        .package(url: "https://github.com/pointfreeco/swift-dependencies", exact: "1.17.1"),
    ],
    targets: [
        .executableTarget(
            name: "Benchmarks",
            dependencies: [
                .product(name: "DependencyInjection", package: "DependencyInjection"),
                .product(name: "Swinject", package: "Swinject"),
                .product(name: "Dependencies", package: "swift-dependencies"),
                "MallocStatistics",
            ]
        ),
        // Reads the allocator's statistics (mallinfo2 on glibc), which Swift's Glibc module omits.
        .target(name: "MallocStatistics"),
    ],
    swiftLanguageModes: [.v6]
)
