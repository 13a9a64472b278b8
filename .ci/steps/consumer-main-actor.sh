#!/usr/bin/env bash
# An app's package built with default MainActor isolation (.ci/consumer-main-actor, Swift 6.2's
# `.defaultIsolation(MainActor.self)`): main-actor types registered in every form must be made on
# the main actor only, and exactly once for a Shared one. Isolation follows the value (the
# ConcurrencyAndActors article): a Sendable one (any main-actor class) resolved synchronously off
# the main actor is made on it for the caller, and handed out anywhere; a value that is not Sendable
# never leaves the main actor (`.mainActorRequired`, sync and async); a main-actor service needed by
# a factory running off the main actor is `.mainActorRequired`, naming both. The README's
# quick-start forms compile here (MainActorChecks' QuickStart.swift, IsolatedBootstrap), and so do
# the other forms the docs show for such a module (DocumentedForms.swift, the test target's
# DocumentedTraitForms.swift). Beside it, a module without default isolation whose services
# resolve on any thread. Each run is time-bounded (`timeout`).
#
# Built with warnings as errors; every check must pass. What the library gets wrong today is
# reported as KNOWN LIBRARY ISSUE (never hidden) without failing the step, unless
# STRICT_KNOWN_ISSUES=1; a known issue that no longer reproduces is reported too.
set -euo pipefail
cd "$(dirname "$0")/../consumer-main-actor"
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
known=0

echo "+ swift build --build-tests -Xswiftc -warnings-as-errors  (in .ci/consumer-main-actor)"
swift build --build-tests -Xswiftc -warnings-as-errors
bin=$(swift build --show-bin-path)

# Runs a checks executable that must exit 0; prints its sections, every line that is not a
# passed check, and its summary.
checks() {
    local log="$logs/$1"
    echo "+ $*"
    if ! timeout 300 "$bin/$1" "${@:2}" >"$log" 2>&1; then
        cat "$log"
        echo "consumer-main-actor: $* FAILED"
        exit 1
    fi
    grep -v '^ok ' "$log" | grep -v '^$' || true
    known=$((known + $(grep -c '^KNOWN ' "$log" || true)))
}

checks MainActorChecks
checks NonisolatedChecks
checks ShopValidation
checks IsolatedBootstrap on-main
checks IsolatedBootstrap off-main

echo "+ swift test --skip-build"
if ! timeout 600 swift test --skip-build >"$logs/test" 2>&1; then
    grep -E '✘|error|fatal' "$logs/test" | head -20 || true
    echo "consumer-main-actor: swift test FAILED"
    exit 1
fi
grep -E 'known issue|Test run with' "$logs/test" | grep -v '^◇' || true
known=$((known + $(grep -c 'recorded a known issue' "$logs/test" || true)))

# Scenarios that end the process while the library gets them wrong: each runs alone.
for scenario in global-module-off-main validate-global-module; do
    echo "+ MainActorChecks $scenario"
    if timeout 120 "$bin/MainActorChecks" "$scenario" >"$logs/$scenario" 2>&1; then
        grep -v '^$' "$logs/$scenario"
        echo "NOTE  scenario $scenario passes now: update the known issues in .ci/consumer-main-actor"
    else
        known=$((known + 1))
        grep -E '^(--|ok |FAIL)' "$logs/$scenario" || true
        echo "KNOWN LIBRARY ISSUE: scenario $scenario ends the process:"
        grep -E 'crashed|Fatal error|in MainActorChecks at .*/(MainActorApp|MainActorChecks)/' "$logs/$scenario" \
            | head -4 | sed 's/^/    /'
    fi
done

# Contract lines that do not compile under default MainActor isolation today (last: this build
# recompiles the test target with KNOWN_ISSUE_REPROS defined).
echo "+ KNOWN_ISSUE_REPROS=1 swift build --build-tests -Xswiftc -warnings-as-errors"
if KNOWN_ISSUE_REPROS=1 swift build --build-tests -Xswiftc -warnings-as-errors >"$logs/repros" 2>&1; then
    echo "NOTE  the Testing article's trait lines compile now under default MainActor isolation: update the known issues"
else
    known=$((known + 1))
    echo "KNOWN LIBRARY ISSUE: the Testing article's trait lines do not compile under default MainActor isolation:"
    grep -E '^/.*error:|^macro expansion .*error:' "$logs/repros" | sort -u | head -4 | sed 's/^/    /'
    grep -E '^ *[0-9]+ \| +@Test\(\.dependencies' "$logs/repros" | sort -u | head -4 | sed 's/^/    /'
    echo "    (the forms the article shows for such a target compile: DocumentedTraitForms.swift)"
fi

echo "consumer-main-actor: all checks passed; $known known library issue(s) reported above"
if [ "${STRICT_KNOWN_ISSUES:-0}" = "1" ] && [ "$known" -gt 0 ]; then
    echo "consumer-main-actor: STRICT_KNOWN_ISSUES=1 and $known known issue(s) remain"
    exit 1
fi
