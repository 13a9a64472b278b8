#!/usr/bin/env bash
# Per-request injection in a real server under load (Examples/Server, Hummingbird 2): builds the
# example in release, then Scripts/load_test.py (Python 3 standard library, 127.0.0.1 only) starts
# its container version and its hand-wired version, each on a free port, and checks, printing each
# check: every response carries its own request's id and the context its request's scope made; no
# two requests share a context instance; no request fails; clients that hang up mid-request leave
# nothing behind; no request context is alive after the load and resident memory grew less than
# 10 MiB after the warm-up; on SIGTERM each server answers the request it is running, then exits
# with status 0. Then it prints both versions' requests per second, p99 latency and server CPU
# time per request, and their ratios: a benchmark, never failing on the numbers. Every wait is
# bounded (`timeout`, bounded polling). The release build takes several minutes on 2 cores; the
# load about one.
set -euo pipefail
cd "$(dirname "$0")/../../Examples/Server"

log=$(mktemp)
trap 'rm -f "$log"' EXIT

echo "+ swift build -c release  (in Examples/Server)"
timeout 1800 swift build -c release 2>&1 | tee "$log"
# The example itself builds without warnings (SwiftPM's notes about dependencies' files aside).
if grep -E 'Examples/Server/Sources/.*warning:' "$log"; then
    echo "server-load: the example has compiler warnings"
    exit 1
fi
bin=$(swift build -c release --show-bin-path)

echo "+ python3 Scripts/load_test.py --binary $bin/Server"
timeout 300 python3 Scripts/load_test.py --binary "$bin/Server"
