import DependencyInjection
import Testing

// The exact text of ResolutionError messages (ErrorTests covers what each error carries).

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
    @Test func aNestedMissingRegistrationCarriesTheWholePath() throws {
        let box = DIContainer()
        registerCheckout(in: box)
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(F.CheckoutScreen.self) }
        #expect(error.reason == .missingRegistration)
        #expect(error.typeName == "PaymentGateway")
        #expect(error.path == ["CheckoutScreen", "PaymentService", "PaymentGateway"])
        #expect(
            error.description == """
                No registration for 'PaymentGateway'.
                Resolution path: CheckoutScreen -> PaymentService -> PaymentGateway
                To fix, register it: container.register { Shared(<#instance#> as PaymentGateway) }
                """)
    }

    @Test func aNamedMissListsTheRegisteredNames() throws {
        let box = DIContainer()
        box.register {
            Shared(PostgresStore.init, as: Store.self).named("primary")
            Shared(MemoryStore.init, as: Store.self).named("cache")
        }
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(Store.self, name: "tape") }
        #expect(error.name == "tape")
        #expect(
            error.description == """
                No registration for 'Store' (name: "tape").
                Registered names for 'Store': "cache", "primary".
                Registered types that conform: 'MemoryStore', 'PostgresStore'.
                To fix, register it: container.register { Shared(MemoryStore.init, as: Store.self).named("tape") }
                """)
    }

    @Test func aCycleEnteredFromOutsideShowsTheCycleAndThePathToIt() throws {
        let box = DIContainer()
        registerCycle(in: box)
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(F.Archive.self) }
        #expect(error.reason == .dependencyCycle(cycle: ["Ledger", "Audit", "Ledger"]))
        #expect(error.path == ["Archive", "Ledger", "Audit", "Ledger"])
        #expect(error.description.contains("Resolution path: Archive -> Ledger -> Audit -> Ledger"))
    }

    @Test func aFactorysOwnErrorIsKeptAndNamed() throws {
        let box = DIContainer()
        box.register(Shared { _ throws -> F.PaymentService in throw F.Offline() })
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(F.PaymentService.self) }
        #expect(error.reason == .factoryFailed)
        #expect(error.underlyingError is F.Offline)
        #expect(
            error.description == """
                The factory for 'PaymentService' threw an error: Offline().
                To fix, make the factory succeed, or handle the error where you call tryResolve (underlyingError keeps it).
                """)
    }

    @Test func aNonConformingAliasNamesBothTypesAndChangesNothing() throws {
        let box = DIContainer()
        box.register(Shared(F.StripeGateway() as F.PaymentGateway))
        let before = box.resolve(F.PaymentGateway.self)
        let error = try #require(throws: ResolutionError.self) {
            try box.tryRegister(Shared(Engine(), as: F.PaymentGateway.self))
        }
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
        let error = try #require(throws: ResolutionError.self) {
            try box.activate { try DIContainer.tryRegister(Shared(Engine(), as: Router.self)) }
        }
        #expect(error.reason == .aliasNotConforming(implementation: "Engine"))
        #expect(box.resolve(Engine?.self) == nil)
    }

    @Test func printingTheErrorGivesItsDescription() throws {
        let box = DIContainer()
        registerCheckout(in: box)
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(F.CheckoutScreen.self) }
        #expect(String(describing: error) == error.description)
        #expect("\(error)" == error.description)
    }
}
