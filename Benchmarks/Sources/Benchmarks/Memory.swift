import DependencyInjection
import MallocStatistics
import Swinject

/// Bytes the process has allocated from malloc right now, where the platform says so.
func allocatedBytes() -> Int? {
    let bytes = malloc_statistics_allocated_bytes()
    return bytes < 0 ? nil : Int(bytes)
}

struct MemoryMeasurement {
    let implementation: Implementation
    let bytesPerRegistration: Double
}

/// Heap growth per registration while registering `count` distinct types into a fresh container.
///
/// Each kind of container is filled once before measuring, so the types' metadata and any
/// one-time caches already exist; the measured growth is the container's own.
func measureMemory(count: Int) -> [MemoryMeasurement]? {
    guard allocatedBytes() != nil else { return nil }
    let types = distinctTypes(count)
    func perRegistration<C>(_ make: () -> C, _ register: (any DistinctType, C) -> Void) -> Double {
        let warmUp = make()
        for type in types { register(type, warmUp) }
        blackHole(warmUp)
        let before = allocatedBytes()!
        let container = make()
        for type in types { register(type, container) }
        let after = allocatedBytes()!
        blackHole(container)
        return Double(after - before) / Double(count)
    }
    return [
        MemoryMeasurement(
            implementation: .floor,
            bytesPerRegistration: perRegistration(ClosureDictionary.init) { $0.register(in: $1) }),
        MemoryMeasurement(
            implementation: .dependencyInjection,
            bytesPerRegistration: perRegistration({ DIContainer() }) { $0.register(in: $1) }),
        MemoryMeasurement(
            implementation: .swinject,
            bytesPerRegistration: perRegistration({ Swinject.Container() }) { $0.register(in: $1) }),
    ]
}
