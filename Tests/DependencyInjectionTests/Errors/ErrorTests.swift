import DependencyInjection
import Testing

// What a ResolutionError says, and that a failure leaves the container as it was.

private final class PaymentService {
    let router: Router
    init(router: Router) { self.router = router }
}

/// Resembles `Database` by name without being one.
private final class DatabaseImpl { init() {} }

private protocol PrivateService: AnyObject {}
private final class PrivateServiceImpl: PrivateService {}

private final class Offline2: Error, CustomStringConvertible {
    var description: String { "the network is down" }
}

@Suite(.timeLimit(.minutes(1))) struct MissingRegistrationTests {
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

    @Test func missingRegistrationSuggestsSimilarNames() throws {
        let box = DIContainer()
        box.register {
            Shared(DatabaseImpl.init)
            Shared(MemoryStore.init)
        }
        let similar = try #require(throws: ResolutionError.self) { try box.tryResolve(Database.self) }
        #expect(similar.conformingTypes.isEmpty)
        #expect(similar.similarTypes == ["DatabaseImpl"])
        #expect(
            similar.description == """
                No registration for 'Database'.
                Did you mean: 'DatabaseImpl'?
                To fix, register it: container.register { Shared(Database.init) }
                """)
        // Nothing resembles Engine: no suggestion.
        let unrelated = try #require(throws: ResolutionError.self) { try box.tryResolve(Engine.self) }
        #expect(unrelated.similarTypes.isEmpty)
        #expect(!unrelated.description.contains("Did you mean"))
        // MemoryStore conforms to Store, so it is listed once, as conforming, not as similar.
        let conforming = try #require(throws: ResolutionError.self) { try box.tryResolve(Store.self) }
        #expect(conforming.conformingTypes == ["MemoryStore"])
        #expect(conforming.similarTypes.isEmpty)
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

    @Test func printingTheErrorGivesItsDescription() throws {
        let box = DIContainer()
        box.register { Shared { resolve in try PaymentService(router: resolve.tryResolve()) } }
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(PaymentService.self) }
        #expect(String(describing: error) == error.description)
        #expect("\(error)" == error.description)
    }
}

@Suite(.timeLimit(.minutes(1))) struct FactoryErrorTests {
    /// BadInputCatalogueTests has the whole message; here the error describes itself.
    @Test func aFactorysErrorAppearsAsItDescribesItself() throws {
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

@Suite(.timeLimit(.minutes(1))) struct RegistrationErrorTests {
    @Test func conformanceIsCheckedWithoutCallingTheFactory() {
        let made = Tally()
        #expect(throws: ResolutionError.self) {
            try DIContainer().tryRegister(Shared(Counted(made), as: Router.self))
        }
        #expect(made.value == 0)
    }

    @Test func classHierarchyAliasesAreAccepted() throws {
        class Base {}
        final class Derived: Base {}
        let box = DIContainer()
        try box.tryRegister(Shared(Derived(), as: Base.self))
        #expect(try box.tryResolve(Base.self) === box.tryResolve(Derived.self))
        #expect(throws: ResolutionError.self) { try box.tryRegister(Shared(Base(), as: Derived.self)) }
    }

    @Test func privateProtocolAliasOfAConformingTypeIsAccepted() throws {
        let box = DIContainer()
        try box.tryRegister(Shared(PrivateServiceImpl(), as: PrivateService.self))
        #expect(try box.tryResolve(PrivateService.self) === box.tryResolve(PrivateServiceImpl.self))
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

private final class MutatingAsyncService: Sendable {}

@Suite(.timeLimit(.minutes(1))) struct MutationDuringResolutionTests {
    @Test func registeringInsideOnResolveIsAnError() throws {
        let box = DIContainer()
        box.register {
            // Unowned: the container keeps this closure, so a strong capture would be a retain cycle.
            Shared(Engine.init).onResolve { [unowned box] _, _ in try box.tryRegister(Shared(MemoryStore() as Store)) }
        }
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(Engine.self) }
        #expect(error.reason == .mutationDuringResolution(operation: "register"))
    }

    /// An async factory runs outside the library's lock, but is a factory of its container all the same.
    @Test func registeringInsideAnAsyncFactoryOfTheContainerIsAnError() async throws {
        let box = DIContainer()
        box.register {
            Shared { [unowned box] _ async throws -> MutatingAsyncService in
                try box.tryRegister(Shared(MemoryStore() as Store))
                return MutatingAsyncService()
            }
        }
        let error = try await #require(throws: ResolutionError.self) {
            try await box.resolveAsync(MutatingAsyncService.self)
        }
        #expect(error.reason == .mutationDuringResolution(operation: "register"))
        #expect(try box.tryResolve(Store?.self) == nil)
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
        #expect(try other.tryResolve(Store.self).kind == "memory")
    }
}
