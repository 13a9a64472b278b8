import DependencyInjection
import MallocStatistics

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

// Usage: swift run -c release --package-path Benchmarks [--quick] [--runs N] [--filter TEXT] [--no-peers]
// --filter runs only the workloads whose name contains TEXT, --no-peers only the floor and
// DependencyInjection (both for profiling).

var settings = Settings()
var filter: String?
var withPeers = true
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--quick": settings = .quickMode
    case "--no-peers":
        withPeers = false
    case "--filter":
        filter = arguments.popFirst()
    case "--runs":
        guard let value = arguments.popFirst().flatMap(Int.init), value > 0 else {
            print("--runs needs a positive number")
            exit(2)
        }
        settings.runs = value
    default:
        print("usage: Benchmarks [--quick] [--runs N] [--filter TEXT] [--no-peers]")
        exit(2)
    }
}

#if DEBUG
    print("Warning: a debug build; numbers mean nothing. Use `swift run -c release`.")
#endif
// The registration workloads allocate and free megabytes per timed run; an allocator that hands
// freed memory back to the system makes them measure page faults instead (by up to 2x, varying
// from run to run). Kept memory applies to every implementation alike.
let keepsFreedMemory = malloc_statistics_keep_freed_memory() == 1
print(machineDescription())
print(
    "Mode: \(settings.quick ? "quick (smoke run, numbers are noise)" : "full"); "
        + "\(settings.runs) timed runs per variant after a calibrating warm-up, "
        + "each about \(settings.sampleNanoseconds / 1_000) µs; runs of all variants interleaved"
        + (keepsFreedMemory ? "; the allocator keeps freed memory (mallopt)." : "."))
print()

let workloads = makeWorkloads(quick: settings.quick)
var results: [(Workload, [Measurement])] = []
for workload in workloads where filter.map({ workload.name.contains($0) }) ?? true {
    var workload = workload
    if !withPeers {
        workload.variants.removeAll { $0.implementation != .floor && $0.implementation != .dependencyInjection }
    }
    results.append((workload, measure(workload, settings)))
}
let memory = filter == nil ? measureMemory(count: 10_000) : nil

printTable(results)
if filter == nil {
    print()
    printMemory(memory)
    print()
    printFloors(workloads)
    print()
    printTargets(results, memory)
}
