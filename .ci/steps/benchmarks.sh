#!/usr/bin/env bash
# Benchmarks, smoke run: builds the Benchmarks package (package-benchmark 1.38.1 with its
# MallocInterposer trait, Swinject, swift-dependencies) and runs every workload with a few
# iterations through package-benchmark's SwiftPM command plugin, then prints the table, so neither
# the benchmarks nor Scripts/table.py rot. Numbers from --quick are noise: nothing asserts on
# timing, and targets are only reported. package-benchmark needs no system package here (its
# MallocInterposer trait replaces jemalloc), only SwiftPM plugins, which .ci/run turns off
# globally: on for this step.
set -euo pipefail
cd "$(dirname "$0")/../.."
export SWIFTPM_ENABLE_PLUGINS=1
python3 Benchmarks/Scripts/table.py --quick
