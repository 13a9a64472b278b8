import DependencyInjection
import Testing

// What a ResolutionError says, and that a failure leaves the container as it was.

private final class CheckoutScreen {
    let payments: PaymentService
    init(payments: PaymentService) { self.payments = payments }
}

private final class PaymentService {
    let router: Router
    init(router: Router) { self.router = router }
}

private protocol PrivateService: AnyObject {}
private final class PrivateServiceImpl: PrivateService {}

private final class Offline2: Error, CustomStringConvertible {
    var description: String { "the network is down" }
}

@Suite struct MissingRegistrationTests {
    @Test func missingRegistrationNamesTheTypeAndHowToFixIt() throws {
        let error = try #require(throws: ResolutionError.self) { try DIContainer().tryResolve(Router.self) }
        #expect(error.reason == .missingRegistration)
        #expect(error.typeName == "Router")
        #expect(error.name == nil)
        #expect(error.path == ["Router"])
        #expect(
            error.description == """
                No registration for 'Router'.
                To fix, register it: container.register { Shared(<#instance#> as Router) }
                """)
    }

    @Test func missingNestedDependencyCarriesTheWholePath() throws {
        let box = DIContainer()
        box.register {
            Shared { resolve in try CheckoutScreen(payments: resolve.tryResolve()) }
            Shared { resolve in try PaymentService(router: resolve.tryResolve()) }
        }
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(CheckoutScreen.self) }
        #expect(error.typeName == "Router")
        #expect(error.path == ["CheckoutScreen", "PaymentService", "Router"])
        #expect(error.description.contains("\nResolution path: CheckoutScreen -> PaymentService -> Router\n"))
    }

    @Test func pathNamesAliasesAsTheyWereRequested() throws {
        let box = DIContainer()
        box.register {
            Shared({ resolve in try RouterImpl(config: resolve.tryResolve()) }, as: Router.self)
        }
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(Router.self) }
        #expect(error.path == ["Router", "AppConfiguration"])
    }

    @Test func pathNamesNamedSteps() throws {
        let box = DIContainer()
        box.register {
            Shared { resolve in try PaymentService(router: resolve.tryResolve(name: "main")) }.named("card")
        }
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(PaymentService.self, name: "card") }
        #expect(error.path == ["PaymentService (name: \"card\")", "Router (name: \"main\")"])
    }

    @Test func missingRegistrationSuggestsConformingTypes() throws {
        let box = DIContainer()
        box.register { Shared(RouterImpl.init) }
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(Router.self) }
        #expect(error.conformingTypes == ["RouterImpl"])
        #expect(error.description.contains("Registered types that conform: 'RouterImpl'."))
    }

    @Test func missingRegistrationSuggestsSimilarNames() throws {
        let box = DIContainer()
        box.register { Shared(MemoryStore.init) }
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(Database.self) }
        #expect(error.similarTypes.isEmpty)
        let similar = try #require(throws: ResolutionError.self) { try box.tryResolve(Store.self) }
        // MemoryStore conforms to Store, so it is listed once, as conforming.
        #expect(similar.conformingTypes == ["MemoryStore"])
        #expect(similar.similarTypes.isEmpty)
    }

    @Test func staticAndInstanceAPIGiveTheSameErrorExceptWhereToRegister() throws {
        let box = DIContainer()
        let fromInstance = try #require(throws: ResolutionError.self) { try box.tryResolve(Router.self) }
        let fromStatic = try box.activate {
            try #require(throws: ResolutionError.self) { try DIContainer.tryResolve(Router.self) }
        }
        #expect(fromStatic.reason == fromInstance.reason)
        #expect(fromStatic.path == fromInstance.path)
        // The hint names the container the caller used: the static API, or a container of one's own.
        #expect(fromStatic.description.contains("DIContainer.register { Shared(<#instance#> as Router) }"))
        #expect(fromInstance.description.contains("container.register { Shared(<#instance#> as Router) }"))
    }

    @Test func aFailedResolutionLeavesTheContainerUsable() throws {
        let box = DIContainer()
        box.register {
            Shared { resolve in try PaymentService(router: resolve.tryResolve()) }
        }
        #expect(throws: ResolutionError.self) { try box.tryResolve(PaymentService.self) }
        box.register { Shared(RouterImpl() as Router) }
        #expect(try box.tryResolve(PaymentService.self).router === box.resolve(Router.self))
    }
}

@Suite struct FactoryErrorTests {
    @Test func aFactorysOwnErrorIsKeptAndNamed() throws {
        let box = DIContainer()
        box.register { Shared { _ throws -> Engine in throw Offline2() } }
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(Engine.self) }
        #expect(error.reason == .factoryFailed)
        #expect(error.underlyingError is Offline2)
        #expect(
            error.description.hasPrefix("The factory for 'Engine' threw an error: the network is down."))
    }

    @Test func aNestedFactoryErrorCarriesThePath() throws {
        let box = DIContainer()
        box.register {
            Shared { resolve in try PaymentService(router: resolve.tryResolve()) }
            Shared { _ throws -> Router in throw Offline() }
        }
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(PaymentService.self) }
        #expect(error.reason == .factoryFailed)
        #expect(error.typeName == "Router")
        #expect(error.path == ["PaymentService", "Router"])
        #expect(error.underlyingError is Offline)
    }

    @Test func aResolutionErrorThrownByAFactoryIsNotWrappedAgain() throws {
        let box = DIContainer()
        box.register {
            Shared { resolve in try PaymentService(router: resolve.tryResolve()) }
        }
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(PaymentService.self) }
        #expect(error.reason == .missingRegistration)
        #expect(error.underlyingError == nil)
    }
}

@Suite struct RegistrationErrorTests {
    @Test func nonConformingAliasNamesBothTypes() throws {
        let error = try #require(throws: ResolutionError.self) {
            try DIContainer().tryRegister(Shared(Engine(), as: Router.self))
        }
        #expect(error.reason == .aliasNotConforming(implementation: "Engine"))
        #expect(error.typeName == "Router")
        #expect(
            error.description.hasPrefix(
                "'Engine' does not conform to 'Router', so it cannot be registered as 'Router'."))
    }

    @Test func conformanceIsCheckedWithoutCallingTheFactory() {
        let made = Tally()
        #expect(throws: ResolutionError.self) {
            try DIContainer().tryRegister(Shared(Counted(made), as: Router.self))
        }
        #expect(made.value == 0)
    }

    @Test func aFailedRegistrationChangesNothing() throws {
        let box = DIContainer()
        box.register { Shared(RouterImpl() as Router) }
        let router = box.resolve(Router.self)
        #expect(throws: ResolutionError.self) {
            try box.tryRegister {
                New(MockRouter() as Router)
                Shared(MemoryStore() as Store)
                Shared(Engine(), as: Cache.self)
            }
        }
        #expect(box.resolve(Router.self) === router)
        #expect(box.resolve(Store?.self) == nil)
        #expect(box.resolve(Engine?.self) == nil)
    }

    @Test func classHierarchyAliasesAreAccepted() throws {
        class Base {}
        final class Derived: Base {}
        let box = DIContainer()
        try box.tryRegister(Shared(Derived(), as: Base.self))
        #expect(box.resolve(Base.self) === box.resolve(Derived.self))
        #expect(throws: ResolutionError.self) { try box.tryRegister(Shared(Base(), as: Derived.self)) }
    }

    @Test func privateProtocolAliasOfAConformingTypeIsAccepted() throws {
        let box = DIContainer()
        try box.tryRegister(Shared(PrivateServiceImpl(), as: PrivateService.self))
        #expect(box.resolve(PrivateService.self) === box.resolve(PrivateServiceImpl.self))
    }

    @Test func privateProtocolAliasOfANonConformingTypeFailsWhenResolved() throws {
        // The runtime cannot look a private protocol up by name, so this is caught by the cast
        // made once there is an instance.
        let box = DIContainer()
        try? box.tryRegister(Shared(Engine(), as: PrivateService.self))
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(PrivateService.self) }
        #expect(error.reason == .aliasNotConforming(implementation: "Engine"))
    }

    @Test func protocolCompositionAliasesAreChecked() throws {
        let box = DIContainer()
        try box.tryRegister(Shared(RouterImpl(), as: (Router & DeeplinkHandler).self))
        #expect(throws: ResolutionError.self) {
            try box.tryRegister(Shared(MockRouter(), as: (Router & DeeplinkHandler).self))
        }
    }
}

@Suite struct MutationDuringResolutionTests {
    @Test func registeringInsideAFactoryIsAnError() throws {
        let box = DIContainer()
        box.register {
            Shared { _ throws -> Engine in
                try DIContainer.tryRegister(Shared(MemoryStore() as Store))
                return Engine()
            }
        }
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(Engine.self) }
        #expect(error.reason == .mutationDuringResolution(operation: "register"))
        #expect(error.typeName == "Engine")
        #expect(box.resolve(Store?.self) == nil)
    }

    @Test func registeringInsideOnResolveIsAnError() throws {
        let box = DIContainer()
        box.register {
            // Unowned: the container keeps this closure, so a strong capture would be a retain cycle.
            Shared(Engine.init).onResolve { [unowned box] _, _ in try box.tryRegister(Shared(MemoryStore() as Store)) }
        }
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(Engine.self) }
        #expect(error.reason == .mutationDuringResolution(operation: "register"))
    }

    @Test func registeringInAnotherContainerInsideAFactoryIsAllowed() throws {
        let other = DIContainer()
        let box = DIContainer()
        box.register {
            Shared { _ throws -> Engine in
                try other.tryRegister(Shared(MemoryStore() as Store))
                return Engine()
            }
        }
        _ = try box.tryResolve(Engine.self)
        #expect(other.resolve(Store.self).kind == "memory")
    }
}
