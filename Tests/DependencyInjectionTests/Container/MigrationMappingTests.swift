import DependencyInjection
import Testing

private final class MigrationPet {}
private final class MigrationCheckout { init(pet: MigrationPet) {} }
private final class MigrationBasket {
    let first: MigrationCheckout, second: MigrationCheckout
    init(first: MigrationCheckout, second: MigrationCheckout) { (self.first, self.second) = (first, second) }
}

// Migrating.md's Swinject and Factory tables, each "after" checked against what the "before" did.
@Suite struct MigrationMappingTests {
    /// Swinject: `autoregister(MigrationCheckout.self, initializer: MigrationCheckout.init)` has the
    /// default `.graph` scope: two dependents made in one resolve share one checkout.
    @Test func swinjectsAutoregisterSharesWithinOneResolution() {
        let box = DIContainer()
        box.register {
            Shared(MigrationPet.init)
            Graph(MigrationCheckout.init)  // the article's row
            New(MigrationBasket.init)
        }
        let basket = box.resolve(MigrationBasket.self)
        #expect(basket.first === basket.second)
    }

    /// Factory: `Container.shared.store.reset()` undoes the test's override of `store` and drops its
    /// instance, and leaves every other factory as it was.
    @Test func factorysPerServiceResetLeavesTheOtherServices() {
        let box = DIContainer()
        box.register {
            Shared(PostgresStore() as Store)
            Shared(Engine.init)
        }
        box.register { New(MemoryStore() as Store) }  // Container.shared.store.register { MemoryStore() }
        box.register { Shared(PostgresStore() as Store) }  // the article's row for Container.shared.store.reset()
        #expect(box.resolve(Engine?.self) != nil)
        #expect(box.resolve(Store?.self)?.kind == "postgres")
    }

    /// The original's aliases followed the implementation's registration; here they are listed again
    /// (Migrating.md, "An alias keeps the registration it was registered with").
    @Test func registeringTheImplementationAgainServesItsAliasesAsInTheOriginal() {
        let box = DIContainer()
        box.register(Shared(RouterImpl.init, as: Router.self, DeeplinkHandler.self))
        box.register(Shared(RouterImpl(config: AppConfigurationImpl()), as: Router.self, DeeplinkHandler.self))
        #expect(box.resolve(Router.self) === box.resolve(RouterImpl.self))
    }
}
