import DependencyInjection
import Testing

// A fix names a type as it compiles where the user registers or resolves: a nested type with its
// enclosing types (`Feature.Inner`), never its module. And "Did you mean" never offers a type that is
// on the resolution path (the service that needed the missing one).

// Not private: the runtime names a private type's context "unknown", which no fix can spell.
enum NestedMessagesFeature {
    final class Inner {}
    final class NeedsInner { init(inner: Inner) {} }
    protocol Payments {}
    final class StripePayments: Payments { init() {} }
    final class Checkout { init(payments: any Payments) {} }
    struct Box<Value> {}
    final class Detail { init(id: String) {} }
}

final class NestedMessagesLedger {}
final class NestedMessagesLedgerUser { init(ledger: NestedMessagesLedger) {} }
final class NestedMessagesLedgerStore {}

@Suite struct NestedTypeMessageTests {
    @Test func aMissingNestedClassIsRegisteredByItsQualifiedName() throws {
        let box = DIContainer()
        box.register { Shared(NestedMessagesFeature.NeedsInner.init) }
        let error = try #require(throws: ResolutionError.self) {
            try box.tryResolve(NestedMessagesFeature.NeedsInner.self)
        }
        // The headline and the path name the types as before; the fix compiles outside the enum.
        #expect(
            error.description == """
                No registration for 'Inner'.
                Resolution path: NeedsInner -> Inner
                To fix, register it: container.register { Shared(NestedMessagesFeature.Inner.init) }
                """)
        #expect(error.similarTypes.isEmpty)
    }

    @Test func aMissingNestedProtocolAndItsNestedConformingTypeAreQualified() throws {
        let box = DIContainer()
        box.register {
            Shared(NestedMessagesFeature.StripePayments.init)
            Shared(NestedMessagesFeature.Checkout.init)
        }
        let error = try #require(throws: ResolutionError.self) {
            try box.tryResolve(NestedMessagesFeature.Checkout.self)
        }
        #expect(error.conformingTypes == ["StripePayments"])
        #expect(
            error.description.hasSuffix(
                "To fix, register it: container.register { Shared(NestedMessagesFeature.StripePayments.init, "
                    + "as: NestedMessagesFeature.Payments.self) }"), "\(error)")
    }

    @Test func aGenericArgumentIsQualifiedToo() throws {
        let box = DIContainer()
        let error = try #require(throws: ResolutionError.self) {
            try box.tryResolve(NestedMessagesFeature.Box<NestedMessagesFeature.Inner>.self)
        }
        #expect(
            error.description.hasSuffix(
                "Shared(<#NestedMessagesFeature.Box<NestedMessagesFeature.Inner> value#>) }"), "\(error)")
    }

    @Test func aResolveInAFixNamesANestedTypeQualified() throws {
        let box = DIContainer()
        box.register { New { (_, id: String) in NestedMessagesFeature.Detail(id: id) } }
        let error = try #require(throws: ResolutionError.self) {
            try box.tryResolve(NestedMessagesFeature.Detail.self, arguments: { 7 })
        }
        #expect(error.description.contains(".resolve(NestedMessagesFeature.Detail.self) { … }"), "\(error)")
    }

    @Test func anExistentialArgumentFixNamesNestedTypesQualified() throws {
        let box = DIContainer()
        box.register {
            New { (_: Resolver, payments: any NestedMessagesFeature.Payments) in NestedMessagesFeature.Inner() }
        }
        let error = try #require(throws: ResolutionError.self) {
            try box.tryResolve(NestedMessagesFeature.Inner.self, arguments: { NestedMessagesFeature.StripePayments() })
        }
        #expect(
            error.description.hasSuffix(
                "container.resolve(NestedMessagesFeature.Inner.self) { NestedMessagesFeature.StripePayments() "
                    + "as any NestedMessagesFeature.Payments }."), "\(error)")
    }

    @Test func theServiceThatNeededTheMissingOneIsNotSuggestedAsSimilar() throws {
        let box = DIContainer()
        box.register { Shared(NestedMessagesLedgerUser.init) }
        let alone = try #require(throws: ResolutionError.self) { try box.tryResolve(NestedMessagesLedgerUser.self) }
        #expect(alone.similarTypes.isEmpty)
        #expect(!alone.description.contains("Did you mean"), "\(alone)")

        // A similar type off the path is still suggested.
        box.register { Shared(NestedMessagesLedgerStore.init) }
        let other = try #require(throws: ResolutionError.self) { try box.tryResolve(NestedMessagesLedgerUser.self) }
        #expect(other.similarTypes == ["NestedMessagesLedgerStore"])
        #expect(other.description.contains("Did you mean: 'NestedMessagesLedgerStore'?"), "\(other)")
    }
}
