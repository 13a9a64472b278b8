#!/usr/bin/env bash
# Per-request injection in a real server under load (Examples/Server, Hummingbird 2): builds the
# example in release, then Scripts/load_test.py (Python 3 standard library, 127.0.0.1 only) starts
# its container version and its hand-wired version, each on a free port, and checks, printing each
# check: every response carries its own request's id and the context its request's scope made; no
# two requests share a context instance; no request fails; clients that hang up mid-request leave
# nothing behind; no request context is alive after the load and resident memory grew less than a
# bound; each server exits 0 on SIGTERM. Then it prints both versions' requests per second, p99
# latency and server CPU per request, and their ratios: a benchmark, never failing on the numbers.
# Every wait is bounded (`timeout`, bounded polling).
set -euo pipefail
cd "$(dirname "$0")/../../Examples/Server"

echo "+ swift build -c release  (in Examples/Server)"
timeout 1800 swift build -c release
bin=$(swift build -c release --show-bin-path)

echo "+ python3 Scripts/load_test.py --binary $bin/Server"
timeout 300 python3 Scripts/load_test.py --binary "$bin/Server"
