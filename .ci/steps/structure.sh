#!/usr/bin/env bash
# The shape a maintainer relies on (docs/Design.md): no Foundation in the core library; the
# memory-unsafe constructs only under Sources/DependencyInjection/Internal/, in at most 8 files and
# 40 lines; no test file named for its history; no comment in Tests/ or .ci/ citing a section of a
# document outside the repository; Benchmarks/README.md under 250 lines. Prints the library's size
# (non-blank, non-comment lines) against its budget of 3,000, which it does not enforce.
set -euo pipefail
cd "$(dirname "$0")/../.."

failed=0
fail() { echo "FAILED: $1"; failed=1; }

library=Sources/DependencyInjection
if grep -rn "import Foundation" "$library"; then fail "Foundation is imported by the core library"; fi

unsafe='Unmanaged|[uU]nowned|Unsafe[A-Za-z]*Pointer|unsafeBitCast|unsafeDowncast|@exclusivity\(unchecked\)|_withUnsafeGuaranteedRef|dlsym|withUnsafe|baseAddress|assumingMemoryBound|alignedUp|toOpaque|fromOpaque'
hits=$(grep -rnE "$unsafe" "$library" --include='*.swift' | grep -vE '^[^:]+:[0-9]+: *//' || true)
outside=$(echo "$hits" | grep -v "^$library/Internal/" | grep -v '^$' || true)
[ -z "$outside" ] || fail "memory-unsafe constructs outside Internal/:"$'\n'"$outside"
files=$(echo "$hits" | grep -v '^$' | cut -d: -f1 | sort -u | wc -l)
lines=$(echo "$hits" | grep -vc '^$' || true)
echo "memory-unsafe constructs: $lines lines in $files files"
[ "$files" -le 8 ] || fail "unsafe constructs in $files files (at most 8)"
[ "$lines" -le 40 ] || fail "unsafe constructs on $lines lines (at most 40)"

named=$(find Tests -name '*.swift' | grep -E 'Review|Regression|SafeCore|Parity' || true)
[ -z "$named" ] || fail "test files named for their history:"$'\n'"$named"

cited=$(grep -rn --exclude-dir=.build --exclude=structure.sh '§' Tests .ci || true)
[ -z "$cited" ] || fail "sections of documents outside the repository cited:"$'\n'"$cited"

readme=$(wc -l < Benchmarks/README.md)
echo "Benchmarks/README.md: $readme lines"
[ "$readme" -lt 250 ] || fail "Benchmarks/README.md has $readme lines (under 250)"

size=$(find "$library" -name '*.swift' -print0 | xargs -0 cat \
    | sed -E 's#^[[:space:]]*//.*$##' | grep -cvE '^[[:space:]]*$')
echo "library size: $size lines of code (budget 3,000; not enforced here)"

[ "$failed" -eq 0 ] && echo "structure: passed"
exit "$failed"
