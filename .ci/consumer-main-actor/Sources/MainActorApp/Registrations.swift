import DependencyInjection

// Registrations of main-actor types, in every form, written in main-actor code (this module's
// default): each factory records the main actor and only ever runs there.

/// A module as a global (a main-actor global in this module).
public let featureModule = Module {
    Shared(Counter()).named("module")
    Shared(FeatureScreen())
}

/// A registration as a global.
public let globalRegistration = Shared { Counter() }.named("global")

/// Production registrations, on first use of `shared`.
nonisolated extension DIContainer: @retroactive DependencyRegistering {
    public static func registerDependencies() {
        register(Shared(ProductionService.init))
        register(Shared { @MainActor in Counter() }.named("production"))
    }
}

/// The names under which `everyForm()` registers `Counter`, one per form.
public let counterForms = [
    "expression", "closure", "resolverClosure", "initializer", "explicitMainActor", "throwing", "new",
]

/// The names of the `Counter` registrations made in global initializers (`featureModule`,
/// `globalRegistration`), where `#isolation` is `nil` although the globals are main-actor.
public let globalCounterForms = ["module", "global"]

/// Every registration form of the contract, for main-actor types, written in main-actor code.
public func everyForm() -> Module {
    Module {
        Shared(Counter()).named("expression")
        Shared { Counter() }.named("closure")
        Shared { _ in Counter() }.named("resolverClosure")
        Shared(Counter.init).named("initializer")
        Shared { @MainActor in Counter() }.named("explicitMainActor")
        Shared { resolve in
            _ = try resolve.tryResolve(AppConfiguration.self)
            return Counter()
        }.named("throwing")
        New(Counter()).named("new")

        Shared { Clock() }
        Shared { resolve in Ticker(clock: resolve()) }
        Shared(PrintLogger.init, as: Logger.self)
        Shared(LivePayments() as Payments)
        Shared(Checkout.init)
        New(ReceiptPrinter.init, as: Printer.self)
        New { resolve, id in DetailViewModel(id: id) }.named("direct")
        New({ resolver, id in DetailViewModel(id: id) }, as: ViewModelProtocol.self)
        Shared(AppConfigurationImpl() as AppConfiguration)
        Shared(RouterImpl.init, as: Router.self, DeeplinkHandler.self)
        Shared { resolve in try ConfiguredRouter(config: resolve.tryResolve()) }
        Shared(PostgresStore.init, as: Store.self).named("primary")
        Shared(MemoryStore.init, as: Store.self).named("cache")
        Weak(ImageCache.init)
        Graph(Session.init)
        New(Request.init)
        Shared(Parent.init)
            .onResolve { parent, resolve in parent.child = resolve() }
            .onResolve { parent, _ in parent.isWired = true }
        Shared { resolve in Child(parent: resolve()) }
        Shared(Warmup.init).eager()
        Shared { @MainActor in ProfileModel() }
    }
}

/// The registrations written in global initializers: `featureModule` and `globalRegistration`.
public func globalForms() -> Module {
    Module {
        featureModule
        globalRegistration
    }
}

/// Main-actor types registered from `nonisolated` code: only the forms typed `@MainActor`
/// (an initializer reference of a main-actor type, an explicit `@MainActor` closure) compile.
nonisolated public func mainActorTypesFromNonisolatedCode() -> Module {
    Module {
        Shared(Counter.init).named("nonisolatedInitializer")
        Shared { @MainActor in Counter() }.named("nonisolatedExplicit")
        New { @MainActor (_: Resolver, id: String) in DetailViewModel(id: id) }.named("nonisolatedArguments")
    }
}
