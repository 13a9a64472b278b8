#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

func machineDescription() -> String {
    var name = utsname()
    uname(&name)
    func field<T>(_ value: T) -> String {
        withUnsafeBytes(of: value) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
    let cores = sysconf(Int32(_SC_NPROCESSORS_ONLN))
    #if compiler(>=6.3)
        let compiler = "Swift 6.3 or later"
    #elseif compiler(>=6.2)
        let compiler = "Swift 6.2"
    #elseif compiler(>=6.1)
        let compiler = "Swift 6.1"
    #else
        let compiler = "Swift 6.0"
    #endif
    return "Machine: \(field(name.sysname)) \(field(name.release)) \(field(name.machine)), "
        + "\(cores) cores online; compiler: \(compiler)"
}

func format(_ value: Double) -> String {
    if value >= 100 { return String(Int(value.rounded())) }
    let tenths = (value * 10).rounded() / 10
    return String(tenths)
}

func ratio(_ value: Double) -> String {
    // Two decimals, or three for the small ratios to slow peers (0.003x, not 0.0x).
    let scale = value < 0.1 ? 1000.0 : 100.0
    return "\((value * scale).rounded() / scale)x"
}

func printTable(_ results: [(Workload, [Measurement])]) {
    print(
        "| Workload | Implementation | median ns/op | min ns/op | × floor | DI ÷ Swinject | DI ÷ swift-dependencies |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for (workload, measurements) in results {
        let floor = measurements.first { $0.implementation == .floor }!
        let ours = measurements.first { $0.implementation == .dependencyInjection }!
        func peerRatio(_ peer: Implementation) -> String {
            if workload.notApplicable.contains(peer) { return "N/A" }
            guard let measured = measurements.first(where: { $0.implementation == peer }) else { return "" }
            return ratio(ours.median / measured.median)
        }
        for measurement in measurements {
            let isOurs = measurement.implementation == .dependencyInjection
            let columns = [
                measurement.implementation == .floor ? workload.name : "",
                measurement.implementation == .dependencyInjection
                    ? "**\(measurement.implementation.rawValue)**" : measurement.implementation.rawValue,
                format(measurement.median), format(measurement.min),
                ratio(measurement.median / floor.median),
                isOurs ? peerRatio(.swinject) : "",
                isOurs ? peerRatio(.swiftDependencies) : "",
            ]
            print("| " + columns.joined(separator: " | ") + " |")
        }
        for peer in workload.notApplicable {
            print("|  | \(peer.rawValue) | N/A | N/A | N/A |  |  |")
        }
    }
}

func printMemory(_ memory: [MemoryMeasurement]?) {
    guard let memory else {
        print("Memory per registration: not measured on this platform.")
        return
    }
    print("| Memory (10,000 registrations) | bytes per registration |")
    print("|---|---:|")
    for measurement in memory {
        print("| \(measurement.implementation.rawValue) | \(format(measurement.bytesPerRegistration)) |")
    }
    print("|  swift-dependencies | N/A |")
}

func printFloors(_ workloads: [Workload]) {
    print("Floors (hand-written, in this process; every accessor takes one recursive pthread mutex):")
    for workload in workloads {
        print("- \(workload.name): \(workload.floor)")
    }
}

func printTargets(_ results: [(Workload, [Measurement])], _ memory: [MemoryMeasurement]?) {
    func median(_ name: String, _ implementation: Implementation) -> Double {
        results.first { $0.0.name == name }!.1.first { $0.implementation == implementation }!.median
    }
    print("Targets (median ratios):")
    func report(_ label: String, _ value: Double, limit: Double, unit: String = "x") {
        let shown = unit == "x" ? ratio(value) : "\(format(value)) \(unit)"
        let limitShown = unit == "x" ? "\(format(limit))x" : "\(format(limit)) \(unit)"
        print("- \(value <= limit ? "met " : "MISS") \(label): \(shown) (limit \(limitShown))")
    }
    for (workload, _) in results where !workload.name.hasPrefix("Shared resolve among") {
        let value = median(workload.name, .dependencyInjection) / median(workload.name, .floor)
        if workload.name.hasPrefix("Two threads") {
            report("\(workload.name) vs floor", value, limit: 10)
        } else if workload.name.hasPrefix("Register") {
            report("\(workload.name) vs dictionary insert", value, limit: 2)
        } else {
            report("\(workload.name) vs floor", value, limit: 2)
        }
    }
    let small = median("Shared resolve among 100 registrations", .dependencyInjection)
    let large = median("Shared resolve among 10000 registrations", .dependencyInjection)
    report("resolve among 10,000 vs among 100 registrations", large / small, limit: 1.3)
    if let ours = memory?.first(where: { $0.implementation == .dependencyInjection }) {
        report("memory per registration", ours.bytesPerRegistration, limit: 300, unit: "bytes")
    }
    print("(Targets are reported, never asserted; on a busy machine re-run before judging.)")
}
