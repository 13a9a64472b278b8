#!/usr/bin/env bash
# Builds a separate package that depends on both products (with warnings as errors) and runs
# its tests three times: contract §3 verbatim, parallel overrides, production without the trait.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cp -R .ci/consumer "$work/Consumer"
# A path dependency's identity is its directory name, which depends on where this was cloned.
identity=$(basename "$root")
cat >"$work/Consumer/Package.swift" <<MANIFEST
// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Consumer",
    platforms: [.macOS(.v10_15), .iOS(.v13)],
    dependencies: [.package(path: "$root")],
    targets: [
        .target(name: "App", dependencies: [.product(name: "DependencyInjection", package: "$identity")]),
        .testTarget(
            name: "AppTests",
            dependencies: ["App", .product(name: "DependencyInjectionTesting", package: "$identity")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
MANIFEST

cd "$work/Consumer"
echo "+ swift build --build-tests -Xswiftc -warnings-as-errors  (in a separate package)"
swift build --build-tests -Xswiftc -warnings-as-errors
for run in 1 2 3; do
    echo "+ swift test --skip-build  (run $run)"
    if ! swift test --skip-build >"$work/test.log" 2>&1; then
        grep -E '✘|error|fatal' "$work/test.log" | head -20 || true
        echo "consumer: run $run FAILED"
        exit 1
    fi
    grep -E 'Test run with' "$work/test.log"
done
echo "consumer: separate package built and passed 3 runs"
