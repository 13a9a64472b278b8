#!/usr/bin/env bash
# Runs the parallel isolation tests 20 times in a row on one build: 400 parallel test cases
# that each override the same dependency, beside tests that must keep seeing production.
# Any failing run fails the step; a summary line says how many runs passed.
set -euo pipefail
cd "$(dirname "$0")/../.."

runs=${ISOLATION_RUNS:-20}
filter='ParallelIsolationTests|ProductionVisibilityTests'
log=$(mktemp)
trap 'rm -f "$log"' EXIT

echo "+ swift build --build-tests"
swift build --build-tests
echo "+ swift test --skip-build --filter '$filter'  (x$runs)"

failed=0
for run in $(seq 1 "$runs"); do
    if swift test --skip-build --filter "$filter" >"$log" 2>&1 \
        && grep -q 'eachCaseOnlyEverSeesItsOwnOverride(index:) with 200 test cases passed' "$log"; then
        echo "run $run: passed"
    else
        failed=$((failed + 1))
        echo "run $run: FAILED"
        grep -E '✘|error|fatal' "$log" | head -20 || true
    fi
done

echo "isolation: $((runs - failed))/$runs runs passed, $failed failed"
[ "$failed" -eq 0 ]
