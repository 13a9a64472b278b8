import DependencyInjection
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

/// A copy of a child container: the parent's copy makes what the parent registers, from the
/// parent's registrations, so an override in the child's copy does not reach it. The docs say so;
/// these tests keep the gap in sight (a known issue), and what does hold.
@Suite(.timeLimit(.minutes(1))) struct OverridesOfAParentsRegistrationsTests {
    @Test func anOverrideDoesNotYetReachASharedThatTheParentRegisters() {
        let feature = DIContainer(parent: productionContainer())
        let provider = feature.withOverrides {
            New(MockPayments() as Payments)
        } operation: {
            DIContainer.resolve(Checkout.self).payments.provider
        }
        withKnownIssue("the parent's copy makes Checkout from the parent's registrations") {
            #expect(provider == "mock")
        }
    }

    /// Overriding the service the parent registers, too, gives the test what it means.
    @Test func overridingTheParentsServiceToo() {
        let feature = DIContainer(parent: productionContainer())
        let provider = feature.withOverrides {
            New(MockPayments() as Payments)
            Shared { resolve in Checkout(payments: resolve()) }
        } operation: {
            DIContainer.resolve(Checkout.self).payments.provider
        }
        #expect(provider == "mock")
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
}
