#!/usr/bin/env bash
# Compiles the API contract verbatim in a separate package (as a user would), in Swift 6 mode with
# warnings as errors, then runs it and its Swift Testing suite.
set -euo pipefail
cd "$(dirname "$0")/../contract-check"
swift build --build-tests -Xswiftc -warnings-as-errors
swift run ContractCheck
swift test
