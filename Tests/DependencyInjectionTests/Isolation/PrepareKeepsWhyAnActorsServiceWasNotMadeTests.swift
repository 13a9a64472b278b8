import DependencyInjection
import Testing

// When prepare() stops because an async factory threw, what waited for it says what was thrown: an
// actor's synchronous factory (made in prepare()'s first phase, tried again after the async ones)
// too, not only an async one.

@globalActor private actor WhyActor { static let shared = WhyActor() }
private struct WhyConfig: Sendable {}
@WhyActor private final class WhyRepository { init(config: WhyConfig) {} }
private final class WhyReporter: Sendable { init(repository: WhyRepository) {} }
private struct WhyOffline: Error {}

/// Written on WhyActor: the repository's synchronous factory runs there.
@WhyActor private func registerRepository(in box: DIContainer) {
    box.register { Shared { resolve in try WhyRepository(config: resolve.tryResolve()) } }
}

@Suite(.timeLimit(.minutes(1))) struct PrepareKeepsWhyAnActorsServiceWasNotMadeTests {
    @Test func anActorsServiceThatNeededAServiceWhoseFactoryThrewSaysWhatItThrew() async throws {
        let box = DIContainer()
        await registerRepository(in: box)
        box.register {
            Shared { _ async throws -> WhyConfig in throw WhyOffline() }
            Shared(WhyReporter.init)
        }
        await #expect(throws: ResolutionError.self) { try await box.prepare() }
        do {
            _ = try box.tryResolve(WhyReporter.self)
            Issue.record("resolved what prepare() could not make")
        } catch {
            #expect(
                "\(error)".contains(
                    "'WhyRepository' is made by a factory isolated to WhyActor and has not been made yet. prepare()"
                        + " failed to make it: The factory for 'WhyConfig' threw an error: WhyOffline()"), "\(error)")
        }
    }
}
