#!/usr/bin/env bash
# Checks formatting with the toolchain's swift-format and the committed .swift-format
# (fix locally with: swift format -i -r Sources Tests Benchmarks/Sources Benchmarks/Benchmarks .ci/contract-check .ci/consumer .ci/consumer-main-actor Examples/Server/Sources).
set -euo pipefail
cd "$(dirname "$0")/../.."
swift format lint --strict -r Sources Tests Benchmarks/Sources Benchmarks/Benchmarks .ci/contract-check .ci/consumer .ci/consumer-main-actor \
    Examples/Server/Sources
echo "swift format: clean"
