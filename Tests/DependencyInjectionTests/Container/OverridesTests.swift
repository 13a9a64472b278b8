import DependencyInjection
import DependencyInjectionTesting
import Dispatch
import Testing

/// A container of its own with production-like registrations, so these tests never touch `shared`.
private func productionContainer() -> DIContainer {
    let container = DIContainer()
    container.register {
        Shared(LivePayments() as Payments)
        Shared { resolve in Checkout(payments: resolve()) }
        Shared(Witness.init)
    }
    return container
}

private struct Declined: Error, Equatable {}

@Suite(.timeLimit(.minutes(1))) struct OverridesTests {
    @Test func overridesReplaceARegistrationOnlyInsideTheOperation() {
        let source = productionContainer()
        source.activate {
            DIContainer.withOverrides {
                New(MockPayments() as Payments)
            } operation: {
                #expect(DIContainer.resolve(Payments.self) is MockPayments)
            }
            #expect(DIContainer.resolve(Payments.self) is LivePayments)
        }
    }

    @Test func syncOperationReturnsItsValue() {
        let provider = productionContainer().withOverrides {
            New(MockPayments() as Payments)
        } operation: {
            DIContainer.resolve(Payments.self).provider
        }
        #expect(provider == "mock")
    }

    @Test func asyncOperationReturnsItsValue() async {
        let provider = await productionContainer().withOverrides {
            New(MockPayments() as Payments)
        } operation: { () async -> String in
            await Task.yield()
            return DIContainer.resolve(Payments.self).provider
        }
        #expect(provider == "mock")
    }

    @Test func syncOperationRethrowsItsError() {
        #expect(throws: Declined()) {
            try productionContainer().withOverrides {
            } operation: {
                throw Declined()
            }
        }
    }

    @Test func asyncOperationRethrowsItsError() async {
        await #expect(throws: Declined()) {
            try await productionContainer().withOverrides {
            } operation: { () async throws in
                await Task.yield()
                throw Declined()
            }
        }
    }

    @Test func staticFormActsOnTheCurrentContainer() async throws {
        let source = productionContainer()
        let inside = await source.activate { () async -> String in
            await DIContainer.withOverrides {
                New(MockPayments() as Payments)
            } operation: { () async -> String in
                #expect(DIContainer.resolve(Checkout.self).payments is MockPayments)
                return DIContainer.resolve(Payments.self).provider
            }
        }
        #expect(inside == "mock")
        #expect(try source.tryResolve(Payments.self) is LivePayments)
    }

    @Test func overridesReachNestedDependencies() throws {
        let source = productionContainer()
        let liveCheckout = try source.tryResolve(Checkout.self)
        source.withOverrides {
            New(MockPayments() as Payments)
        } operation: {
            let checkout = DIContainer.resolve(Checkout.self)
            #expect(checkout.payments is MockPayments)
            #expect(checkout !== liveCheckout)
            #expect(DIContainer.resolve(Checkout.self) === checkout, "Shared stays shared inside the copy")
        }
        #expect(try source.tryResolve(Checkout.self) === liveCheckout)
        #expect(liveCheckout.payments is LivePayments)
    }

    @Test func overridesReachPropertyWrappers() {
        let source = DIContainer()
        registerScreenDependencies(in: source)
        source.withOverrides {
            Shared(MockRouter() as Router)
        } operation: {
            let screen = Screen()
            #expect(screen.router is MockRouter)
            #expect(screen.config.environment == "production")
        }
    }

    @Test func overridingOneAliasKeepsTheOthers() {
        let source = DIContainer()
        source.register(Shared(RouterImpl.init, as: Router.self, DeeplinkHandler.self))
        source.withOverrides {
            New(MockRouter() as Router)
        } operation: {
            #expect(DIContainer.resolve(Router.self) is MockRouter)
            #expect(DIContainer.resolve(DeeplinkHandler.self) is RouterImpl)
            #expect(DIContainer.resolve(RouterImpl.self) === DIContainer.resolve(DeeplinkHandler.self) as AnyObject)
        }
    }

    @Test func registrationsMadeInsideTheOperationStayInside() throws {
        let source = productionContainer()
        source.withOverrides {
        } operation: {
            DIContainer.register(Shared(Engine.init))
            DIContainer.register(New(MockPayments() as Payments))
            #expect(DIContainer.resolve(Engine?.self) != nil)
        }
        #expect(source.resolve(Engine?.self) == nil)
        #expect(try source.tryResolve(Payments.self) is LivePayments)
    }

    @Test func resetInsideTheOperationLeavesTheSourceAlone() throws {
        let source = productionContainer()
        source.withOverrides {
        } operation: {
            DIContainer.reset()
            #expect(DIContainer.resolve(Payments?.self) == nil)
        }
        #expect(try source.tryResolve(Payments.self) is LivePayments)
    }

    @Test func noInstanceOfTheSourceIsMadeOrReused() throws {
        let source = productionContainer()
        let before = try source.tryResolve(Witness.self)
        var copy: ObjectIdentifier?
        let inside = source.withOverrides {
        } operation: { () -> Witness in
            copy = ObjectIdentifier(DIContainer.current)
            return DIContainer.resolve(Witness.self)
        }
        #expect(inside !== before)
        #expect(inside.maker == copy, "made by the copy, not by the source")
        #expect(try source.tryResolve(Witness.self) === before)
    }

    @Test func theSourceMakesNothingWhileTheCopyResolves() throws {
        let source = productionContainer()
        var made: Witness?
        source.withOverrides {
        } operation: {
            made = DIContainer.resolve(Witness.self)
        }
        // The source never made a Witness: its first one is new, and made by the source itself.
        let sourceWitness = try source.tryResolve(Witness.self)
        #expect(sourceWitness !== made)
        #expect(sourceWitness.maker == ObjectIdentifier(source))
    }

    @Test func copiesOfAChildCopyItsAncestorsToo() throws {
        let parent = productionContainer()
        let parentWitness = try parent.tryResolve(Witness.self)
        let child = DIContainer(parent: parent)
        child.withOverrides {
        } operation: {
            let witness = DIContainer.resolve(Witness.self)
            #expect(witness !== parentWitness, "the parent's instances are not reused either")
            #expect(DIContainer.resolve(Payments.self) is LivePayments)
        }
    }

    /// Runs `body` with a container that bootstraps like `shared` at launch but is private to the
    /// test: a `withOverrides` copy of `shared`, reset, so `registerDependencies()` is pending again.
    private func withPendingBootstrap(_ body: (DIContainer) -> Void) {
        DIContainer.shared.withOverrides {
        } operation: {
            let pending = DIContainer.current
            pending.reset()
            body(pending)
        }
    }

    @Test func registerDependenciesHasRunForTheSource() throws {
        withPendingBootstrap { source in
            source.withOverrides {
            } operation: {
                #expect(DIContainer.resolve(Greeting.self) is ProductionGreeting)
            }
            #expect(source.resolve(Greeting.self) is ProductionGreeting)
        }
    }

    @Test func overridesWinOverRegisterDependencies() {
        withPendingBootstrap { source in
            source.withOverrides {
                Shared(MockGreeting() as Greeting)
            } operation: {
                #expect(DIContainer.resolve(Greeting.self) is MockGreeting)
                DIContainer.register(Shared(Engine.init))
                #expect(DIContainer.resolve(Greeting.self) is MockGreeting, "a later register does not bootstrap again")
            }
        }
    }

    @Test func sharedIsTheSourceWhenNothingIsBound() {
        #expect(DIContainer.current === DIContainer.shared)
        let production = DIContainer.shared.resolve(Greeting.self)
        DIContainer.withOverrides {
        } operation: {
            #expect(DIContainer.current !== DIContainer.shared)
            let greeting = DIContainer.resolve(Greeting.self)
            #expect(greeting is ProductionGreeting)
            #expect(greeting !== production)
        }
        #expect(DIContainer.current === DIContainer.shared)
    }

    @Test func nestedOverridesStackAndUnwind() {
        productionContainer().withOverrides {
            New(MockPayments() as Payments)
        } operation: {
            let outer = DIContainer.current
            DIContainer.withOverrides {
                Shared(MockRouter() as Router)
            } operation: {
                #expect(DIContainer.resolve(Payments.self) is MockPayments)
                #expect(DIContainer.resolve(Router.self) is MockRouter)
            }
            #expect(DIContainer.current === outer)
            #expect(DIContainer.resolve(Router?.self) == nil)
        }
    }

    @Test func childTasksInheritTheOverrides() async {
        await productionContainer().withOverrides {
            New(MockPayments() as Payments)
        } operation: { () async in
            async let fromAsyncLet = DIContainer.resolve(Payments.self).provider
            let fromTask = await Task { DIContainer.resolve(Payments.self).provider }.value
            let fromGroup = await withTaskGroup(of: String.self) { group in
                group.addTask { DIContainer.resolve(Payments.self).provider }
                return await group.next() ?? ""
            }
            let fromDetached = await Task.detached { DIContainer.current === DIContainer.shared }.value
            #expect(await fromAsyncLet == "mock")
            #expect(fromTask == "mock")
            #expect(fromGroup == "mock")
            #expect(fromDetached, "a detached task does not inherit task-locals")
        }
    }

    @Test func anotherThreadGetsTheCapturedContainerByActivatingIt() async {
        let outcome = await productionContainer().withOverrides {
            New(MockPayments() as Payments)
        } operation: { () async -> (Bool, String) in
            let container = DIContainer.current
            return await withCheckedContinuation { continuation in
                DispatchQueue.global().async {
                    // Dispatch does not carry task-locals: here `current` is `shared` again...
                    let unbound = DIContainer.current === DIContainer.shared
                    // ...so the captured container is activated (or resolved from) explicitly.
                    let provider = container.activate { DIContainer.resolve(Payments.self).provider }
                    continuation.resume(returning: (unbound, provider))
                }
            }
        }
        #expect(outcome.0)
        #expect(outcome.1 == "mock")
    }

    @MainActor @Test func asyncOverridesRunOnTheCallersActor() async {
        var visits = 0  // main-actor state, mutated without crossing an isolation boundary
        await DIContainer.withOverrides {
        } operation: { () async in
            MainActor.assertIsolated()
            await Task.yield()
            visits += 1
        }
        #expect(visits == 1)
    }
}

/// Needs an `Engine`; registered in a parent, whose child registers an `Engine` of its own.
private final class EngineUser {
    let engine: Engine
    init(engine: Engine) { self.engine = engine }
}

/// Needs a `Gateway` if there is one (in the tests that use it, none is registered anywhere).
private final class OptionalGatewayUser {
    let gateway: Gateway?
    init(gateway: Gateway?) { self.gateway = gateway }
}

/// A copy of a child container copies its ancestors too; an override in the child's copy (or
/// anything registered there later) replaces what an ancestor's copy serves under the same key,
/// so a service the parent registers is made with the test's mock, as in a container of one level.
@Suite(.timeLimit(.minutes(1))) struct OverridesOfAParentsRegistrationsTests {
    @Test func anOverrideReachesASharedThatTheParentRegisters() {
        let feature = DIContainer(parent: productionContainer())
        let provider = feature.withOverrides {
            New(MockPayments() as Payments)
        } operation: {
            DIContainer.resolve(Checkout.self).payments.provider
        }
        #expect(provider == "mock")
        // The parent itself is untouched.
        #expect(feature.resolve(Checkout.self).payments.provider == "live")
    }

    @Test func anOverrideReachesAnAsyncFactoryThatTheParentRegisters() async throws {
        let parent = DIContainer()
        parent.register {
            Shared(LivePayments() as Payments)
            Shared { resolve async in PaymentsProvider(name: resolve(Payments.self).provider) }
        }
        let provider = try await DIContainer(parent: parent).withOverrides {
            New(MockPayments() as Payments)
        } operation: { () async throws -> String in
            try await DIContainer.resolveAsync(PaymentsProvider.self).name
        }
        #expect(provider == "mock")
    }

    /// The override's instance is the copy's: the parent's service and the test get the same one.
    @Test func aSharedOverrideIsOneInstanceForTheParentsServicesAndTheTest() {
        let feature = DIContainer(parent: productionContainer())
        feature.withOverrides {
            Shared(MockPayments() as Payments)
        } operation: {
            let checkoutFirst = DIContainer.resolve(Checkout.self).payments
            #expect(checkoutFirst === DIContainer.resolve(Payments.self))
        }
    }

    /// What the operation registers overrides too, and a container made inside it sees the same.
    @Test func whatTheOperationRegistersReachesTheParentsServices() {
        let feature = DIContainer(parent: productionContainer())
        feature.withOverrides {
        } operation: {
            DIContainer.register { New(MockPayments() as Payments) }
            #expect(DIContainer.resolve(Checkout.self).payments.provider == "mock")
            #expect(DIContainer(parent: .current).resolve(Checkout.self).payments.provider == "mock")
        }
    }

    /// An `eager()` override is made once the overrides are in place, with them.
    @Test func anEagerOverrideIsMadeWithTheOverrides() {
        let seen = Guarded<String?>(nil)
        let feature = DIContainer(parent: productionContainer())
        feature.withOverrides {
            New(MockPayments() as Payments)
            Shared { resolve in
                let provider = resolve(Checkout.self).payments.provider
                seen.withLock { $0 = provider }
                return Engine()
            }.eager()
        } operation: {
        }
        #expect(seen.current == "mock")
    }

    /// Unregistered or reset in the copy, the override serves no more: the parent's copy makes
    /// its service from its own registration again.
    @Test func anOverrideUnregisteredOrResetInTheCopyServesNoMore() {
        let feature = DIContainer(parent: productionContainer())
        feature.withOverrides {
            New(MockPayments() as Payments)
        } operation: {
            #expect(DIContainer.unregister(Payments.self))
            #expect(DIContainer.resolve(Checkout.self).payments.provider == "live")
        }
        feature.withOverrides {
            New(MockPayments() as Payments)
        } operation: {
            DIContainer.reset()
            #expect(DIContainer.resolve(Checkout.self).payments.provider == "live")
        }
    }

    /// Overrides of overrides: the inner copy's overrides, and the outer copy's, reach the parent's.
    @Test func nestedOverridesBothReachTheParentsServices() {
        let parent = productionContainer()
        parent.register {
            Shared(CaseGreeting(index: 0) as Greeting)
            Shared { resolve in Welcome(greeting: resolve()) }
        }
        let feature = DIContainer(parent: parent)
        feature.withOverrides {
            New(MockPayments() as Payments)
        } operation: {
            DIContainer.withOverrides {
                New(CaseGreeting(index: 7) as Greeting)
            } operation: {
                #expect(DIContainer.resolve(Checkout.self).payments.provider == "mock")
                #expect(DIContainer.resolve(Welcome.self).greeting.text == "case 7")
            }
        }
    }

    /// `validate()` in the copy checks the parent's services with the overrides, as they will be made.
    @Test func validateInTheCopyChecksTheParentsServicesWithTheOverrides() {
        let parent = productionContainer()
        let feature = DIContainer(parent: parent)
        feature.register { Shared { resolve in FeatureScreen(checkout: resolve()) } }
        #expect(feature.validate().isValid)
        feature.withOverrides {
            New { _ -> Payments in throw Offline() }
        } operation: {
            let report = DIContainer.validate()
            #expect(report.problems.contains { $0.registration.contains("FeatureScreen") }, "\(report)")
        }
    }

    /// A child made inside the operation and overridden again: the outer override still reaches
    /// the parent's services (the inner copy's win where both override a key).
    @Test func anOuterOverrideStillReachesTheParentInAnOverriddenChildOfTheCopy() {
        let feature = DIContainer(parent: productionContainer())
        feature.withOverrides {
            New(MockPayments() as Payments)
        } operation: {
            DIContainer(parent: .current).withOverrides {
                Shared(Engine())
            } operation: {
                #expect(DIContainer.resolve(Payments.self).provider == "mock")
                #expect(DIContainer.resolve(Checkout.self).payments.provider == "mock")
            }
        }
    }

    /// `releaseInstances()` in the copy: the parent's copy keeps no service made with the override
    /// it dropped (one instance for both, as in a container of one level).
    @Test func releaseInstancesInTheCopyReleasesWhatTheParentsCopyMadeWithTheOverride() {
        let feature = DIContainer(parent: productionContainer())
        feature.withOverrides {
            Shared(MockPayments() as Payments)
        } operation: {
            let before = DIContainer.resolve(Checkout.self)
            DIContainer.releaseInstances()
            let after = DIContainer.resolve(Checkout.self)
            #expect(after !== before)
            #expect(after.payments === DIContainer.resolve(Payments.self))
        }
    }

    /// `reset()` in the copy after a resolve: the parent's copy keeps no service made with the
    /// override the copy forgot.
    @Test func resetInTheCopyLeavesNoParentsServiceMadeWithTheOverride() {
        let feature = DIContainer(parent: productionContainer())
        feature.withOverrides {
            Shared(MockPayments() as Payments)
        } operation: {
            #expect(DIContainer.resolve(Checkout.self).payments.provider == "mock")
            DIContainer.reset()
            #expect(DIContainer.resolve(Payments.self).provider == "live")
            #expect(DIContainer.resolve(Checkout.self).payments.provider == "live")
        }
    }

    /// `validate()` in the copy reports a parent's `Shared` service that would keep a shorter-lived
    /// override, as it does in a copy of the parent itself (the parent's own `validate()` cannot:
    /// it never sees the override).
    @Test func validateInTheCopyReportsAParentsServiceThatOutlivesAnOverride() {
        productionContainer().withOverrides {
            Graph { MockPayments() as Payments }
        } operation: {
            let report = DIContainer.validate()
            #expect(report.problems.contains { $0.registration.contains("Checkout") }, "\(report)")
        }
        DIContainer(parent: productionContainer()).withOverrides {
            Graph { MockPayments() as Payments }
        } operation: {
            let report = DIContainer.validate()
            #expect(report.problems.contains { $0.registration.contains("Checkout") }, "\(report)")
        }
    }

    /// `validate()` follows a parent's `New` to the override it keeps, as in a copy of the parent.
    @Test func validateFollowsAParentsNewToAnOverride() {
        func wiring(_ container: DIContainer) {
            container.register {
                Shared(Gateway.init)
                New { resolve in GatewayPayments(resolve()) as Payments }
                Shared { resolve in Checkout(payments: resolve()) }
            }
        }
        let oneLevel = DIContainer()
        wiring(oneLevel)
        let parent = DIContainer()
        wiring(parent)
        for container in [oneLevel, DIContainer(parent: parent)] {
            let report = container.withOverrides {
                Graph(Gateway.init)
            } operation: {
                DIContainer.validate()
            }
            #expect(report.problems.contains { $0.registration.contains("Checkout") }, "\(report)")
        }
    }

    /// `prepare()` in the copy prepares a parent's async service as the parent serves it, not through
    /// an override that `prepare()` does not make (here, one of a run-only scope), as in a copy of the parent.
    @Test func prepareLeavesAParentsServiceToItsOverride() async {
        func wiring(_ container: DIContainer) {
            container.register { Shared { _ async in PaymentsProvider(name: "live") } }
        }
        let oneLevel = DIContainer()
        wiring(oneLevel)
        let parent = DIContainer()
        wiring(parent)
        for container in [oneLevel, DIContainer(parent: parent)] {
            let outcome = await container.withOverrides {
                Scoped(.overrideRun) { PaymentsProvider(name: "mock") }
            } operation: { () async -> String in
                do {
                    try await DIContainer.prepare()
                    return "prepared"
                } catch { return "\(error)" }
            }
            #expect(outcome == "prepared")
        }
    }

    /// An override is a registration of the copy, wherever it serves: decorated by the copy's
    /// decorators (the child's, and a `Decorate` among the overrides), not by a parent's.
    @Test func anOverrideIsDecoratedByTheCopysDecoratorsNotByAParents() {
        let parent = productionContainer()
        parent.register { Decorate(Payments.self) { payments, _ in TaggedPayments(payments) } }
        DIContainer(parent: parent).withOverrides {
            New(MockPayments() as Payments)
        } operation: {
            #expect(DIContainer.resolve(Checkout.self).payments.provider == "mock")
        }
        DIContainer(parent: parent).withOverrides {
            New(MockPayments() as Payments)
            Decorate(Payments.self) { payments, _ in TaggedPayments(payments, tag: "test") }
        } operation: {
            #expect(DIContainer.resolve(Payments.self).provider == "test(mock)")
            #expect(DIContainer.resolve(Checkout.self).payments.provider == "test(mock)")
        }
    }

    /// While a factory of an ancestor's copy runs, the copy changes nothing (it would change what
    /// that factory's resolution is being served), as a one-level copy refuses while its own runs.
    @Test func theCopyRefusesRegisterWhileAParentsFactoryRuns() {
        let copy = Guarded<DIContainer?>(nil)
        let parent = DIContainer()
        parent.register {
            Shared(LivePayments() as Payments)
            New { _ -> Label in
                do {
                    try copy.current?.tryRegister { New(MockPayments() as Payments) }
                    return Label(text: "registered")
                } catch { return Label(text: "refused") }
            }
        }
        let outcome = DIContainer(parent: parent).withOverrides {
        } operation: {
            copy.withLock { $0 = DIContainer.current }
            defer { copy.withLock { $0 = nil } }
            return DIContainer.resolve(Label.self).text
        }
        #expect(outcome == "refused")
    }

    /// A test trait's overrides are the same copy: they reach what the parent registers.
    @Test(.dependencies(on: featureOfAParent) { New(MockPayments() as Payments) })
    func aTraitsOverrideReachesTheParentsServices() {
        #expect(DIContainer.resolve(Checkout.self).payments.provider == "mock")
    }

    /// An override of a type the parent does not register adds nothing to the parent: what the
    /// parent cannot resolve in production it cannot resolve in the copy either.
    @Test func anOverrideOfATypeTheParentLacksStaysInTheChild() {
        let parent = DIContainer()
        parent.register { Shared { resolve in try Checkout(payments: resolve.tryResolve()) } }
        let feature = DIContainer(parent: parent)
        feature.withOverrides {
            New(MockPayments() as Payments)
        } operation: {
            #expect(DIContainer.resolve(Payments.self) is MockPayments)
            #expect(throws: ResolutionError.self) { try DIContainer.tryResolve(Checkout.self) }
        }
    }

    /// An override is a registration after the copy's last copied one, not that one itself: the
    /// child's own last registration (before the copy) is no override in its parent's copy
    /// (`Resolution.override(of:)`, `>` not `>=`: a mutation no other test noticed).
    @Test func aChildsOwnLastRegistrationIsNoOverrideInItsParentsCopy() {
        let parent = DIContainer()
        parent.register {
            Shared(Engine.init)
            Shared { resolve in EngineUser(engine: resolve()) }
        }
        let child = DIContainer(parent: parent)
        child.register { Shared(Engine.init) }  // the child's own, for the child only
        child.withOverrides {
            New(Session.init)
        } operation: {
            let user = DIContainer.resolve(EngineUser.self)
            #expect(user.engine !== DIContainer.resolve(Engine.self), "the parent's service gets the parent's Engine")
        }
    }

    /// validate() in a copy follows an ancestor's optional dependency registered nowhere: it
    /// reaches no override, and the ancestor's service is valid (`overriddenAncestorsWiringProblems`).
    @Test func aCopysValidateFollowsAnAncestorsOptionalDependencyRegisteredNowhere() async {
        let parent = DIContainer()
        parent.register { Shared { resolve in OptionalGatewayUser(gateway: resolve()) } }
        let child = DIContainer(parent: parent)
        await child.withOverrides {
            New(Engine.init)
        } operation: {
            let report = await DIContainer.validate()
            #expect(report.isValid, "\(report)")
            #expect(DIContainer.resolve(OptionalGatewayUser.self).gateway == nil)
        }
    }
}

/// A child of a production-like container, copied for each test case by `.dependencies(on:)`.
let featureOfAParent = DIContainer(parent: productionContainer())

/// A service of the child container that needs one the parent registers.
private final class FeatureScreen {
    let checkout: Checkout
    init(checkout: Checkout) { self.checkout = checkout }
}

/// Payments wrapped by a parent's decorator.
private final class TaggedPayments: Payments {
    let inner: Payments
    let tag: String
    init(_ inner: Payments, tag: String = "tagged") { (self.inner, self.tag) = (inner, tag) }
    var provider: String { "\(tag)(\(inner.provider))" }
}

private struct Label { let text: String }
private final class Gateway { init() {} }
private final class GatewayPayments: Payments {
    let gateway: Gateway
    init(_ gateway: Gateway) { self.gateway = gateway }
    var provider: String { "gateway" }
}
extension DIScope { fileprivate static let overrideRun = DIScope("overrideRun", requiresRun: true) }

/// What an async factory made from the `Payments` it resolved (Sendable, as async factories' values are).
private struct PaymentsProvider: Sendable { let name: String }
