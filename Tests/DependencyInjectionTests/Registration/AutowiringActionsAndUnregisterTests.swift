import DependencyInjection
import Testing

// What users of Swinject, Factory and EasyDi rely on: autowiring, several onResolve actions,
// optionals with arguments, value-type lazy wrappers, messages, unregister, projected values.

private protocol Wallet: AnyObject {}
private final class CardWallet: Wallet {}
private final class Ledger { init() {} }
private final class Till {
    let payments: Wallet
    let log: Ledger
    init(payments: Wallet, log: Ledger) {
        self.payments = payments
        self.log = log
    }
}
private protocol ReceiptSink: AnyObject {}
private final class PaperReceipts: ReceiptSink {
    let log: Ledger
    init(log: Ledger) { self.log = log }
}
private final class Wiring {
    var steps: [String] = []
    init() {}
}
private final class Puppy { init() {} }
private protocol Companion: AnyObject {}
private struct Leash {}
private final class LazyHolder {
    @LazyInject var log: Ledger
    init() {}
}
private struct Doghouse {
    @MutableLazyInject var log: Ledger
}
private struct CountedKennel {
    @MutableLazyInject var value: Counted
    init() {}
}
private final class LazyPair {
    @LazyInject var shared: Ledger
    @LazyInject var fresh: Puppy
    init() {}
}
private final class EitherInit {
    let viaEmpty: Bool
    init() { viaEmpty = true }
    init(log: Ledger) { viaEmpty = false }
}

private final class P1 { init() {} }
private final class P2 { init() {} }
private final class P3 { init() {} }
private final class P4 { init() {} }
private final class P5 { init() {} }
private final class P6 { init() {} }
private final class P7 { init() {} }
private final class P8 { init() {} }
private final class P9 { init() {} }
private final class P10 { init() {} }
private final class TenParameters {
    let parts: [AnyObject]
    init(_ a: P1, _ b: P2, _ c: P3, _ d: P4, _ e: P5, _ f: P6, _ g: P7, _ h: P8, _ i: P9, _ j: P10) {
        parts = [a, b, c, d, e, f, g, h, i, j]
    }
}

/// An initializer that throws: autowired like any other, its error reported as the factory's.
private final class Vault {
    struct Locked: Error {}
    init(log: Ledger, locked: Bool) throws { if locked { throw Locked() } }
    convenience init(log: Ledger) throws { try self.init(log: log, locked: false) }
}
private final class LockedVault { init(log: Ledger) throws { throw Vault.Locked() } }
extension DIScope { fileprivate static let vaults = DIScope("vaults") }

@Suite(.timeLimit(.minutes(1)))
struct AutowiringTests {
    @Test func aThrowingInitializerIsAutowiredAndItsErrorIsTheFactorys() async throws {
        let box = DIContainer()
        try box.tryRegister {
            Shared(Ledger.init)
            Shared(Vault.init(log:))
            Shared(LockedVault.init)
            Scoped(.vaults, Vault.init(log:)).named("scoped")
        }
        #expect(await onThread { (try? box.tryResolve(Vault.self)) != nil } == true)
        #expect(await onThread { (try? box.tryResolve(Vault.self, name: "scoped")) != nil } == true)
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(LockedVault.self) }
        #expect(error.reason == .factoryFailed && error.underlyingError is Vault.Locked, "\(error)")
    }

    @Test func anInitializerWithTenParametersIsAutowired() throws {
        let box = DIContainer()
        box.register {
            Shared(P1.init)
            Shared(P2.init)
            Shared(P3.init)
            Shared(P4.init)
            Shared(P5.init)
            Shared(P6.init)
            Shared(P7.init)
            Shared(P8.init)
            Shared(P9.init)
            Shared(P10.init)
            New(TenParameters.init)
        }
        let made = try box.tryResolve(TenParameters.self)
        #expect(made.parts.count == 10)
        #expect(made.parts[9] === (try box.tryResolve(P10.self)))
    }

    @Test func anInitializerReferencePicksTheInitWithoutParametersWhenBothExist() {
        let box = DIContainer()
        box.register {
            Shared(EitherInit.init)
            Shared(Ledger.init)
        }
        #expect(box.resolve(EitherInit.self).viaEmpty)
    }

    @Test func anInitializerIsRegisteredWithItsParametersResolvedByType() throws {
        let box = DIContainer()
        box.register {
            Shared(CardWallet() as Wallet)
            Shared(Ledger.init)
            Shared(Till.init)
            New(PaperReceipts.init, as: ReceiptSink.self)
        }
        let checkout = try box.tryResolve(Till.self)
        #expect(checkout.payments === (try box.tryResolve(Wallet.self)))
        #expect(checkout.log === (try box.tryResolve(Ledger.self)))
        #expect(try box.tryResolve(Till.self) === checkout)
        let printer = try #require(try box.tryResolve(ReceiptSink.self) as? PaperReceipts)
        #expect(printer.log === checkout.log)
        #expect(try box.tryResolve(ReceiptSink.self) !== printer)
        #expect(box.dependencyGraph().contains("->"))
        #expect(box.validate().isValid)
    }

    @Test func aMissingParameterIsReportedWithItsPath() throws {
        let box = DIContainer()
        box.register {
            Shared(Ledger.init)
            Shared(Till.init)
        }
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(Till.self) }
        #expect(error.reason == .missingRegistration)
        #expect(error.path == ["Till", "Wallet"])
        let report = box.validate()
        #expect(report.problems.map(\.registration) == ["Till"])
    }

    @Test func aFunctionTypeAsTheServiceIsRefusedWhenRegistered() throws {
        let box = DIContainer()
        let makeDog: () -> Puppy = { Puppy() }
        // A closure that returns the function: the service is the function type itself.
        let line = #line + 1  // #require's line: a macro's closure is placed where it starts
        let error = try #require(throws: ResolutionError.self) {
            try box.tryRegister(Shared { () -> () -> Puppy in makeDog })
        }
        #expect(error.reason == .functionRegistered)
        #expect(
            error.description == """
                '() -> Puppy' is a function type: the registration makes a function, not a service.
                Registered at DependencyInjectionTests/AutowiringActionsAndUnregisterTests.swift:\(line).
                To fix, register the initializer with its parameters registered as services \
                (Shared(Checkout.init) resolves each one), or take arguments: New { resolve, id in Detail(id: id) }.
                """)
        #expect(box.registrations.isEmpty)
    }

    /// An async closure without parameters is no async factory (those take the resolver): it is
    /// the value registered, a function, and the fix says to take the resolver.
    @Test func anAsyncClosureWithoutTheResolverIsRefusedWithTheAsyncForm() throws {
        let box = DIContainer()
        let line = #line + 1  // #require's line: a macro's closure is placed where it starts
        let error = try #require(throws: ResolutionError.self) {
            try box.tryRegister(Shared { () async throws -> Puppy in Puppy() })
        }
        #expect(error.reason == .functionRegistered)
        #expect(
            error.description == """
                '() async throws -> Puppy' is a function type: the registration makes a function, not a service.
                Registered at DependencyInjectionTests/AutowiringActionsAndUnregisterTests.swift:\(line).
                To fix, take the resolver, as an async factory does: Shared { _ async throws in … }.
                """)
    }

    @Test func validateFlagsArgumentsInferredAsMetatypes() {
        let box = DIContainer()
        box.register { New { (_: Resolver, id: Any.Type) in Puppy() }.named("metatype") }
        #expect(box.validate().problems.map(\.error.reason) == [.argumentInferredAsMetatype("(Any.Type)")])
    }
}

@Suite(.timeLimit(.minutes(1)))
struct OnResolveActionsTests {
    @Test func everyActionRunsInTheOrderWritten() throws {
        let box = DIContainer()
        box.register {
            New(Wiring.init)
                .onResolve { wired, _ in wired.steps.append("first") }
                .onResolve { wired, _ in wired.steps.append("second") }
                .onResolve { wired, _ in wired.steps.append("third") }
        }
        #expect(try box.tryResolve(Wiring.self).steps == ["first", "second", "third"])
    }
}

@Suite(.timeLimit(.minutes(1)))
struct OptionalWithArgumentsTests {
    @Test func anOptionalWithArgumentsIsNilWhenNothingIsRegistered() throws {
        let box = DIContainer()
        #expect(try box.tryResolve(ViewModelProtocol?.self, arguments: { "id" }) == nil)
        #expect(box.resolve(ViewModelProtocol?.self, arguments: { "id" }) == nil)
    }

    @Test func anOptionalWithArgumentsIsTheValueWhenRegistered() throws {
        let box = DIContainer()
        box.register { New { (_, id: String) in ConcreteViewModel(id: id) as ViewModelProtocol } }
        #expect(try box.tryResolve(ViewModelProtocol?.self, arguments: { "seven" })?.id == "seven")
    }

    @Test func anArgumentMismatchStaysAnError() throws {
        let box = DIContainer()
        box.register { New { (_, id: String) in ConcreteViewModel(id: id) as ViewModelProtocol } }
        let error = try #require(throws: ResolutionError.self) {
            try box.tryResolve(ViewModelProtocol?.self, arguments: { 7 })
        }
        #expect(error.reason == .argumentMismatch(expected: "(String)", received: "(Int)"))
    }
}

@Suite(.timeLimit(.minutes(1)))
struct LazyWrapperTests {
    @Test func mutableLazyInjectCopiesAreIndependentOnceSet() throws {
        let box = DIContainer()
        box.register { Shared(Ledger.init) }
        let shared = try box.tryResolve(Ledger.self)
        box.activate {
            var first = Doghouse()
            let second = first
            let replacement = Ledger()
            first.log = replacement
            #expect(first.log === replacement)
            #expect(second.log === shared)
            #expect(second.log !== replacement)
        }
    }

    @Test func theProjectedValueTellsWhetherItResolvedAndResolvesAgain() throws {
        let box = DIContainer()
        box.register { New(Ledger.init) }
        let screen = box.activate { LazyHolder() }
        #expect(!screen.$log.isResolved)
        #expect(screen.$log.resolvedOrNil == nil)
        let first = screen.log
        #expect(screen.$log.isResolved)
        #expect(screen.$log.resolvedOrNil === first)
        #expect(screen.log === first)
        screen.$log.reset()
        #expect(!screen.$log.isResolved)
        #expect(screen.log !== first)
    }

    @Test func resettingALazyWrapperGivesTheSharedInstanceAgainAndANewOneForNew() {
        let box = DIContainer()
        box.register {
            Shared(Ledger.init)
            New(Puppy.init)
        }
        let pair = box.activate { LazyPair() }
        let shared = pair.shared
        let fresh = pair.fresh
        pair.$shared.reset()
        pair.$fresh.reset()
        #expect(!pair.$fresh.isResolved)
        #expect(pair.$fresh.resolvedOrNil == nil)
        #expect(pair.shared === shared)
        #expect(pair.fresh !== fresh)
    }

    @Test func copiesOfAMutableLazyInjectMadeBeforeItResolvedShareItsResolutionAndItsReset() {
        let box = DIContainer()
        let made = Tally()
        box.register { New { Counted(made) } }
        box.activate {
            let original = CountedKennel()
            var copy = original
            let first = original.value
            #expect(copy.value === first)
            #expect(made.value == 1)
            original.$value.reset()
            #expect(!copy.$value.isResolved)
            let second = copy.value
            #expect(second !== first)
            #expect(original.value === second)
            copy.value = Counted(made)
            #expect(original.value === second)
            #expect(copy.value !== second)
        }
    }
}

@Suite(.timeLimit(.minutes(1)))
struct UnregisterTests {
    @Test func unregisterRemovesOneSlotAndSaysWhetherThereWasOne() throws {
        let box = DIContainer()
        box.register { Shared(RouterImpl.init, as: Router.self, DeeplinkHandler.self) }
        #expect(box.unregister(Router.self))
        #expect(!box.unregister(Router.self))
        #expect((try? box.tryResolve(Router.self)) == nil)
        // The alias slot removed only itself: the registration still serves the others.
        #expect(try box.tryResolve(DeeplinkHandler.self) === (try box.tryResolve(RouterImpl.self)))
        box.register { Shared(MemoryStore.init, as: Store.self).named("cache") }
        #expect(box.unregister(Store.self, name: "cache"))
        #expect(try box.tryResolve(Store?.self, name: "cache") == nil)
    }

    @Test func unregisteringTheOwnTypeLeavesTheAliasesServedByOneInstance() {
        let box = DIContainer()
        box.register { Shared(RouterImpl.init, as: Router.self, DeeplinkHandler.self) }
        let router = box.resolve(Router.self)
        #expect(box.unregister(RouterImpl.self))
        #expect(box.resolve(RouterImpl?.self) == nil)
        #expect(box.resolve(DeeplinkHandler.self) === router)
        box.releaseInstances()
        let again = box.resolve(Router.self)
        #expect(again !== router)
        #expect(box.resolve(DeeplinkHandler.self) === again)
    }

    @Test func anInstanceIsReleasedOnlyWhenItsLastSlotIsUnregistered() {
        let box = DIContainer()
        box.register { Shared(RouterImpl.init, as: Router.self) }
        weak var instance: RouterImpl?
        instance = box.resolve(RouterImpl.self)
        #expect(box.unregister(Router.self))
        #expect(instance != nil)
        #expect(box.unregister(RouterImpl.self))
        #expect(instance == nil)
    }

    @Test func theStaticFormActsOnCurrent() throws {
        let box = DIContainer()
        box.register { Shared(Engine.init) }
        box.activate { #expect(DIContainer.unregister(Engine.self)) }
        #expect((try? box.tryResolve(Engine.self)) == nil)
    }
}

@Suite(.timeLimit(.minutes(1)))
struct MissingRegistrationMessageTests {
    @Test func aMissingClassSuggestsItsInitializer() throws {
        let error = try #require(throws: ResolutionError.self) { try DIContainer().tryResolve(Puppy.self) }
        #expect(
            error.description == """
                No registration for 'Puppy'.
                To fix, register it: container.register { Shared(Puppy.init) }
                """)
    }

    @Test func aMissingProtocolWithoutConformingTypesGetsAPlaceholder() throws {
        let error = try #require(throws: ResolutionError.self) {
            try DIContainer().tryResolve(Companion.self, name: "cat")
        }
        #expect(
            error.description == """
                No registration for 'Companion' (name: "cat").
                To fix, register it: container.register { Shared(<#instance#> as Companion).named("cat") }
                """)
    }

    @Test func aMissingValueTypeGetsAPlaceholder() throws {
        let error = try #require(throws: ResolutionError.self) { try DIContainer().tryResolve(Leash.self) }
        #expect(
            error.description == """
                No registration for 'Leash'.
                To fix, register it: container.register { Shared(<#Leash value#>) }
                """)
    }

    @Test func theStaticAPINamesTheStaticForm() throws {
        let error = try DIContainer().activate {
            try #require(throws: ResolutionError.self) { try DIContainer.tryResolve(Puppy.self) }
        }
        #expect(error.description.hasSuffix("To fix, register it: DIContainer.register { Shared(Puppy.init) }"))
    }

    @Test func aDependencyAParentLookedForSaysSoAndHowToFixIt() throws {
        let parent = DIContainer()
        parent.register { Shared(Till.init) }
        let child = DIContainer(parent: parent)
        child.register {
            Shared(CardWallet() as Wallet)
            Shared(Ledger.init)
        }
        let error = try #require(throws: ResolutionError.self) { try child.tryResolve(Till.self) }
        #expect(
            error.description == """
                No registration for 'Wallet'.
                Resolution path: Till -> Wallet
                'Till' is registered in a parent container, which made it and looked for 'Wallet' there: \
                a parent never sees its children's registrations.
                To fix, register 'Wallet' in the parent container, or register 'Till' in the child \
                container too, so the child makes it with its own dependencies.
                """)
    }
}

@Suite(.timeLimit(.minutes(1)))
struct GraphThroughOptionalsTests {
    @Test func anEdgeToAnOptionalPointsAtTheWrappedType() throws {
        let box = DIContainer()
        box.register {
            Shared(Ledger.init)
            Shared { resolve -> Wiring in
                let log: Ledger? = resolve()
                let wired = Wiring()
                if log != nil { wired.steps.append("logged") }
                return wired
            }
        }
        #expect(try box.tryResolve(Wiring.self).steps == ["logged"])
        let graph = box.dependencyGraph()
        #expect(!graph.contains("Optional"))
        #expect(!graph.contains("not registered"))
        #expect(graph.contains("n2 -> n1;"))
    }
}

private final class ScopedMainDependency: Sendable {}
@MainActor private final class ScopedMainModel { init(dependency: ScopedMainDependency) {} }
@MainActor private final class ScopedScreen {
    let id: String
    init(id: String) { self.id = id }
}
extension DIScope { fileprivate static let autowiredSession = DIScope("autowiredSession") }

/// `Scoped(scope, T.init)` of a main-actor initializer compiles in nonisolated code, as
/// `Shared(T.init)` does (GettingStarted registers main-actor types this way).
@Suite struct ScopedMainActorInitializerTests {
    @Test func aScopedMainActorInitializerCompilesInNonisolatedCode() {
        let box = DIContainer()
        box.register {
            Shared(ScopedMainDependency.init)
            Scoped(.autowiredSession, ScopedMainModel.init)
        }
        #expect(box.registrations.first { $0.typeName == "ScopedMainModel" }?.isMainActor == true)
    }

    /// The closure `New` and `Shared` accept with its parameter types written out compiles for
    /// `Scoped` too, as the main-actor factory that takes arguments.
    @Test @MainActor func aScopedMainActorFactoryWithTypedParametersTakesArguments() throws {
        let box = DIContainer()
        box.register {
            Scoped(.autowiredSession) { @MainActor (_: Resolver, id: String) -> ScopedScreen in ScopedScreen(id: id) }
        }
        #expect(try box.tryResolve(ScopedScreen.self, arguments: { "a" }).id == "a")
        let listed = try #require(box.registrations.first)
        #expect(listed.argumentTypes == ["String"])
        #expect(listed.isMainActor)
    }
}
