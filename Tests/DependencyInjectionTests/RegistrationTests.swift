import DependencyInjection
import Testing

// How registrations are written and what registering again replaces.

@Suite(.timeLimit(.minutes(1))) struct RegistrationFormTests {
    @Test func noFormOfFactoryRunsBeforeItIsResolved() {
        final class Lamp { init() {} }
        let made = Tally()
        let box = DIContainer()
        box.register {
            Shared(Counted(made))  // an autoclosure
            Shared { _ in Counted(made) }.named("resolver closure")
            Shared { () -> Lamp in
                made.increment()
                return Lamp()
            }
        }
        #expect(made.value == 0)
        _ = box.resolve(Counted.self)
        #expect(made.value == 1)
        _ = box.resolve(Counted.self, name: "resolver closure")
        _ = box.resolve(Lamp.self)
        #expect(made.value == 3)
    }

    /// The forms of one `Shared` registration with aliases.
    enum AliasedForm: String, CaseIterable, Sendable {
        case initializerReference, autoclosure, resolverClosure

        var registration: Module {
            switch self {
            case .initializerReference: Module(Shared(RouterImpl.init, as: Router.self, DeeplinkHandler.self))
            case .autoclosure: Module(Shared(RouterImpl(), as: Router.self, DeeplinkHandler.self))
            case .resolverClosure: Module(Shared({ _ in RouterImpl() }, as: Router.self, DeeplinkHandler.self))
            }
        }
    }

    @Test(arguments: AliasedForm.allCases)
    func everyFormRegistersTheTypeAndEachAliasServedByOneEntry(form: AliasedForm) {
        let box = DIContainer()
        box.register(form.registration)
        let implementation = box.resolve(RouterImpl.self)
        #expect(box.resolve(Router.self) === implementation)
        #expect(box.resolve(DeeplinkHandler.self) === implementation)
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

@Suite(.timeLimit(.minutes(1))) struct RegistrationBuilderTests {
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

    @Test func compilerConditionsRegisterOnlyTheirActiveBranch() {
        let box = DIContainer()
        box.register {
            #if compiler(>=5.0)
                Shared(PostgresStore() as Store).named("if")
            #else
                Shared(MemoryStore() as Store).named("not compiled")
            #endif
            #if compiler(<5.0)
                Shared(PostgresStore() as Store).named("not compiled")
            #else
                Shared(MemoryStore() as Store).named("else")
            #endif
        }
        // Optional lookups, so a branch the builder dropped fails here by name, not by a trap.
        #expect(box.resolve(Store?.self, name: "if")?.kind == "postgres")
        #expect(box.resolve(Store?.self, name: "else")?.kind == "memory")
        #expect(box.resolve(Store?.self, name: "not compiled") == nil)
        #expect(box.registrations.count == 2)
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

@Suite(.timeLimit(.minutes(1))) struct ReplacementTests {
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
