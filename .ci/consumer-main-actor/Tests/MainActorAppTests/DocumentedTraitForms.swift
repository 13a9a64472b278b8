import DependencyInjection
import DependencyInjectionTesting
import MainActorApp
import Testing

// The Testing article's trait forms for a test target with default MainActor isolation: the
// trait's closure is nonisolated, so what it registers is a `nonisolated` mock, or a main-actor
// one made in a `@MainActor` closure, and a module it uses is `nonisolated`.

nonisolated final class MockLogger: Logger {}

/// The README's form: a nonisolated mock of a main-actor protocol with a requirement.
nonisolated final class NonisolatedMockPayments: Payments {
    let provider = "nonisolated mock"
}

nonisolated enum TestModules {
    static let mocks = Module { New(MockLogger() as Logger) }
}

@Suite struct DocumentedTraitForms {
    @Test(.dependencies { New(MockLogger() as Logger) })
    func aNonisolatedMock() {
        #expect(DIContainer.resolve(Logger.self) is MockLogger)
    }

    @Test(.dependencies { New(NonisolatedMockPayments() as Payments) })
    func aNonisolatedMockOfAMainActorProtocol() {
        #expect(DIContainer.resolve(Payments.self).provider == "nonisolated mock")
    }

    @Test(.dependencies { New { @MainActor in MockPayments() as Payments } })
    func aMainActorMockMadeInAMainActorClosure() {
        #expect(DIContainer.resolve(Payments.self).provider == "mock")
    }

    @Test(.dependencies { TestModules.mocks })
    func aNonisolatedModule() async {
        let container = DIContainer.current  // a nonisolated mock is made and resolved on any thread
        let offMain = await Task.detached { container.resolve(Logger.self) is MockLogger }.value
        #expect(offMain && DIContainer.resolve(Logger.self) is MockLogger)
    }
}
