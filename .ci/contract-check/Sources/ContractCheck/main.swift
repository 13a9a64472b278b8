import DependencyInjection

// Contract §1, verbatim.
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

// Contract §2, verbatim where statements.
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
print("contract check ran")
