import DependencyInjection
import Testing

// How registrations are written and what registering again replaces.

@Suite(.timeLimit(.minutes(1))) struct RegistrationFormTests {
    @Test func noFormOfFactoryRunsBeforeItIsResolved() throws {
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
        _ = try box.tryResolve(Counted.self)
        #expect(made.value == 1)
        _ = try box.tryResolve(Counted.self, name: "resolver closure")
        _ = try box.tryResolve(Lamp.self)
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
    func everyFormRegistersTheTypeAndEachAliasServedByOneEntry(form: AliasedForm) throws {
        let box = DIContainer()
        box.register(form.registration)
        let implementation = try box.tryResolve(RouterImpl.self)
        #expect(try box.tryResolve(Router.self) === implementation)
        #expect(try box.tryResolve(DeeplinkHandler.self) === implementation)
    }

    @Test func resolverClosureResolvesItsDependenciesFromTheContainer() throws {
        let box = DIContainer()
        box.register {
            Shared(AppConfigurationImpl() as AppConfiguration)
            Shared({ resolve in RouterImpl(config: resolve()) }, as: Router.self)
        }
        #expect(try box.tryResolve(Router.self).name == "RouterImpl(production)")
    }

    @Test func anAliasOfTheTypeItselfIsAccepted() throws {
        let box = DIContainer()
        try box.tryRegister(Shared(Engine(), as: Engine.self))
        #expect(try box.tryResolve(Engine.self) === box.tryResolve(Engine.self))
    }
}

@Suite(.timeLimit(.minutes(1))) struct RegistrationBuilderTests {
    @Test(arguments: [true, false])
    func ifAndElseChooseTheRegistration(useMocks: Bool) throws {
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
        #expect(try (box.tryResolve(Router.self) is MockRouter) == useMocks)
        #expect((box.resolve(Cache?.self) != nil) == useMocks)
    }

    @Test func forLoopRegistersEachIteration() throws {
        let box = DIContainer()
        let names = ["primary", "cache", "archive"]
        box.register {
            for name in names {
                Shared(MemoryStore() as Store).named(name)
            }
        }
        let stores = try names.map { try box.tryResolve(Store.self, name: $0) }
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

    @Test func registrationsAndNestedModulesMix() throws {
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
        #expect(try box.tryResolve(FeatureOne.self) is FeatureOneImplementation)
        #expect(try box.tryResolve(FeatureTwo.self) is FeatureTwoImplementation)
        #expect(try box.tryResolve(FeatureOneViewModel.self) !== box.tryResolve(FeatureOneViewModel.self))
    }

    @Test func aModuleCanBeRegisteredOnItsOwnAndIntoSeveralContainers() throws {
        let module = Module {
            Shared(Engine.init)
        }
        let first = DIContainer()
        let second = DIContainer()
        first.register(module)
        second.register(module)
        // One module, two containers: each makes its own instance.
        #expect(try first.tryResolve(Engine.self) !== second.tryResolve(Engine.self))
    }

    @Test func laterRegistrationsInABlockWinForTheSameType() throws {
        let box = DIContainer()
        box.register {
            Shared(PostgresStore() as Store)
            Shared(MemoryStore() as Store)
        }
        #expect(try box.tryResolve(Store.self).kind == "memory")
    }
}

@Suite(.timeLimit(.minutes(1))) struct ReplacementTests {
    @Test func registeringAgainForAnAliasReplacesOnlyThatAlias() throws {
        let box = DIContainer()
        box.register(Shared(RouterImpl.init, as: Router.self, DeeplinkHandler.self))
        let handler = try box.tryResolve(DeeplinkHandler.self)
        box.register(New(MockRouter() as Router))
        #expect(try box.tryResolve(Router.self) is MockRouter)
        #expect(try box.tryResolve(Router.self) !== box.tryResolve(Router.self))
        #expect(try box.tryResolve(DeeplinkHandler.self) === handler)
        #expect(try box.tryResolve(RouterImpl.self) === handler)
    }

    @Test func registeringAgainForTheImplementationKeepsItsAliases() throws {
        let box = DIContainer()
        box.register(Shared(RouterImpl.init, as: Router.self))
        let router = try box.tryResolve(Router.self)
        box.register(New(RouterImpl.init))
        #expect(try box.tryResolve(Router.self) === router)
        #expect(try box.tryResolve(RouterImpl.self) !== box.tryResolve(RouterImpl.self))
    }

    @Test func replacingARegistrationDropsItsInstance() throws {
        let box = DIContainer()
        box.register(Shared(Engine.init))
        let first = try box.tryResolve(Engine.self)
        box.register(Shared(Engine.init))
        #expect(try box.tryResolve(Engine.self) !== first)
    }

    @Test func replacingAnUnnamedRegistrationKeepsNamedOnes() throws {
        let box = DIContainer()
        box.register {
            Shared(PostgresStore() as Store)
            Shared(MemoryStore() as Store).named("cache")
        }
        box.register(Shared(PostgresStore() as Store))
        #expect(try box.tryResolve(Store.self, name: "cache").kind == "memory")
    }
}
