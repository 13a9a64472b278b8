import DependencyInjection
import Testing

// What a ResolutionError says: the type, the name, the path, and how to fix it.

/// Types whose names appear in the messages below (internal, so conformances can be listed).
enum ErrorMessageFixtures {
    protocol PaymentGateway: AnyObject {}
    final class StripeGateway: PaymentGateway { init() {} }

    final class CheckoutScreen {
        init(payments: PaymentService) {}
    }
    final class PaymentService {
        init(gateway: PaymentGateway) {}
    }
    final class Ledger {
        init(audit: Audit) {}
    }
    final class Audit {
        init(ledger: Ledger) {}
        init() {}
    }
    final class Archive {
        init(ledger: Ledger) {}
    }
    struct Offline: Error {}
}

private typealias F = ErrorMessageFixtures

/// Checkout -> PaymentService -> PaymentGateway, with factories that pass failures up.
private func registerCheckout(in box: DIContainer) {
    box.register {
        Shared { resolve in try F.CheckoutScreen(payments: resolve.tryResolve()) }
        Shared { resolve in try F.PaymentService(gateway: resolve.tryResolve()) }
    }
}

/// Ledger <-> Audit through factories: a cycle that cannot be broken.
private func registerCycle(in box: DIContainer) {
    box.register {
        Shared { resolve in try F.Ledger(audit: resolve.tryResolve()) }
        Shared { resolve in try F.Audit(ledger: resolve.tryResolve()) }
        New { resolve in try F.Archive(ledger: resolve.tryResolve()) }
    }
}

@Suite struct ErrorMessageTests {
    @Test func aMissingRegistrationNamesTheTypeAndHowToRegisterIt() throws {
        let box = DIContainer()
        let error = try #require(resolutionError { try box.tryResolve(F.PaymentGateway.self) })
        #expect(error.reason == .missingRegistration)
        #expect(error.typeName == "PaymentGateway")
        #expect(error.name == nil)
        #expect(error.path == ["PaymentGateway"])
        #expect(
            error.description == """
                No registration for 'PaymentGateway' (name: nil).
                Registered types that conform: none.
                To fix, register it: DIContainer.register { Shared(PaymentGatewayImpl() as PaymentGateway) }
                """)
    }

    @Test func aNestedMissingRegistrationCarriesTheWholePath() throws {
        let box = DIContainer()
        registerCheckout(in: box)
        let error = try #require(resolutionError { try box.tryResolve(F.CheckoutScreen.self) })
        #expect(error.reason == .missingRegistration)
        #expect(error.typeName == "PaymentGateway")
        #expect(error.path == ["CheckoutScreen", "PaymentService", "PaymentGateway"])
        #expect(
            error.description == """
                No registration for 'PaymentGateway' (name: nil).
                Resolution path: CheckoutScreen -> PaymentService -> PaymentGateway
                Registered types that conform: none.
                To fix, register it: DIContainer.register { Shared(PaymentGatewayImpl() as PaymentGateway) }
                """)
    }

    @Test func aMissingRegistrationSuggestsRegisteredTypesThatConform() throws {
        let box = DIContainer()
        registerCheckout(in: box)
        box.register(Shared(F.StripeGateway.init).named("stripe"))
        let error = try #require(resolutionError { try box.tryResolve(F.PaymentService.self) })
        #expect(error.conformingTypes == ["StripeGateway"])
        #expect(error.registeredNames == ["stripe"] || error.registeredNames.isEmpty)
        #expect(error.description.contains("Registered types that conform: 'StripeGateway'."))
        #expect(error.description.contains("Shared(StripeGateway() as PaymentGateway)"))
    }

    @Test func aNamedMissListsTheRegisteredNames() throws {
        let box = DIContainer()
        box.register {
            Shared(PostgresStore.init, as: Store.self).named("primary")
            Shared(MemoryStore.init, as: Store.self).named("cache")
        }
        let error = try #require(resolutionError { try box.tryResolve(Store.self, name: "tape") })
        #expect(error.name == "tape")
        #expect(
            error.description == """
                No registration for 'Store' (name: "tape").
                Registered names for 'Store': "cache", "primary".
                Registered types that conform: 'MemoryStore', 'PostgresStore'.
                To fix, register it: DIContainer.register { Shared(MemoryStore() as Store).named("tape") }
                """)
    }

    @Test func aCycleIsReportedWithItsSteps() throws {
        let box = DIContainer()
        registerCycle(in: box)
        let error = try #require(resolutionError { try box.tryResolve(F.Ledger.self) })
        #expect(error.reason == .dependencyCycle(cycle: ["Ledger", "Audit", "Ledger"]))
        #expect(error.description.hasPrefix("Dependency cycle: Ledger -> Audit -> Ledger.\n"))
        #expect(error.description.contains("onResolve"))
    }

    @Test func aCycleEnteredFromOutsideShowsTheCycleAndThePathToIt() throws {
        let box = DIContainer()
        registerCycle(in: box)
        let error = try #require(resolutionError { try box.tryResolve(F.Archive.self) })
        #expect(error.reason == .dependencyCycle(cycle: ["Ledger", "Audit", "Ledger"]))
        #expect(error.path == ["Archive", "Ledger", "Audit", "Ledger"])
        #expect(error.description.contains("Resolution path: Archive -> Ledger -> Audit -> Ledger"))
    }

    @Test func aContainerWorksAfterReportingACycle() throws {
        let box = DIContainer()
        registerCycle(in: box)
        _ = resolutionError { try box.tryResolve(F.Ledger.self) }
        box.register(Shared(F.Audit()))
        let ledger = try box.tryResolve(F.Ledger.self)
        #expect(box.resolve(F.Ledger.self) === ledger)
    }

    @Test func aFactorysOwnErrorIsKeptAndNamed() throws {
        let box = DIContainer()
        box.register(Shared { _ throws -> F.PaymentService in throw F.Offline() })
        let error = try #require(resolutionError { try box.tryResolve(F.PaymentService.self) })
        #expect(error.reason == .factoryFailed)
        #expect(error.underlyingError is F.Offline)
        #expect(
            error.description == """
                The factory for 'PaymentService' (name: nil) threw an error: Offline().
                To fix, make the factory succeed, or handle the error where you call tryResolve (underlyingError keeps it).
                """)
    }

    @Test func aNestedFactoryErrorKeepsItsPathAndOriginalError() throws {
        let box = DIContainer()
        registerCheckout(in: box)
        box.register(Shared { _ throws -> F.PaymentGateway in throw F.Offline() })
        let error = try #require(resolutionError { try box.tryResolve(F.CheckoutScreen.self) })
        #expect(error.reason == .factoryFailed)
        #expect(error.typeName == "PaymentGateway")
        #expect(error.path == ["CheckoutScreen", "PaymentService", "PaymentGateway"])
        #expect(error.underlyingError is F.Offline)
        #expect(error.description.contains("Resolution path: CheckoutScreen -> PaymentService -> PaymentGateway"))
    }

    @Test func aNonConformingAliasNamesBothTypesAndChangesNothing() throws {
        let box = DIContainer()
        box.register(Shared(F.StripeGateway() as F.PaymentGateway))
        let before = box.resolve(F.PaymentGateway.self)
        let error = try #require(resolutionError { try box.tryRegister(Shared(Engine(), as: F.PaymentGateway.self)) })
        #expect(error.reason == .aliasNotConforming(implementation: "Engine"))
        #expect(error.typeName == "PaymentGateway")
        #expect(
            error.description == """
                'Engine' does not conform to 'PaymentGateway', so it cannot be registered as 'PaymentGateway'.
                To fix, make 'Engine' conform to 'PaymentGateway', or remove 'PaymentGateway.self' from `as:`.
                """)
        #expect(box.resolve(F.PaymentGateway.self) === before)
        #expect(box.resolve(Engine?.self) == nil)
    }

    @Test func theStaticTryRegisterThrowsTheSameError() throws {
        let box = DIContainer()
        let error = try #require(resolutionError {
            try box.activate { try DIContainer.tryRegister(Shared(Engine(), as: Router.self)) }
        })
        #expect(error.reason == .aliasNotConforming(implementation: "Engine"))
        #expect(box.resolve(Engine?.self) == nil)
    }

    @Test func registeringFromInsideAFactoryOfTheSameContainerIsAnError() throws {
        let box = DIContainer()
        box.register(Shared { _ throws -> F.Audit in
            try DIContainer.tryRegister(Shared(Engine.init))
            return F.Audit()
        })
        let error = try #require(resolutionError { try box.tryResolve(F.Audit.self) })
        #expect(error.reason == .mutationDuringResolution(operation: "register"))
        #expect(error.description.hasPrefix("register() was called on a container while it was resolving 'Audit'"))
        #expect(box.resolve(Engine?.self) == nil)
    }

    @Test func aFactoryMayRegisterInAnotherContainer() throws {
        let box = DIContainer()
        let other = DIContainer()
        box.register(Shared { _ throws -> F.Audit in
            try other.tryRegister(Shared(Engine.init))
            return F.Audit()
        })
        _ = try box.tryResolve(F.Audit.self)
        #expect(other.resolve(Engine?.self) != nil)
    }

    @Test func printingTheErrorGivesItsDescription() throws {
        let box = DIContainer()
        registerCheckout(in: box)
        let error = try #require(resolutionError { try box.tryResolve(F.CheckoutScreen.self) })
        #expect(String(describing: error) == error.description)
        #expect("\(error)" == error.description)
    }
}
