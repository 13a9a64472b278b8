#!/usr/bin/env python3
"""Runs the benchmarks with package-benchmark and prints the table of medians, ratios, allocations
and targets (markdown), as Benchmarks/README.md shows it.

    python3 Benchmarks/Scripts/table.py            # full run (a few minutes after the build)
    python3 Benchmarks/Scripts/table.py --quick    # smoke run (CI): a few iterations, numbers are noise
    python3 Benchmarks/Scripts/table.py --from FILE.jmh.json   # only the table, from an earlier export
    python3 Benchmarks/Scripts/table.py --from RUN1.jmh.json RUN2.jmh.json   # and the targets side by side
    python3 Benchmarks/Scripts/table.py --baseline BEFORE.jmh.json   # and each resolve workload against a run of
                                                                     # an earlier commit (issue 24: at most 10% slower)

It runs, from the Benchmarks package:

    swift package --allow-writing-to-package-directory benchmark --format jmh --path .build/benchmark-results

and reads the JMH export (every benchmark's percentiles for every metric, per iteration). Targets
are printed MET or NOT MET and never fail the script.
"""
import argparse
import datetime
import json
import os
import platform
import re
import shutil
import subprocess
import sys

PACKAGE = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
RESULTS = os.path.join(PACKAGE, ".build", "benchmark-results")

FLOOR, DI, SWINJECT, DEPS = "hand-written", "DependencyInjection", "Swinject", "swift-dependencies"
IMPLEMENTATIONS = [FLOOR, DI, SWINJECT, DEPS]
PEERS = [SWINJECT, DEPS]

# Benchmark name -> (label in the table, kind, operations per iteration). Kinds: "resolve" (a
# target of at most 2x the floor), "registration", "cold", "launch", "memory".
WORKLOADS = [
    ("Shared resolve by protocol (cached)", "Shared resolve by protocol (cached)", "resolve", 1000),
    ("New resolve of a trivial class", "New resolve of a trivial class", "resolve", 1000),
    ("New chain of three via resolver closures", "New chain of three via resolver closures", "resolve", 1000),
    ("New resolve with two arguments", "New resolve with two arguments", "resolve", 1000),
    ("Struct with three @Inject properties", "Struct with three @Inject properties", "resolve", 1000),
    ("Two threads resolving one Shared", "Two threads resolving one Shared (wall ns per resolve)", "resolve",
     20000),
    ("Shared resolve among 100 registrations", "Shared resolve among 100 registrations", "resolve", 1000),
    ("Shared resolve among 10000 registrations", "Shared resolve among 10,000 registrations", "resolve", 1000),
    ("Many types: resolve 100 distinct types in turn", "Many types: 100 distinct types resolved in turn",
     "resolve", 1000),
    ("Many types: resolve 10000 distinct types in turn", "Many types: 10,000 distinct types resolved in turn",
     "resolve", 1000),
    ("Scaling: New resolves with a little work", "Scaling: New with a little work, {threads} thread(s) (wall ns per "
     "resolve)", "resolve", 10000),  # per thread
    ("Register 100 distinct types (warm)", "Register 100 distinct types, warm (per registration)", "registration",
     1000),
    ("Register 10000 distinct types (warm)", "Register 10,000 distinct types, warm (per registration)",
     "registration", 1000),
    ("Cold registration of first-time types", "Cold registration of first-time types (per registration)", "cold",
     1000),
    ("App launch: 500 services", "App launch: 500 services, fresh process (total)", "launch", 1),
    ("Memory: register 10000 distinct types into a fresh container", "Memory", "memory", 10000),
]

NAME = re.compile(r"^(?P<base>.*)_\(impl:_(?P<impl>[^,)]+)(?:,_threads:_(?P<threads>\d+))?\)$")


def run_benchmarks(quick):
    os.makedirs(RESULTS, exist_ok=True)
    export = os.path.join(RESULTS, "Current_run.jmh.json")
    if os.path.exists(export):
        os.remove(export)
    command = ["swift", "package", "--package-path", PACKAGE, "--allow-writing-to-package-directory", "benchmark",
               "--format", "jmh", "--path", RESULTS, "--no-progress"]
    environment = dict(os.environ, SWIFTPM_ENABLE_PLUGINS="1")
    if quick:
        environment["DI_BENCHMARKS_QUICK"] = "1"
    print("Running: " + ("DI_BENCHMARKS_QUICK=1 " if quick else "") + " ".join(command), file=sys.stderr)
    subprocess.run(command, check=True, env=environment, stdout=sys.stderr)
    return export


def median(entry, metric):
    """The median of one metric of one benchmark, per iteration, in ns for times."""
    if metric == "wallClock":  # exported in µs
        value = entry["secondaryMetrics"].get("Time (wall clock)")
        return value["scorePercentiles"]["50.0"] * 1000 if value else None
    value = entry["secondaryMetrics"].get(metric)
    return value["scorePercentiles"]["50.0"] if value else None


def load(path):
    """(base name, implementation, threads) -> {"ns": per op, "mallocs": per op, ...}"""
    with open(path) as f:
        entries = json.load(f)
    kinds = {base: (label, kind, ops) for base, label, kind, ops in WORKLOADS}
    results = {}
    for entry in entries:
        name = entry["benchmark"].split(".", 3)[3]
        match = NAME.match(name)
        if not match:
            continue
        base = match["base"].replace("_", " ")
        if base not in kinds:
            continue
        _, kind, ops = kinds[base]
        threads = int(match["threads"]) if match["threads"] else None
        if threads:
            ops *= threads
        row = {"iterations": entry["measurementIterations"]}
        if kind == "launch":
            row["ns"] = median(entry, "launchNanoseconds")
            row["mallocs"] = median(entry, "launchMallocs")
        else:
            row["ns"] = median(entry, "wallClock") / ops
            mallocs = median(entry, "Malloc (total)")
            row["mallocs"] = mallocs / ops if mallocs is not None else None
        if kind == "memory":
            row["bytes"] = median(entry, "Malloc / free Δ (bytes)") / ops
            row["blocks"] = median(entry, "Malloc / free Δ") / ops
        results[(base, match["impl"], threads)] = row
    return results


def time(ns):
    if ns is None:
        return "N/A"
    if ns >= 1e6:
        return f"{ns / 1e6:.2f} ms"
    if ns >= 1e4:
        return f"{ns / 1e3:.0f} µs"
    if ns >= 1e3:
        return f"{ns / 1e3:.2f} µs"
    if ns >= 100:
        return f"{ns:.0f} ns"
    return f"{ns:.1f} ns"


def ratio(value):
    if value is None:
        return "N/A"
    if value < 0.1:
        return f"{value:.3f}x"
    return f"{value:.2f}x"


def count(value, kind):
    if value is None:
        return ""
    if kind == "launch":
        return f"{value:.0f}"
    return f"{value:.2f}"


def rows_of(results):
    """Workloads in table order: (base, label, kind, threads, {impl: row})."""
    rows = []
    for base, label, kind, _ in WORKLOADS:
        threads = sorted({key[2] for key in results if key[0] == base and key[2]}) or [None]
        for thread_count in threads:
            by_impl = {impl: results[(base, impl, thread_count)] for impl in IMPLEMENTATIONS
                       if (base, impl, thread_count) in results}
            if by_impl:
                rows.append((base, label.format(threads=thread_count), kind, thread_count, by_impl))
    return rows


def table(results):
    out = []
    w = out.append
    w("| Workload | Implementation | median | × floor | DI ÷ Swinject | DI ÷ swift-dependencies | mallocs/op |")
    w("|---|---|---:|---:|---:|---:|---:|")
    for base, label, kind, _, by_impl in rows_of(results):
        if kind == "memory":
            continue
        floor = by_impl.get(FLOOR, {}).get("ns")
        ours = by_impl.get(DI, {}).get("ns")
        first = True
        for impl in IMPLEMENTATIONS:
            row = by_impl.get(impl)
            name = f"**{impl}**" if impl == DI else impl
            if row is None:
                w(f"| {label if first else ''} | {name} | N/A | N/A |  |  |  |")
                first = False
                continue
            peers = ["", ""]
            if impl == DI:
                peers = [ratio(ours / by_impl[p]["ns"]) if p in by_impl else "N/A" for p in PEERS]
            mallocs = count(row["mallocs"], kind)
            if kind == "launch" and mallocs:
                mallocs += " (total)"
            w(f"| {label if first else ''} | {name} | {time(row['ns'])} | {ratio(row['ns'] / floor)} | "
              f"{peers[0]} | {peers[1]} | {mallocs} |")
            first = False
    return out


def scaling_table(results):
    rows = [r for r in rows_of(results) if r[0].startswith("Scaling")]
    if not rows:
        return []
    out = ["| Threads | " + " | ".join(f"{impl} (M resolves/s)" for impl in [FLOOR, DI, SWINJECT]) +
           " | DI ÷ floor (throughput) |", "|---:|" + "---:|" * 4]
    for _, _, _, threads, by_impl in rows:
        rate = {impl: 1e3 / by_impl[impl]["ns"] for impl in by_impl}  # ns per resolve -> M/s
        cells = [f"{rate[impl]:.2f}" if impl in rate else "N/A" for impl in [FLOOR, DI, SWINJECT]]
        share = ratio(rate[DI] / rate[FLOOR]) if DI in rate and FLOOR in rate else "N/A"
        out.append(f"| {threads} | " + " | ".join(cells) + f" | {share} |")
    return out


def memory_table(results):
    rows = [r for r in rows_of(results) if r[2] == "memory"]
    if not rows:
        return []
    out = ["| Memory (10,000 registrations into a fresh container) | bytes per registration | blocks per "
           "registration |", "|---|---:|---:|"]
    for impl in IMPLEMENTATIONS:
        row = rows[0][4].get(impl)
        if row is None:
            out.append(f"| {impl} | N/A | N/A |")
        else:
            out.append(f"| {impl} | {row['bytes']:.0f} | {row['blocks']:.2f} |")
    return out


def launch_targets(results, baseline=None):
    """Issue 24's targets, (target, what it needs, value shown with Swinject's in the same run, met)."""
    checks = []

    def check(base, label, bound):
        by_impl = {impl: row for (name, impl, _), row in results.items() if name == base}
        if DI not in by_impl or FLOOR not in by_impl:
            return
        value = by_impl[DI]["ns"] / by_impl[FLOOR]["ns"]
        swinject = f" (Swinject {ratio(by_impl[SWINJECT]['ns'] / by_impl[FLOOR]['ns'])})" if SWINJECT in by_impl else ""
        checks.append((f"{label}: DI ÷ floor", f"≤ {bound}x", ratio(value) + swinject, value <= bound))

    check("Cold registration of first-time types", "Cold registration of first-time types", 2.5)
    check("App launch: 500 services", "App launch: 500 services, fresh process", 5.0)
    check("Many types: resolve 10000 distinct types in turn", "10,000 distinct types resolved in turn", 2.0)
    if baseline:
        for base, label, kind, _ in WORKLOADS:
            if kind != "resolve":
                continue
            for (name, impl, threads), row in sorted(results.items(), key=lambda item: str(item[0])):
                before = baseline.get((name, impl, threads))
                if name != base or impl != DI or not before:
                    continue
                value = row["ns"] / before["ns"]
                checks.append((f"{label.format(threads=threads)}: DI ÷ DI of the baseline", "≤ 1.10x", ratio(value),
                               value <= 1.10))
    return checks


def targets(results):
    """(target, what it needs, value shown, met)"""
    checks = []
    rows = rows_of(results)

    def di_over(by_impl, other):
        return by_impl[DI]["ns"] / by_impl[other]["ns"]

    for base, label, kind, _, by_impl in rows:
        if DI not in by_impl or FLOOR not in by_impl:
            continue
        if kind == "resolve":
            value = di_over(by_impl, FLOOR)
            checks.append((f"{label}: DI ÷ floor", "≤ 2x", ratio(value), value <= 2.0))
        elif kind in ("cold", "launch"):
            peers = [p for p in PEERS if p in by_impl]
            fastest = min(peers, key=lambda p: by_impl[p]["ns"])
            speedup = by_impl[fastest]["ns"] / by_impl[DI]["ns"]
            checks.append((f"{label}: fastest peer ({fastest}) ÷ DI", "≥ 3x", ratio(speedup), speedup >= 3.0))
            value = di_over(by_impl, FLOOR)
            checks.append((f"{label}: DI ÷ floor", "≤ 4x", ratio(value), value <= 4.0))
    small = results.get(("Many types: resolve 100 distinct types in turn", DI, None))
    large = results.get(("Many types: resolve 10000 distinct types in turn", DI, None))
    if small and large:
        value = large["ns"] / small["ns"]
        checks.append(("Many types: DI with 10,000 types ÷ DI with 100", "≤ 1.3x", ratio(value), value <= 1.3))
    memory = results.get(("Memory: register 10000 distinct types into a fresh container", DI, None))
    if memory:
        checks.append(("Memory per registration (DI)", "≤ 300 bytes", f"{memory['bytes']:.0f} bytes",
                       memory["bytes"] <= 300))
    return checks


def machine():
    cores = os.cpu_count()
    try:
        swift = subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    except (OSError, IndexError):
        swift = "swift: unknown"
    load = " / ".join(f"{x:.1f}" for x in os.getloadavg())
    return (f"{platform.system()} {platform.release()} {platform.machine()}, {cores} cores, {swift}; "
            f"load average {load}; {datetime.datetime.now().strftime('%Y-%m-%d %H:%M')}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="a smoke run: a few iterations, numbers are noise")
    parser.add_argument("--from", dest="sources", nargs="+", metavar="FILE",
                        help="read these JMH exports instead of running the benchmarks")
    parser.add_argument("--save", help="also copy the JMH export to this file")
    parser.add_argument("--baseline", metavar="FILE", help="a JMH export of an earlier commit, for issue 24's "
                        "target that no resolve workload is more than 10%% slower than it")
    arguments = parser.parse_args()
    baseline = load(arguments.baseline) if arguments.baseline else None

    if arguments.sources and len(arguments.sources) > 1:
        compare(arguments.sources, baseline)
        return
    before = machine()
    path = arguments.sources[0] if arguments.sources else run_benchmarks(arguments.quick)
    if arguments.save:
        shutil.copyfile(path, arguments.save)
    results = load(path)
    missing = [base for base, *_ in WORKLOADS if not any(key[0] == base for key in results)]
    if missing:  # a benchmark that crashed or was renamed: the smoke run must notice
        sys.exit(f"no results in {path} for: " + "; ".join(missing))

    print(f"Machine: {before}" + ("; QUICK (smoke) run, numbers are noise" if arguments.quick else ""))
    print()
    report(results, baseline)


def report(results, baseline=None):
    print("\n".join(table(results)))
    print()
    print("\n".join(scaling_table(results)))
    print()
    print("\n".join(memory_table(results)))
    print()
    checks = targets(results)
    print(f"Targets (issue 15; from the medians; reported, never asserted): {sum(met for *_, met in checks)} of "
          f"{len(checks)} met")
    print()
    print("| Target | needs | value | status |")
    print("|---|---|---:|---|")
    for description, needs, value, met in checks:
        print(f"| {description} | {needs} | {value} | {'MET' if met else 'NOT MET'} |")
    print()
    checks = launch_targets(results, baseline)
    print(f"Targets (issue 24; from the medians, Swinject in the same run): {sum(met for *_, met in checks)} of "
          f"{len(checks)} met" + ("" if baseline else " (no --baseline: resolve workloads not compared)"))
    print()
    print("| Target | needs | value | status |")
    print("|---|---|---:|---|")
    for description, needs, value, met in checks:
        print(f"| {description} | {needs} | {value} | {'MET' if met else 'NOT MET'} |")


def compare(paths, baseline=None):
    """Each run's table, then every target's value and status in each run, side by side."""
    runs = [load(path) for path in paths]
    for number, results in enumerate(runs, 1):
        print(f"### Run {number}")
        print()
        report(results, baseline)
        print()
    checks = [targets(results) + launch_targets(results, baseline) for results in runs]
    print("| Target | needs | " + " | ".join(f"run {n}" for n in range(1, len(runs) + 1)) + " |")
    print("|---|---|" + "---:|" * len(runs))
    for index, (description, needs, _, _) in enumerate(checks[0]):
        cells = []
        for run in checks:
            _, _, value, met = run[index]
            cells.append(f"{value} {'MET' if met else 'NOT MET'}")
        print(f"| {description} | {needs} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
