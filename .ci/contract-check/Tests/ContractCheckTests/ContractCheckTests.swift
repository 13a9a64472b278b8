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
