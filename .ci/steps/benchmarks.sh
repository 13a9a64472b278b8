#!/usr/bin/env bash
# Benchmarks, smoke run: builds the Benchmarks package in release (with Swinject and
# swift-dependencies, whose Dependencies product does not need swift-syntax, so about a minute
# from scratch on 2 cores) and runs every workload with tiny iteration counts, so the
# benchmarks never rot. Numbers from --quick are noise: nothing here asserts on timing.
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build -c release --package-path Benchmarks
swift run -c release --skip-build --package-path Benchmarks Benchmarks --quick
