import DependencyInjection
import Testing

// How registrations are written and what registering again replaces.

@Suite struct RegistrationFormTests {
    @Test func autoclosureIsEvaluatedOnFirstResolveNotAtRegistration() {
        let made = Tally()
        let box = DIContainer()
        box.register { Shared(Counted(made)) }
        #expect(made.value == 0)
        _ = box.resolve(Counted.self)
        #expect(made.value == 1)
    }

    @Test func initializerReferenceRegistersTheTypeAndEachAlias() {
        let box = DIContainer()
        box.register(Shared(RouterImpl.init, as: Router.self, DeeplinkHandler.self))
        let implementation = box.resolve(RouterImpl.self)
        #expect(box.resolve(Router.self) === implementation)
        #expect(box.resolve(DeeplinkHandler.self) === implementation)
    }

    @Test func autoclosureWithAliasesServesEveryAliasFromOneEntry() {
        let box = DIContainer()
        box.register(Shared(RouterImpl(), as: Router.self, DeeplinkHandler.self))
        #expect(box.resolve(Router.self) === box.resolve(DeeplinkHandler.self))
        #expect(box.resolve(RouterImpl.self) === box.resolve(Router.self))
    }

    @Test func resolverClosureResolvesItsDependenciesFromTheContainer() {
        let box = DIContainer()
        box.register {
            Shared(AppConfigurationImpl() as AppConfiguration)
            Shared({ resolve in RouterImpl(config: resolve()) }, as: Router.self)
        }
        #expect(box.resolve(Router.self).name == "RouterImpl(production)")
    }

    @Test func anAliasOfTheTypeItselfIsAccepted() throws {
        let box = DIContainer()
        try box.tryRegister(Shared(Engine(), as: Engine.self))
        #expect(box.resolve(Engine.self) === box.resolve(Engine.self))
    }
}

@Suite struct RegistrationBuilderTests {
    @Test(arguments: [true, false])
    func ifAndElseChooseTheRegistration(useMocks: Bool) {
        let box = DIContainer()
        box.register {
            if useMocks {
                New(MockRouter() as Router)
            } else {
                Shared(RouterImpl() as Router)
            }
            if useMocks {
                Shared(CacheImpl() as Cache)
            }
        }
        #expect((box.resolve(Router.self) is MockRouter) == useMocks)
        #expect((box.resolve(Cache?.self) != nil) == useMocks)
    }

    @Test func forLoopRegistersEachIteration() {
        let box = DIContainer()
        let names = ["primary", "cache", "archive"]
        box.register {
            for name in names {
                Shared(MemoryStore() as Store).named(name)
            }
        }
        let stores = names.map { box.resolve(Store.self, name: $0) }
        #expect(Set(stores.map(ObjectIdentifier.init)).count == names.count)
    }

    @Test func compilerConditionsSelectTheirBranch() {
        let box = DIContainer()
        box.register {
            #if compiler(>=5.0)
                Shared(PostgresStore() as Store)
            #else
                Shared(MemoryStore() as Store)
            #endif
        }
        #expect(box.resolve(Store.self).kind == "postgres")
    }

    @Test func registrationsAndNestedModulesMix() {
        let inner = Module(Shared(FeatureTwoImplementation() as FeatureTwo))
        let outer = Module {
            Shared(FeatureOneImplementation() as FeatureOne)
            inner
        }
        let box = DIContainer()
        box.register {
            outer
            New(FeatureOneViewModelImplementation() as FeatureOneViewModel)
        }
        #expect(box.resolve(FeatureOne.self) is FeatureOneImplementation)
        #expect(box.resolve(FeatureTwo.self) is FeatureTwoImplementation)
        #expect(box.resolve(FeatureOneViewModel.self) !== box.resolve(FeatureOneViewModel.self))
    }

    @Test func aModuleCanBeRegisteredOnItsOwnAndIntoSeveralContainers() {
        let module = Module {
            Shared(Engine.init)
        }
        let first = DIContainer()
        let second = DIContainer()
        first.register(module)
        second.register(module)
        // One module, two containers: each makes its own instance.
        #expect(first.resolve(Engine.self) !== second.resolve(Engine.self))
    }

    @Test func laterRegistrationsInABlockWinForTheSameType() {
        let box = DIContainer()
        box.register {
            Shared(PostgresStore() as Store)
            Shared(MemoryStore() as Store)
        }
        #expect(box.resolve(Store.self).kind == "memory")
    }
}

@Suite struct ReplacementTests {
    @Test func registeringAgainForAnAliasReplacesOnlyThatAlias() {
        let box = DIContainer()
        box.register(Shared(RouterImpl.init, as: Router.self, DeeplinkHandler.self))
        let handler = box.resolve(DeeplinkHandler.self)
        box.register(New(MockRouter() as Router))
        #expect(box.resolve(Router.self) is MockRouter)
        #expect(box.resolve(Router.self) !== box.resolve(Router.self))
        #expect(box.resolve(DeeplinkHandler.self) === handler)
        #expect(box.resolve(RouterImpl.self) === handler)
    }

    @Test func registeringAgainForTheImplementationKeepsItsAliases() {
        let box = DIContainer()
        box.register(Shared(RouterImpl.init, as: Router.self))
        let router = box.resolve(Router.self)
        box.register(New(RouterImpl.init))
        #expect(box.resolve(Router.self) === router)
        #expect(box.resolve(RouterImpl.self) !== box.resolve(RouterImpl.self))
    }

    @Test func replacingARegistrationDropsItsInstance() {
        let box = DIContainer()
        box.register(Shared(Engine.init))
        let first = box.resolve(Engine.self)
        box.register(Shared(Engine.init))
        #expect(box.resolve(Engine.self) !== first)
    }

    @Test func replacingAnUnnamedRegistrationKeepsNamedOnes() {
        let box = DIContainer()
        box.register {
            Shared(PostgresStore() as Store)
            Shared(MemoryStore() as Store).named("cache")
        }
        box.register(Shared(PostgresStore() as Store))
        #expect(box.resolve(Store.self, name: "cache").kind == "memory")
    }
}
