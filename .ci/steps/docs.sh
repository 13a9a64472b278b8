#!/usr/bin/env bash
# Builds the DocC catalog: symbol graphs of DependencyInjection, then the toolchain's
# `docc convert`. Fails on any DocC error or warning.
set -euo pipefail
cd "$(dirname "$0")/../.."

catalog=Sources/DependencyInjection/DependencyInjection.docc
work=.build/docs
# A scratch path of its own: the symbol-graph flags would otherwise invalidate the main build.
# The compiler writes the graphs only when it compiles, so they live beside that build.
scratch=.build-docs
graphs="$PWD/$scratch/symbol-graphs"
rm -rf "$work"
mkdir -p "$work" "$graphs"

build_symbol_graphs() {
    swift build --scratch-path "$scratch" --target DependencyInjection \
        -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs" \
        -Xswiftc -symbol-graph-minimum-access-level -Xswiftc public
}

echo "Symbol graphs of DependencyInjection"
build_symbol_graphs
if [ ! -e "$graphs/DependencyInjection.symbols.json" ]; then
    rm -rf "$scratch"
    mkdir -p "$graphs"
    build_symbol_graphs
fi

docc=$(command -v docc || true)
if [ -z "$docc" ]; then
    docc="$(dirname "$(readlink -f "$(command -v swift)")")/docc"
fi

echo "docc convert $catalog"
set +e
"$docc" convert "$catalog" \
    --additional-symbol-graph-dir "$graphs" \
    --fallback-display-name DependencyInjection \
    --fallback-bundle-identifier DependencyInjection \
    --output-path "$work/DependencyInjection.doccarchive" \
    >"$work/docc.log" 2>&1
status=$?
set -e
cat "$work/docc.log"
if [ "$status" -ne 0 ] || grep -q "error:" "$work/docc.log"; then
    echo "docs: docc convert failed" >&2
    exit 1
fi

if grep -q "warning:" "$work/docc.log"; then
    echo "docs: docc warnings:" >&2
    grep "warning:" "$work/docc.log" >&2
    exit 1
fi
echo "docs: DocC catalog builds ($work/DependencyInjection.doccarchive)"
