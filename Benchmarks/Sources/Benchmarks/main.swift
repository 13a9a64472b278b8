#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import DependencyInjection

// Usage: swift run -c release --package-path Benchmarks [--quick] [--runs N]

var settings = Settings()
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--quick": settings = .quickMode
    case "--runs":
        guard let value = arguments.popFirst().flatMap(Int.init), value > 0 else {
            print("--runs needs a positive number")
            exit(2)
        }
        settings.runs = value
    default:
        print("usage: Benchmarks [--quick] [--runs N]")
        exit(2)
    }
}

#if DEBUG
print("Warning: a debug build; numbers mean nothing. Use `swift run -c release`.")
#endif
print(machineDescription())
print(
    "Mode: \(settings.quick ? "quick (smoke run, numbers are noise)" : "full"); "
        + "\(settings.runs) timed runs per variant after a calibrating warm-up, "
        + "each about \(settings.sampleNanoseconds / 1_000) µs; runs of all variants interleaved.")
print()

let workloads = makeWorkloads(quick: settings.quick)
var results: [(Workload, [Measurement])] = []
for workload in workloads {
    results.append((workload, measure(workload, settings)))
}
let memory = measureMemory(count: 10_000)

printTable(results)
print()
printMemory(memory)
print()
printFloors(workloads)
print()
printTargets(results, memory)
