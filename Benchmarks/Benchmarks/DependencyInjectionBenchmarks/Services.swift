// The services every implementation makes: small, immutable (so Sendable, as swift-dependencies
// requires), and cheap to construct, so the measurements show the container, not the services.

protocol Logger: AnyObject, Sendable {
    func log(_ message: StaticString)
}

final class ConsoleLogger: Logger {
    func log(_ message: StaticString) {}
}

protocol Configuration: AnyObject, Sendable {
    var retries: Int { get }
}

final class StaticConfiguration: Configuration {
    let retries = 3
}

protocol Store: AnyObject, Sendable {
    var isEmpty: Bool { get }
}

final class MemoryStore: Store {
    var isEmpty: Bool { true }
}

/// A trivial class, made anew for each `New` resolve.
final class Trivial: Sendable {
    init() {}
}

/// A chain of three services, each made anew: `ServiceC` needs a `ServiceB`, which needs a `ServiceA`.
final class ServiceA: Sendable {
    init() {}
}

final class ServiceB: Sendable {
    let a: ServiceA
    init(a: ServiceA) { self.a = a }
}

final class ServiceC: Sendable {
    let b: ServiceB
    init(b: ServiceB) { self.b = b }
}

/// Made from two arguments given at resolution.
final class Pair: Sendable {
    let id: Int
    let name: String
    init(id: Int, name: String) {
        self.id = id
        self.name = name
    }
}

/// Made anew for each `New` resolve of the scaling workload; its initializer does a little work
/// (a 64-step FNV-1a hash, about 100 ns) so that several threads have something to do besides
/// taking the container's lock. The seed is read at run time, so the hash cannot be folded away.
final class Worker: Sendable {
    static let seed = UInt64(truncatingIfNeeded: ObjectIdentifier(Worker.self).hashValue)
    let checksum: UInt64

    init() {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ Worker.seed
        for step in 0..<64 as Range<UInt64> {
            hash = (hash ^ step) &* 0x0000_0100_0000_01b3
        }
        checksum = hash
    }
}
