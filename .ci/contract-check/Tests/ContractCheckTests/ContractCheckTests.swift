import DependencyInjection
import DependencyInjectionTesting
import Testing

protocol Payments {}
struct MockPayments: Payments {}
struct LivePayments: Payments {}

@MainActor final class ProfileModel { init() {} }

@MainActor func show() {
    let model = DIContainer.resolve(ProfileModel.self)  // fine on the main actor
    _ = model
}

@Suite(.dependencies)  // every test gets a fresh isolated container
struct CheckoutTests {
    @Test(.dependencies { New(MockPayments() as Payments) })
    func paysWithMock() {
        #expect(DIContainer.resolve(Payments.self) is MockPayments)
    }

    @MainActor @Test func mainActorFactory() {
        DIContainer.register {
            Shared { @MainActor in ProfileModel() }  // a main-actor factory
        }
        show()
    }

    @Test func asyncOverrides() async throws {
        let ok = try await DIContainer.withOverrides {
            New(LivePayments() as Payments)
        } operation: { () async throws -> Bool in
            DIContainer.resolve(Payments.self) is LivePayments
        }
        #expect(ok)
    }
}

/// A container of the test's own (contract §4).
let box: DIContainer = {
    let box = DIContainer()
    box.register { Shared(LivePayments() as Payments) }
    return box
}()

@Suite struct ContainerOfYourOwnTests {
    // Tests with a container of your own
    @Test(.dependencies(on: box) { New(MockPayments() as Payments) })
    func paysWithMock() {
        #expect(DIContainer.resolve(Payments.self) is MockPayments)
        #expect(box.resolve(Payments.self) is LivePayments)
    }

    @Test(.dependencies(on: box))
    func seesACopyOfBox() {
        #expect(DIContainer.resolve(Payments.self) is LivePayments)
        #expect(DIContainer.current !== box)
    }

    @Test(.dependencies(on: box) { New(MockPayments() as Payments) })
    func overridesAreNonisolatedHere() async {
        // In a module without default isolation, the trait's registrations resolve on any thread.
        let current = DIContainer.current
        let offMain = await Task.detached { (try? current.tryResolve(Payments.self)) is MockPayments }.value
        #expect(offMain)
    }
}
