import Dependencies
import DependencyInjection
import Swinject

// MARK: - Registrations, one per library

func registerDependencyInjection() {
    DIContainer.register {
        Shared(ConsoleLogger() as Logger)
        Shared(StaticConfiguration() as Configuration)
        Shared(MemoryStore() as Store)
        New(Trivial.init)
        New(ServiceA.init)
        New { resolve in ServiceB(a: resolve()) }
        New { resolve in ServiceC(b: resolve()) }
        New { (_: DependencyInjection.Resolver, id: Int, name: String) in Pair(id: id, name: name) }
    }
}

func makeSwinjectContainer() -> Swinject.Container {
    let container = Swinject.Container()
    container.register(Logger.self) { _ in ConsoleLogger() }.inObjectScope(.container)
    container.register(Configuration.self) { _ in StaticConfiguration() }.inObjectScope(.container)
    container.register(Store.self) { _ in MemoryStore() }.inObjectScope(.container)
    container.register(Trivial.self) { _ in Trivial() }.inObjectScope(.transient)
    container.register(ServiceA.self) { _ in ServiceA() }.inObjectScope(.transient)
    container.register(ServiceB.self) { resolver in ServiceB(a: resolver.resolve(ServiceA.self)!) }
        .inObjectScope(.transient)
    container.register(ServiceC.self) { resolver in ServiceC(b: resolver.resolve(ServiceB.self)!) }
        .inObjectScope(.transient)
    container.register(Pair.self) { (_: Swinject.Resolver, id: Int, name: String) in Pair(id: id, name: name) }
        .inObjectScope(.transient)
    return container
}

// swift-dependencies: values keyed by `DependencyKey`, read through `@Dependency`.

enum LoggerKey: DependencyKey {
    static let liveValue: any Logger = ConsoleLogger()
}

enum ConfigurationKey: DependencyKey {
    static let liveValue: any Configuration = StaticConfiguration()
}

enum StoreKey: DependencyKey {
    static let liveValue: any Store = MemoryStore()
}

extension DependencyValues {
    var logger: any Logger {
        get { self[LoggerKey.self] }
        set { self[LoggerKey.self] = newValue }
    }

    var configuration: any Configuration {
        get { self[ConfigurationKey.self] }
        set { self[ConfigurationKey.self] = newValue }
    }

    var store: any Store {
        get { self[StoreKey.self] }
        set { self[StoreKey.self] = newValue }
    }
}

// MARK: - A struct with three injected properties, per library

struct InjectedScreen {
    @Inject var logger: any Logger
    @Inject var configuration: any Configuration
    @Inject var store: any Store
}

struct HandWiredScreen {
    let logger: any Logger
    let configuration: any Configuration
    let store: any Store

    init(_ container: HandWiredContainer) {
        logger = container.logger
        configuration = container.configuration
        store = container.store
    }
}

struct SwinjectScreen {
    let logger: any Logger
    let configuration: any Configuration
    let store: any Store

    init(_ resolver: Swinject.Resolver) {
        logger = resolver.resolve(Logger.self)!
        configuration = resolver.resolve(Configuration.self)!
        store = resolver.resolve(Store.self)!
    }
}

/// swift-dependencies resolves on access, so each property is read once after construction.
struct DependenciesScreen {
    @Dependency(\.logger) var logger
    @Dependency(\.configuration) var configuration
    @Dependency(\.store) var store
}

// MARK: - Workloads

func makeWorkloads(quick: Bool) -> [Workload] {
    registerDependencyInjection()
    let swinject = makeSwinjectContainer()
    // Swinject's `Container` is not thread-safe; its synchronized view is what threads must use.
    let synchronizedSwinject = UncheckedSendable(swinject.synchronize())
    let swinjectResolver: Swinject.Resolver = swinject
    let threads = 2

    var workloads: [Workload] = [
        Workload(
            name: "Shared resolve by protocol (cached)",
            floor: "a mutex-guarded accessor returning a lazily made stored `any Logger`",
            variants: [
                repeating(.floor) { blackHole(handWired.logger) },
                repeating(.dependencyInjection) { blackHole(DIContainer.resolve(Logger.self)) },
                repeating(.swinject) { blackHole(swinjectResolver.resolve(Logger.self)!) },
                repeating(.swiftDependencies) {
                    @Dependency(\.logger) var logger
                    blackHole(logger)
                },
            ]),
        Workload(
            name: "New resolve of a trivial class",
            floor: "a mutex-guarded accessor calling `Trivial()`",
            variants: [
                repeating(.floor) { blackHole(handWired.makeTrivial()) },
                repeating(.dependencyInjection) { blackHole(DIContainer.resolve(Trivial.self)) },
                repeating(.swinject) { blackHole(swinjectResolver.resolve(Trivial.self)!) },
            ],
            notApplicable: [.swiftDependencies]),
        Workload(
            name: "New chain of three via resolver closures",
            floor: "three mutex-guarded accessors, each calling the next: `C(b: B(a: A()))`",
            variants: [
                repeating(.floor) { blackHole(handWired.makeServiceC()) },
                repeating(.dependencyInjection) { blackHole(DIContainer.resolve(ServiceC.self)) },
                repeating(.swinject) { blackHole(swinjectResolver.resolve(ServiceC.self)!) },
            ],
            notApplicable: [.swiftDependencies]),
        Workload(
            name: "New resolve with two arguments",
            floor: "a mutex-guarded accessor calling `Pair(id:name:)` with the two arguments",
            variants: [
                repeating(.floor) { blackHole(handWired.makePair(id: 7, name: "seven")) },
                repeating(.dependencyInjection) { blackHole(DIContainer.resolve(Pair.self) { (7, "seven") }) },
                repeating(.swinject) {
                    blackHole(swinjectResolver.resolve(Pair.self, arguments: 7, "seven")!)
                },
            ],
            notApplicable: [.swiftDependencies]),
        Workload(
            name: "Struct with three @Inject properties",
            floor: "a struct whose init reads three mutex-guarded cached accessors",
            variants: [
                repeating(.floor) { blackHole(HandWiredScreen(handWired)) },
                repeating(.dependencyInjection) { blackHole(InjectedScreen()) },
                repeating(.swinject) { blackHole(SwinjectScreen(swinjectResolver)) },
                repeating(.swiftDependencies) {
                    let screen = DependenciesScreen()
                    blackHole((screen.logger, screen.configuration, screen.store))
                },
            ]),
        Workload(
            name: "Two threads resolving one Shared (wall ns per resolve)",
            floor: "two threads calling the mutex-guarded cached accessor",
            variants: [
                contended(.floor, threads) { blackHole(handWired.logger) },
                contended(.dependencyInjection, threads) { blackHole(DIContainer.resolve(Logger.self)) },
                contended(.swinject, threads) { blackHole(synchronizedSwinject.value.resolve(Logger.self)!) },
                contended(.swiftDependencies, threads) {
                    @Dependency(\.logger) var logger
                    blackHole(logger)
                },
            ]),
    ]
    for count in [100, 10_000] {
        workloads.append(resolveAmong(count))
    }
    for count in [100, 10_000] {
        workloads.append(registration(count))
    }
    return workloads
}

/// `threads` threads each repeat `operation`; ns/op is wall time over all operations. The threads
/// are started before timing and released together through a gate, so thread creation is not
/// measured.
func contended(_ implementation: Implementation, _ threads: Int, _ operation: @escaping @Sendable () -> Void)
    -> Variant
{
    Variant(implementation: implementation) { iterations in
        let run = StartedThreads(threads) { _ in
            for _ in 0..<iterations { operation() }
        }
        return {
            run.startAndWait()
            return iterations * threads
        }
    }
}

/// A cached `Shared` resolve from a container that holds `count` other registrations.
func resolveAmong(_ count: Int) -> Workload {
    let types = distinctTypes(count)
    let container = DIContainer()
    container.register(Shared(ConsoleLogger() as Logger))
    for type in types { type.register(in: container) }
    let swinject = Swinject.Container()
    swinject.register(Logger.self) { _ in ConsoleLogger() }.inObjectScope(.container)
    for type in types { type.register(in: swinject) }
    let swinjectResolver: Swinject.Resolver = swinject
    return Workload(
        name: "Shared resolve among \(count) registrations",
        floor: "the mutex-guarded cached accessor (a hand-wired container has no lookup to grow)",
        variants: [
            repeating(.floor) { blackHole(handWired.logger) },
            repeating(.dependencyInjection) { blackHole(container.resolve(Logger.self)) },
            repeating(.swinject) { blackHole(swinjectResolver.resolve(Logger.self)!) },
        ],
        notApplicable: [.swiftDependencies])
}

/// Registering `count` distinct types into a fresh container (ns per registration).
func registration(_ count: Int) -> Workload {
    let types = distinctTypes(count)
    func batches<C>(
        _ implementation: Implementation, _ make: @escaping () -> C, _ register: @escaping (any DistinctType, C) -> Void
    )
        -> Variant
    {
        Variant(implementation: implementation) { iterations in
            // Fresh containers are made before timing and released after it.
            let containers = (0..<iterations).map { _ in make() }
            return {
                for container in containers {
                    for type in types { register(type, container) }
                }
                blackHole(containers)
                return iterations * types.count
            }
        }
    }
    return Workload(
        name: "Register \(count) distinct types (per registration)",
        floor: "inserting `{ Leaf<Path>() }` into a mutex-guarded `[ObjectIdentifier: () -> Any]`",
        variants: [
            batches(.floor, ClosureDictionary.init) { type, dictionary in type.register(in: dictionary) },
            batches(.dependencyInjection, { DIContainer() }) { type, container in type.register(in: container) },
            batches(.swinject, { Swinject.Container() }) { type, container in type.register(in: container) },
        ],
        notApplicable: [.swiftDependencies])
}

/// Carries a value documented as thread-safe (Swinject's synchronized resolver) into threads.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
