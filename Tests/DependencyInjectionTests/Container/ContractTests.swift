import DependencyInjection
import Testing

// The contract's examples, verbatim where they are statements, each run in its own container.

private func bar(router: Router) -> String { router.name }

@Suite(.timeLimit(.minutes(1))) struct SeedContractTests {
    @Test func seedContractCompilesAndBehaves() {
        DIContainer().activate {
            DIContainer.register {
                Shared(AppConfigurationImpl() as AppConfiguration)  // autoclosure, lazy
                Shared(RouterImpl() as Router)
            }
            DIContainer.register(New(MockRouter() as Router))  // one registration
            #expect(DIContainer.resolve(Router.self).name == "MockRouter")
            DIContainer.register(Shared(RouterImpl.init, as: Router.self, DeeplinkHandler.self))  // aliases
            #expect(DIContainer.resolve(Router.self) === DIContainer.resolve(DeeplinkHandler.self) as AnyObject)
            DIContainer.register {
                Shared { resolve in RouterImpl(config: resolve()) }  // resolver closure
            }
            #expect(DIContainer.resolve(RouterImpl.self).name == "RouterImpl(production)")

            let featureOne = Module {
                Shared(FeatureOneImplementation() as FeatureOne)
                New(FeatureOneViewModelImplementation() as FeatureOneViewModel)
            }
            let featureTwo = Module(Shared(FeatureTwoImplementation() as FeatureTwo))
            DIContainer.register {
                featureOne
                featureTwo
            }
            #expect(DIContainer.resolve(FeatureOne.self) === DIContainer.resolve(FeatureOne.self))
            #expect(DIContainer.resolve(FeatureOneViewModel.self) !== DIContainer.resolve(FeatureOneViewModel.self))
            #expect(DIContainer.resolve(FeatureTwo.self) is FeatureTwoImplementation)

            let router = DIContainer.resolve(Router.self)
            #expect(bar(router: DIContainer.resolve()) == router.name)  // inferred
            // Registering RouterImpl itself again left Router and DeeplinkHandler to the alias entry.
            #expect(router === DIContainer.resolve(DeeplinkHandler.self) as AnyObject)
            #expect(router !== DIContainer.resolve(RouterImpl.self))

            DIContainer.register {
                New({ resolver, id in ConcreteViewModel(id: id) }, as: ViewModelProtocol.self)
                New { _, a, b, c in Presenter(a, b, c) as PresenterProtocol }
            }
            #expect(DIContainer.resolve(ViewModelProtocol.self, arguments: { "id_goes_here" }).id == "id_goes_here")
            #expect(
                DIContainer.resolve(PresenterProtocol.self) { ("argument 1", 23, "argument 3") }.summary
                    == "argument 1|23|argument 3")
            DIContainer.register {
                New { _, id in ConcreteViewModel(id: id) as ViewModelProtocol }
            }
            #expect(DIContainer.resolve(ViewModelProtocol.self, arguments: { "second" }).id == "second")

            DIContainer.register {
                New(TrackerImpl() as Tracker)
                Shared(CacheImpl() as Cache)
            }
            let screen = Screen()
            #expect(screen.router === DIContainer.resolve(Router.self))
            #expect(screen.config.environment == "production")
            #expect(screen.player == nil)
            let replacement = TrackerImpl()
            screen.tracker = replacement
            #expect(screen.tracker === replacement)
            #expect(screen.cache === DIContainer.resolve(Cache.self))
            let otherCache = CacheImpl()
            screen.cache = otherCache
            #expect(screen.cache === otherCache)
        }
    }
}

@Suite(.timeLimit(.minutes(1))) struct BeyondTheSeedContractTests {
    /// Shadows the fixture's `Database` so the contract's `eager()` line shows when it is made.
    final class Database {
        static let made = Tally()
        init() { Self.made.increment() }
    }

    @Test func namesLifetimesAndCyclesCompileAndBehave() throws {
        let box = DIContainer()
        try box.activate {
            DIContainer.register {
                Shared(PostgresStore.init, as: Store.self).named("primary")
                Shared(MemoryStore.init, as: Store.self).named("cache")
            }
            let cache = DIContainer.resolve(Store.self, name: "cache")
            #expect(cache.kind == "memory")
            final class Sync { @Inject(name: "primary") var store: Store }
            #expect(Sync().store.kind == "postgres")

            let databasesBefore = Database.made.value
            DIContainer.register {
                Weak(ImageCache.init)
                Graph(Session.init)
                Shared(Database.init).eager()
            }
            #expect(Database.made.value == databasesBefore + 1, "eager: made as soon as its register call ends")
            _ = DIContainer.resolve(Database.self)
            #expect(Database.made.value == databasesBefore + 1, "eager is still Shared")

            var image: ImageCache? = DIContainer.resolve(ImageCache.self)
            #expect(DIContainer.resolve(ImageCache.self) === image, "Weak: shared while someone holds it")
            weak let released = image
            image = nil
            #expect(released == nil, "Weak: the container does not keep it")

            DIContainer.register { New { resolve in Pair(resolve(Session.self), resolve(Session.self)) } }
            let sessions = DIContainer.resolve(Pair<Session, Session>.self)
            #expect(sessions.first === sessions.second, "Graph: one instance for every dependency of one resolve()")
            #expect(DIContainer.resolve(Session.self) !== DIContainer.resolve(Session.self), "Graph: one per resolve()")
            DIContainer.register {
                Shared(Parent.init).onResolve { parent, resolve in parent.child = resolve() }
                Shared { resolve in Child(parent: resolve()) }
            }
            let parent = DIContainer.resolve(Parent.self)
            #expect(parent.child?.parent === parent)

            do {
                let router = try DIContainer.tryResolve(Router.self)
                Issue.record("resolved \(router) although nothing is registered")
            } catch let error as ResolutionError {
                #expect(error.description.contains("No registration for 'Router'"))
            }
            DIContainer.register {
                Shared { resolve in try ConfiguredRouter(config: resolve.tryResolve()) }
            }
            #expect(throws: ResolutionError.self) { try DIContainer.tryResolve(ConfiguredRouter.self) }
            #expect(throws: ResolutionError.self) { try DIContainer.tryRegister(Shared(Engine(), as: Router.self)) }
        }
    }

    @Test func containersScopingAndOverridesCompileAndBehave() async throws {
        let box = DIContainer()
        box.register { Shared(Engine.init) }
        let engine = box.resolve(Engine.self)
        let feature = DIContainer(parent: box)
        #expect(feature.resolve(Engine.self) === engine)
        #expect(DIContainer.current === DIContainer.shared)
        box.activate {
            #expect(DIContainer.current === box)
        }
        registerScreenDependencies(in: box)
        box.activate {
            DIContainer.withOverrides {
                New(MockRouter() as Router)
            } operation: {
                let screen = Screen()
                #expect(screen.router.name == "MockRouter")
            }
            #expect(Screen().router.name != "MockRouter")
        }
        let ok = try await box.activate {
            try await DIContainer.withOverrides {
                New(MockRouter() as Router)
            } operation: { () async throws -> Bool in
                await Task.yield()
                return DIContainer.resolve(Router.self).name == "MockRouter"
            }
        }
        #expect(ok)
        box.activate {
            DIContainer.releaseInstances()
            #expect(DIContainer.resolve(Engine.self) !== engine)
            let report = DIContainer.validate()
            #expect(report.isValid)
            #expect(!String(describing: DIContainer.current.registrations).isEmpty)
            #expect(DIContainer.current.dependencyGraph().hasPrefix("digraph"))
            DIContainer.reset()
            #expect((try? DIContainer.tryResolve(Engine.self)) == nil)
        }
    }
}

@MainActor final class ProfileModel { init() {} }

@Suite(.timeLimit(.minutes(1))) struct ActorContractTests {
    @MainActor @Test func mainActorFactoryResolvesOnTheMainActor() {
        let box = DIContainer()
        box.activate {
            DIContainer.register {
                Shared { @MainActor in ProfileModel() }  // a main-actor factory
            }
            let model = DIContainer.resolve(ProfileModel.self)
            #expect(model === DIContainer.resolve(ProfileModel.self))
        }
    }
}
