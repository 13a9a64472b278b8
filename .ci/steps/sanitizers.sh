#!/usr/bin/env bash
# Runs the whole test suite under ThreadSanitizer and under AddressSanitizer (with leak detection
# on Linux), each in its own scratch path. Fails on any test failure and on any sanitizer report,
# whether or not the sanitizer already ended the process.
#
# One test at a time (`--no-parallel`): a test's time limit counts from its start, and when every
# test starts at once on a 2-core machine, a sanitizer's several-times-slower run makes the last
# ones to finish exceed their limits though nothing is stuck (the whole suite took about 90 s
# that way; one at a time, each test's time is its own, and TSan's run takes about 110 s).
set -euo pipefail
cd "$(dirname "$0")/../.."

# A report ends the process with a non-zero status (halt_on_error); the log is also scanned, in case
# a report comes from a process whose status the run does not see. Each run gets only its own
# sanitizer's options: the tests read them to tell which sanitizer runs (see ScenarioFixtures.swift).
tsan_options="halt_on_error=1:second_deadlock_stack=1${TSAN_OPTIONS:+:$TSAN_OPTIONS}"
asan_options="halt_on_error=1:detect_leaks=1:detect_stack_use_after_return=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
# Leaks outside this package (the toolchain's own runtime caches) are suppressed by name only.
lsan_options="suppressions=$PWD/.ci/lsan-suppressions.txt:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
unset TSAN_OPTIONS ASAN_OPTIONS LSAN_OPTIONS

log_dir=$(mktemp -d)
trap 'rm -rf "$log_dir"' EXIT

run_sanitized() {
    local sanitizer=$1 scratch=$2 log="$log_dir/$1.log"
    shift 2
    echo "--- $* swift test --sanitize=$sanitizer --scratch-path $scratch --no-parallel"
    local status=0
    env "$@" timeout 1800 swift test --sanitize="$sanitizer" --scratch-path "$scratch" --no-parallel >"$log" 2>&1 \
        || status=$?
    grep -E '✘|WARNING: ThreadSanitizer|ERROR: (Address|Leak)Sanitizer|SUMMARY:|Test run with' "$log" | head -40 || true
    if grep -qE 'WARNING: ThreadSanitizer|ERROR: (AddressSanitizer|LeakSanitizer)|SUMMARY: (Thread|Address|Leak)Sanitizer' "$log"; then
        echo "error: $sanitizer sanitizer reported a problem (see above)." >&2
        return 1
    fi
    if [ "$status" -ne 0 ]; then
        tail -40 "$log"
        echo "error: tests failed under the $sanitizer sanitizer (status $status)." >&2
        return "$status"
    fi
    echo "--- $sanitizer: all tests passed, no reports."
}

run_sanitized thread .build-tsan "TSAN_OPTIONS=$tsan_options"
# The stack checks run under ThreadSanitizer (they are skipped only under AddressSanitizer).
if ! grep -q 'aDeepChainOnA128KiBStackIsTooDeepNotACrash() passed' "$log_dir/thread.log"; then
    echo "error: the small-stack test did not run under ThreadSanitizer." >&2
    exit 1
fi
run_sanitized address .build-asan "ASAN_OPTIONS=$asan_options" "LSAN_OPTIONS=$lsan_options"
