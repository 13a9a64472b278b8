import DependencyInjection

// The API contract's registration and resolution lines (GettingStarted), verbatim.
DIContainer.register {
    Shared(AppConfigurationImpl() as AppConfiguration)  // autoclosure, lazy
    Shared(RouterImpl() as Router)
}
DIContainer.register(New(MockRouter() as Router))  // one registration
DIContainer.register(Shared(RouterImpl.init, as: Router.self, DeeplinkHandler.self))  // aliases
DIContainer.register {
    Shared { resolve in RouterImpl(config: resolve()) }  // resolver closure
}

let featureOne = Module {
    Shared(FeatureOneImplementation() as FeatureOne)
    New(FeatureOneViewModelImplementation() as FeatureOneViewModel)
}
let featureTwo = Module(Shared(FeatureTwoImplementation() as FeatureTwo))
DIContainer.register {
    featureOne
    featureTwo
}

let router = DIContainer.resolve(Router.self)
bar(router: DIContainer.resolve())  // inferred

DIContainer.register {
    New({ resolver, id in ConcreteViewModel(id: id) }, as: ViewModelProtocol.self)
    New { _, id in ConcreteViewModel(id: id) as ViewModelProtocol }
}
_ = DIContainer.resolve(ViewModelProtocol.self, arguments: { "id_goes_here" })

final class Screen {
    @Inject var router: Router  // resolved in init
    @LazyInject var config: AppConfiguration  // resolved on first access
    @MutableInject var tracker: Tracker  // settable
    @MutableLazyInject var cache: Cache  // lazy and settable
    @Inject var player: MediaPlayer?  // nil when nothing is registered
}

// The API contract's names and graph lines (NamesAndArguments, Diagnostics), verbatim where
// statements.
DIContainer.register {
    Shared(PostgresStore.init, as: Store.self).named("primary")
    Shared(MemoryStore.init, as: Store.self).named("cache")
}
let cache = DIContainer.resolve(Store.self, name: "cache")
final class Sync { @Inject(name: "primary") var store: Store }

DIContainer.register {
    Weak(ImageCache.init)  // shared while anyone holds it, then made anew (classes)
    Graph(Session.init)  // one instance per top-level resolution
    Shared(Database.init).eager()  // made as soon as its register call ends
}
DIContainer.register {
    Shared(Parent.init).onResolve { parent, resolve in parent.child = resolve() }
    Shared { resolve in Child(parent: resolve()) }
}
func errorsThatDoNotTrap() throws {
    do {
        let router = try DIContainer.tryResolve(Router.self)
        _ = router
    } catch let error as ResolutionError {
        print(error)  // names the type, the name, the resolution path, and a hint
    }
}
try errorsThatDoNotTrap()
DIContainer.register {
    Shared { resolve in try ConfiguredRouter(config: resolve.tryResolve()) }
}
do {
    try DIContainer.tryRegister(Shared(Engine(), as: Router.self))  // throws
} catch {
    print("tryRegister threw as promised")
}

let box = DIContainer()
box.register { Shared(Engine.init) }
let engine = box.resolve(Engine.self)
let feature = DIContainer(parent: box)
_ = DIContainer.shared
_ = DIContainer.current
box.activate {
    _ = Sync.self
}
DIContainer.withOverrides {
    New(MockRouter() as Router)
} operation: {
    _ = DIContainer.resolve(Router.self)
}
DIContainer.releaseInstances()
let report = DIContainer.validate()
print(report)
print(report.isValid)
print(DIContainer.shared.registrations)
let dot = DIContainer.shared.dependencyGraph()
DIContainer.reset()
_ = (router, cache, engine, feature, dot)

// The API contract's modules, property wrappers, global actors and async factories
// (ConcurrencyAndActors), verbatim where statements; its `Screen` is a local type (beside the
// registration lines' `Screen`).
DIContainer.register(section4Dependencies)
check((try? DIContainer.tryResolve(Store.self, name: "cache")) != nil, "Store \"cache\" is registered")

// Autowired initializers: every parameter is resolved from the container
final class Checkout { init(payments: Payments, logger: Logger) {} }
DIContainer.register {
    Shared(Checkout.init)  // payments and logger resolved
    New(ReceiptPrinter.init, as: Printer.self)  // any lifetime, with aliases and names
}

// Several post-creation actions, run in the order written
DIContainer.register {
    Shared(Parent.init)
        .onResolve { parent, resolve in parent.child = resolve() }
        .onResolve { parent, _ in parent.isWired = true }
}

// Optional resolution with arguments: nil when nothing is registered for ViewModelProtocol
let model = DIContainer.resolve(ViewModelProtocol?.self, arguments: { "id" })

// Removing one registration (also on any container); true when something was removed
let removed: Bool = DIContainer.unregister(Router.self)
DIContainer.unregister(Store.self, name: "cache")

// Lazy wrappers tell whether they resolved yet
do {
    final class Screen { @LazyInject var config: AppConfiguration }
    let resolvedYet: Bool = Screen().$config.isResolved
    check(!resolvedYet, "Screen().$config.isResolved is false before the first access")
    let screen = Screen()
    _ = screen.config
    check(screen.$config.isResolved, "$config.isResolved is true after the first access")
}

// Global actors: a factory isolated to one runs only there
DIContainer.register {
    Shared { @DatabaseActor in Database() }  // made on DatabaseActor (by prepare() or an async resolve)
}

// Async factories, made exactly once across tasks
DIContainer.register {
    Shared { resolve async throws in try await RemoteConfig.load(client: resolve()) }
}
try await DIContainer.prepare()  // makes every async, eager and global-actor Shared (any container too)
let config = DIContainer.resolve(RemoteConfig.self)  // synchronous access once it is made

// Those lines behave as written.
let checkout = DIContainer.resolve(Checkout.self)
check(DIContainer.resolve(Checkout.self) === checkout, "Shared(Checkout.init) is autowired and shared")
let printer = DIContainer.resolve(Printer.self)
check(printer is ReceiptPrinter, "New(ReceiptPrinter.init, as: Printer.self) resolves as Printer")
check(
    (DIContainer.resolve(Printer.self) as? ReceiptPrinter) !== (printer as? ReceiptPrinter),
    "New makes a new ReceiptPrinter each time")
let parent = DIContainer.resolve(Parent.self)
check(parent.child != nil && parent.isWired, "both onResolve actions ran")
check(model == nil, "resolve(ViewModelProtocol?.self, arguments:) is nil while nothing is registered")
DIContainer.register(New { _, id in ConcreteViewModel(id: id) as ViewModelProtocol })
check(
    DIContainer.resolve(ViewModelProtocol?.self, arguments: { "id" }) != nil,
    "resolve(ViewModelProtocol?.self, arguments:) is the instance once registered")
check(removed, "unregister(Router.self) returned true")
check(!DIContainer.unregister(Router.self), "unregister(Router.self) again returned false")
check((try? DIContainer.tryResolve(Store.self, name: "cache")) == nil, "unregister(Store.self, name:) removed it")
check(config.source == "remote", "prepare() made RemoteConfig; resolve returns it synchronously")
check((try? DIContainer.tryResolve(Database.self)) != nil, "prepare() made Database on DatabaseActor")

// Before prepare(): a synchronous resolve says to await it; an async resolve makes it, once.
let actors = DIContainer()
actors.register {
    section4Dependencies
    Shared { @DatabaseActor in GlobalActorDatabase() }
    Shared { resolve async throws in try await RemoteConfig.load(client: resolve()) }
}
do {
    _ = try actors.tryResolve(GlobalActorDatabase.self)
    check(false, "a global-actor Shared resolved synchronously before it was made")
} catch let error as ResolutionError {
    check(error.reason == .notYetMade(actor: "DatabaseActor"), "before it is made: \(error.reason)")
    check(error.description.contains("prepare()"), "the message says to await it")
}
do {
    _ = try actors.tryResolve(RemoteConfig.self)
    check(false, "an async Shared resolved synchronously before it was made")
} catch let error as ResolutionError {
    check(error.reason == .notYetMade(actor: nil), "an async Shared before it is made: \(error.reason)")
}
let databases = try await withThrowingTaskGroup(of: GlobalActorDatabase.self) { group in
    for _ in 0..<10 { group.addTask { try await actors.resolveAsync(GlobalActorDatabase.self) } }
    var made: [GlobalActorDatabase] = []
    for try await database in group { made.append(database) }
    return made
}
check(databases.allSatisfy { $0 === databases[0] }, "10 concurrent resolveAsync calls got one instance")
check(await GlobalActorDatabase.made == 1, "the DatabaseActor factory ran once, on DatabaseActor")
try await actors.prepare()
check(actors.resolve(RemoteConfig.self).source == "remote", "box.prepare() made the async Shared")

// A function registered as a value (a function type as the service) never registers silently.
let functions = DIContainer()
do {
    try functions.tryRegister(Shared { Checkout.init })
    check(false, "Shared { Checkout.init } (a function as the service) registered")
} catch {
    check(
        (error as? ResolutionError)?.reason == .functionRegistered
            && "\(error)".contains("(Payments, Logger) -> Checkout' is a function type"),
        "Shared { Checkout.init } (a function as the service) is refused when registered, naming the function")
}
check(functions.registrations.isEmpty, "the refused registration left nothing registered")

DIContainer.reset()

// Isolation, validate(), scopes, resolveAll, decorators, factory closures: their lines are in Section5.swift (functions, as a user's app would have them); run and check them.
try await checkSection5()

DIContainer.reset()
print("contract check ran")
