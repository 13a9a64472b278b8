import CheckSupport
import DependencyInjection
import DependencyInjectionTesting
import MainActorApp
import Testing

// Default MainActor isolation here too: the mocks are main-actor classes, and the tests run on
// the main actor unless marked `nonisolated`.

final class MockPayments: Payments {
    let provider = "mock"
}

/// A container of the app's own, with every form registered.
let box: DIContainer = {
    let box = DIContainer()
    box.register { everyForm() }
    return box
}()

@Suite(.dependencies)  // every test gets a fresh isolated container
struct CheckoutTests {
    @Test(.dependencies { New { @MainActor in MockPayments() as Payments } })
    func paysWithMock() {
        #expect(DIContainer.resolve(Payments.self).provider == "mock")
        #expect(DIContainer.resolve(ProductionService.self) === DIContainer.resolve(ProductionService.self))
    }

    @Test func seesProductionRegistrations() throws {
        let production = try DIContainer.tryResolve(Counter.self, name: "production")
        #expect(production === DIContainer.resolve(Counter.self, name: "production"))
    }
}

@Suite struct ContainerOfYourOwnTests {
    // The Testing article's `.dependencies(on: box) { New(MockPayments() as Payments) }` does not compile
    // here: MockPayments' conformance to the app's (main-actor) Payments is main-actor-isolated,
    // and the overrides closure is nonisolated. A `@MainActor` closure states where it is made.
    @Test(.dependencies(on: box) { New { @MainActor in MockPayments() as Payments } })
    func paysWithMock() {
        #expect(DIContainer.resolve(Checkout.self).payments.provider == "mock")
    }

    // `.dependencies(on: box) { New(MockPayments.init, as: Payments.self) }` compiles, but the
    // trait registers the overrides off the main actor, where the library's alias check does not
    // see the main-actor-isolated conformance: the test fails with "'MockPayments' does not
    // conform to 'Payments', so it cannot be registered as 'Payments'." The same, made explicit:
    @Test func anAliasRegisteredOffTheMainActor() async {
        let offMain = await inDetachedTask { try DIContainer().tryRegister(New(MockPayments.init, as: Payments.self)) }
        withKnownIssue("the alias check runs off the main actor, where a main-actor conformance is not seen") {
            #expect(offMain == .resolved)
        }
    }

    @Test func anAliasRegisteredOnTheMainActor() throws {
        let container = DIContainer()
        try container.tryRegister(New(MockPayments.init, as: Payments.self))
        #expect(container.resolve(Payments.self).provider == "mock")
    }

    @Test(.dependencies(on: box))
    func resolvesFromACopyOfBox() {
        #expect(DIContainer.resolve(Checkout.self).payments.provider == "live")
        #expect(DIContainer.current !== box)
    }

    @Test(.dependencies(on: box), arguments: 0..<20)
    func eachCaseGetsItsOwnInstances(index: Int) {
        let counter = DIContainer.resolve(Counter.self, name: "expression")
        #expect(counter === DIContainer.resolve(Counter.self, name: "expression"))
        DIContainer.register(Shared(DetailViewModel(id: "\(index)") as ViewModelProtocol))
        #expect(DIContainer.resolve(ViewModelProtocol.self).id == "\(index)")
    }

    @Test(.dependencies(on: box))
    func offTheMainActorIsMadeOnTheMainActor() async {
        // Counter is a main-actor class (Sendable): made on the main actor for a detached task,
        // in this test's container (a detached task does not inherit it: passed explicitly).
        let current = DIContainer.current
        let (detached, counter) = await valueInDetachedTask { try current.tryResolve(Counter.self, name: "closure") }
        #expect(detached == .resolved)
        #expect(counter === DIContainer.resolve(Counter.self, name: "closure"))
        let (async, same) = await asyncInDetachedTask { try await current.resolveAsync(Counter.self, name: "closure") }
        #expect(async == .resolved)
        #expect(same === counter)
    }

    @Test(.dependencies(on: box))
    nonisolated func aNonisolatedTestResolvesSendableMainActorServices() async throws {
        // This test runs off the main actor; the test trait's container is carried to the main
        // actor, which makes the Counter there.
        #expect(!isOnMainQueue())
        let counter = try DIContainer.tryResolve(Counter.self, name: "initializer")
        #expect(try await DIContainer.resolveAsync(Counter.self, name: "initializer") === counter)
        #expect(try DIContainer.tryResolve(Counter.self, name: "initializer") === counter)
    }

    @Test(.dependencies(on: box))
    nonisolated func aNonisolatedTestCannotHaveANonSendableMainActorValue() async throws {
        // `Shared(LivePayments() as Payments)`: `any Payments` is not Sendable.
        #expect(!isOnMainQueue())
        let error = #expect(throws: ResolutionError.self) { _ = try DIContainer.tryResolve(Payments.self) }
        #expect(error?.reason == .mainActorRequired)
        await #expect(throws: ResolutionError.self) { _ = try await DIContainer.resolveAsync(Payments.self) }
    }
}

#if KNOWN_ISSUE_REPROS
    // The Testing article's trait lines, verbatim: with default MainActor isolation these do not compile
    // ("main actor-isolated conformance of 'MockPayments' to 'Payments' cannot be used in
    // nonisolated context"): the overrides closure is nonisolated.
    @Suite struct VerbatimTraitTests {
        @Test(.dependencies { New(MockPayments() as Payments) })
        func paysWithMock() {}

        @Test(.dependencies(on: box) { New(MockPayments() as Payments) })
        func paysWithMockInBox() {}
    }
#endif
