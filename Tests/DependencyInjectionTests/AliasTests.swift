import DependencyInjection
import Testing

// `as:` aliases: one entry serves the registered type and every alias; overrides are per slot.

private protocol Navigator: AnyObject { var label: String { get } }
private protocol LinkOpener: AnyObject {}
private final class AppNavigator: Navigator, LinkOpener {
    let label = "app"
    init() {}
    init(counting counter: FactoryCallCounter) { counter.increment() }
}
private final class FakeNavigator: Navigator { let label = "fake" }
private class Vehicle { init() {} }
private final class Bicycle: Vehicle {}
private final class Anchor { init() {} }

@Suite struct AliasTests {
    @Test func oneEntryServesTheTypeAndAllItsAliases() {
        let made = FactoryCallCounter()
        let box = DIContainer()
        box.register(Shared({ AppNavigator(counting: made) }, as: Navigator.self, LinkOpener.self))
        let navigator = box.resolve(AppNavigator.self)
        #expect(box.resolve(Navigator.self) === navigator)
        #expect(box.resolve(LinkOpener.self) === navigator)
        #expect(made.value == 1)
    }

    @Test func anInitializerReferenceWithAliasesRegistersItsOwnType() {
        let box = DIContainer()
        box.register(Shared(AppNavigator.init, as: Navigator.self))
        #expect(box.resolve(AppNavigator?.self) != nil)
        #expect(box.resolve(Navigator.self) === box.resolve(AppNavigator.self))
    }

    @Test func anExpressionCastWithAsRegistersOnlyTheCastType() {
        let box = DIContainer()
        box.register(Shared(AppNavigator() as Navigator))
        #expect(box.resolve(Navigator?.self) != nil)
        #expect(box.resolve(AppNavigator?.self) == nil)
        #expect(box.resolve(LinkOpener?.self) == nil)
    }

    @Test func newWithAliasesMakesOneInstancePerResolveWhicheverSlotIsAsked() {
        let box = DIContainer()
        box.register(New(AppNavigator.init, as: Navigator.self, LinkOpener.self))
        #expect(box.resolve(Navigator.self) !== box.resolve(Navigator.self))
        #expect(box.resolve(Navigator.self) !== box.resolve(AppNavigator.self))
    }

    @Test func overridingOneAliasKeepsTheOthersSharedInstance() {
        let box = DIContainer()
        box.register(Shared(AppNavigator.init, as: Navigator.self, LinkOpener.self))
        let original = box.resolve(AppNavigator.self)
        box.register(New(FakeNavigator() as Navigator))
        #expect(box.resolve(Navigator.self).label == "fake")
        #expect(box.resolve(LinkOpener.self) === original)
        #expect(box.resolve(AppNavigator.self) === original)
    }

    @Test func overridingTheRegisteredTypeKeepsTheAliasesOnTheOriginalEntry() {
        let box = DIContainer()
        box.register(Shared(AppNavigator.init, as: Navigator.self, LinkOpener.self))
        let original = box.resolve(Navigator.self)
        box.register(Shared(AppNavigator.init))
        #expect(box.resolve(AppNavigator.self) !== original)
        #expect(box.resolve(Navigator.self) === original)
        #expect(box.resolve(LinkOpener.self) === original)
    }

    @Test func releaseInstancesKeepsAliasesSharingOneNewInstance() {
        let box = DIContainer()
        box.register(Shared(AppNavigator.init, as: Navigator.self, LinkOpener.self))
        let first = box.resolve(Navigator.self)
        box.releaseInstances()
        let second = box.resolve(LinkOpener.self)
        #expect(second !== first)
        #expect(box.resolve(Navigator.self) === second)
        #expect(box.resolve(AppNavigator.self) === second)
    }

    @Test func releaseInstancesReachesARootWhoseOwnSlotWasReplaced() {
        let box = DIContainer()
        box.register(Shared(AppNavigator.init, as: Navigator.self))
        let first = box.resolve(Navigator.self)
        box.register(Shared(AppNavigator.init))
        box.releaseInstances()
        #expect(box.resolve(Navigator.self) !== first)
    }

    @Test func aSuperclassIsAValidAlias() {
        let box = DIContainer()
        box.register(Shared(Bicycle.init, as: Vehicle.self))
        #expect(box.resolve(Vehicle.self) === box.resolve(Bicycle.self))
    }

    @Test func aProtocolCompositionIsAValidAlias() {
        let box = DIContainer()
        box.register(Shared(AppNavigator.init, as: (any Navigator & LinkOpener).self))
        #expect(box.resolve((any Navigator & LinkOpener).self) === box.resolve(AppNavigator.self))
    }

    @Test func registeringATypeAsItselfIsAccepted() {
        let box = DIContainer()
        box.register(Shared(Anchor.init, as: Anchor.self))
        #expect(box.resolve(Anchor.self) === box.resolve(Anchor.self))
    }

    @Test func aliasesCarryTheRegistrationName() {
        let box = DIContainer()
        box.register(Shared(AppNavigator.init, as: Navigator.self).named("main"))
        #expect(box.resolve(Navigator.self, name: "main") === box.resolve(AppNavigator.self, name: "main"))
        #expect(box.resolve(Navigator?.self) == nil)
    }

    @Test func anAliasToAPrivateProtocolIsAccepted() {
        // Regression: a private protocol's mangled name cannot be looked up at run time, and
        // conforming registrations used to be refused as "does not conform".
        let box = DIContainer()
        box.register(Shared(AppNavigator.init, as: Navigator.self, LinkOpener.self))
        #expect(box.resolve(Navigator.self).label == "app")
    }

    @Test func aNonConformingAliasToAPrivateProtocolFailsWhenResolvedNotWithACrash() throws {
        let box = DIContainer()
        try box.tryRegister(Shared(Bicycle.init, as: Navigator.self))
        let error = try #require(resolutionError { try box.tryResolve(Navigator.self) })
        #expect(error.reason == .aliasNotConforming(implementation: "Bicycle"))
    }

    @Test func aNonConformingAliasIsRefusedAndChangesNothing() throws {
        // `Router` (Fixtures.swift) is internal: its conformances can be checked from types alone.
        let box = DIContainer()
        box.register(Shared(MockRouter() as Router))
        let error = try #require(resolutionError {
            try box.tryRegister {
                Shared(Anchor.init)
                Shared(RouterImpl.init, as: Router.self)
                Shared(Bicycle.init, as: Router.self)
            }
        })
        #expect(error.reason == .aliasNotConforming(implementation: "Bicycle"))
        #expect(error.typeName == "Router")
        #expect(box.resolve(Router.self).name == "MockRouter")
        #expect(box.resolve(Anchor?.self) == nil)
        #expect(box.resolve(RouterImpl?.self) == nil)
    }

    @Test func aConformanceCheckDoesNotCallTheFactory() {
        let made = FactoryCallCounter()
        let box = DIContainer()
        _ = try? box.tryRegister(Shared({ () -> Bicycle in
            made.increment()
            return Bicycle()
        }, as: Router.self))
        #expect(made.value == 0)
    }

    @Test func registeringAnOptionalTypeIsRefused() throws {
        let box = DIContainer()
        let nothing: Navigator? = nil
        let error = try #require(resolutionError { try box.tryRegister(Shared(nothing)) })
        #expect(error.reason == .optionalRegistration)
        #expect(box.resolve(Navigator?.self) == nil)
    }
}
