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
        New(Worker.init)
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
    container.register(Worker.self) { _ in Worker() }.inObjectScope(.transient)
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

/// Carries a value documented as thread-safe (Swinject's synchronized resolver) into threads.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
