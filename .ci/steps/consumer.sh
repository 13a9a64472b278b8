#!/usr/bin/env bash
# An app's package (.ci/consumer) that registers production dependencies with
# `@retroactive DependencyRegistering` and tests with DependencyInjectionTesting: built with
# warnings as errors, then its parallel tests (the Testing article's example, 200 overriding cases, a test
# without the trait that must see production) run 3 times.
set -euo pipefail
cd "$(dirname "$0")/../consumer"
log=$(mktemp)
trap 'rm -f "$log"' EXIT

echo "+ swift build --build-tests -Xswiftc -warnings-as-errors  (in .ci/consumer)"
swift build --build-tests -Xswiftc -warnings-as-errors
for run in 1 2 3; do
    echo "+ swift test --skip-build  (run $run)"
    if ! swift test --skip-build >"$log" 2>&1; then
        grep -E '✘|error|fatal' "$log" | head -20 || true
        echo "consumer: run $run FAILED"
        exit 1
    fi
    grep -E 'Test run with' "$log"
done
echo "consumer: 3/3 runs passed"
