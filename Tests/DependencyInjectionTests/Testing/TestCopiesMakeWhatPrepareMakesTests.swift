import DependencyInjection
import DependencyInjectionTesting
import Testing

// A test's copy starts with fresh instances: what production's prepare() made is not in it, and the
// test calls prepare() itself (Testing, "Services that prepare() makes").

private final class PreparedPool: Sendable {}
private final class PreparedRepository: Sendable {
    let pool: PreparedPool
    init(pool: PreparedPool) { self.pool = pool }
}

private func makeProduction() -> DIContainer {
    let box = DIContainer()
    box.register {
        Shared { _ async in PreparedPool() }
        Shared(PreparedRepository.init)
    }
    return box
}

private let production = makeProduction()

@Suite(.timeLimit(.minutes(1))) struct TestCopiesMakeWhatPrepareMakesTests {
    @Test func aCopyOfAPreparedContainerMakesItsAsyncServicesOnlyWhenPrepared() async throws {
        let box = makeProduction()
        try await box.prepare()
        let made = box.resolve(PreparedRepository.self)
        try await box.withOverrides {
        } operation: { () async throws -> Void in
            let error = try #require(throws: ResolutionError.self) {
                try DIContainer.tryResolve(PreparedRepository.self)
            }
            #expect(error.reason == .notYetMade(actor: nil), "\(error)")
            try await DIContainer.prepare()
            #expect(DIContainer.resolve(PreparedRepository.self).pool !== made.pool)
        }
    }

    // The article's example: a test whose services are async calls prepare() first.
    @Test(.dependencies(on: production) { Shared { _ async in PreparedPool() } })
    func aTestPreparesItsCopy() async throws {
        try await DIContainer.prepare()
        #expect((try? DIContainer.tryResolve(PreparedRepository.self)) != nil)
    }
}
