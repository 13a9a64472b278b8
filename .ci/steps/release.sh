#!/usr/bin/env bash
# Runs the whole test suite in a release build (-c release, in its own scratch path), where the
# library's exclusivity opt-outs (`@exclusivity(unchecked)` in Internal/) apply and its
# `assert`s are gone: debug builds, the sanitizer runs included, keep Swift's run-time
# exclusivity checks and so never test the code that ships. The tests import the library with
# `@_spi(Testing)`, not `@testable`, so no -enable-testing is needed. Fails on any test failure.
set -euo pipefail
cd "$(dirname "$0")/../.."

echo "+ swift test -c release --scratch-path .build-release"
swift test -c release --scratch-path .build-release
