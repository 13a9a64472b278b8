#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The floor: what a careful developer writes by hand when resolution must be serialized, as
/// the DependencyInjection contract requires.
///
/// Every accessor takes one recursive pthread mutex (recursive because the chain's accessors call
/// each other, as resolver closures do), then returns a lazily made stored instance or calls the
/// initializer. No type erasure, no lookup, nothing generic.
final class HandWiredContainer: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    // Guarded by `mutex`.
    private var storedLogger: (any Logger)?
    private var storedConfiguration: (any Configuration)?
    private var storedStore: (any Store)?

    init() {
        mutex = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    @inline(__always)
    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    var logger: any Logger {
        locked {
            if let storedLogger { return storedLogger }
            let made = ConsoleLogger()
            storedLogger = made
            return made
        }
    }

    var configuration: any Configuration {
        locked {
            if let storedConfiguration { return storedConfiguration }
            let made = StaticConfiguration()
            storedConfiguration = made
            return made
        }
    }

    var store: any Store {
        locked {
            if let storedStore { return storedStore }
            let made = MemoryStore()
            storedStore = made
            return made
        }
    }

    func makeTrivial() -> Trivial {
        locked { Trivial() }
    }

    func makeServiceA() -> ServiceA {
        locked { ServiceA() }
    }

    func makeServiceB() -> ServiceB {
        locked { ServiceB(a: makeServiceA()) }
    }

    func makeServiceC() -> ServiceC {
        locked { ServiceC(b: makeServiceB()) }
    }

    func makePair(id: Int, name: String) -> Pair {
        locked { Pair(id: id, name: name) }
    }

    func makeWorker() -> Worker {
        locked { Worker() }
    }
}

/// The process-wide hand-wired container, as the static `DIContainer` API is process-wide.
let handWired = HandWiredContainer()

/// A thread-safe `[ObjectIdentifier: () -> Any]`: the floor for registration.
final class ClosureDictionary: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    // Guarded by `mutex`.
    private var factories: [ObjectIdentifier: () -> Any] = [:]

    init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func register<T>(_ type: T.Type, _ factory: @escaping () -> Any) {
        pthread_mutex_lock(mutex)
        factories[ObjectIdentifier(type)] = factory
        pthread_mutex_unlock(mutex)
    }

    var count: Int { factories.count }
}

/// The floor for resolving many distinct types through generic code: a hand-written registry, a
/// mutex-guarded `[ObjectIdentifier: Entry]` whose entries make their instance once, read with
/// `as!`. (A hand-wired container cannot have 10,000 accessors; this is the least a type-keyed
/// lookup does.)
final class TypeKeyedRegistry: @unchecked Sendable {
    private final class Entry {
        let make: () -> AnyObject
        var instance: AnyObject?
        init(_ make: @escaping () -> AnyObject) { self.make = make }
    }

    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    // Guarded by `mutex`.
    private var entries: [ObjectIdentifier: Entry] = [:]

    init() {
        mutex = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func register<T: AnyObject>(_ type: T.Type, _ make: @escaping () -> T) {
        pthread_mutex_lock(mutex)
        entries[ObjectIdentifier(type)] = Entry(make)
        pthread_mutex_unlock(mutex)
    }

    func resolve<T: AnyObject>(_ type: T.Type) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        let entry = entries[ObjectIdentifier(type)]!
        if let instance = entry.instance { return instance as! T }
        let made = entry.make()
        entry.instance = made
        return made as! T
    }
}
