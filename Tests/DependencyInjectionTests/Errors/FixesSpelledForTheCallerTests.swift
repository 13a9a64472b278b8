import DependencyInjection
import Testing

// A fix is written as the caller can apply it: a resolve from a container of one's own gets
// `container.resolve`, `container.withScope`, `container.resolveAsync` and `container.prepare()` (as a
// missing registration's `container.register`), and a cycle's fix names the registrations of the cycle.

private final class FixSpellingDetail: Sendable { init(id: String) {} }
private final class FixSpellingClock: Sendable {}
private final class FixSpellingRequest: Sendable {}
private final class FixSpellingConfig: Sendable {}
private final class FixCycleA { init(b: FixCycleB) {} }
private final class FixCycleB { init(a: FixCycleA) {} }

@Suite struct FixesSpelledForTheCallerTests {
    @Test func argumentFixesOfAContainerOfOnesOwnResolveFromIt() throws {
        let box = DIContainer()
        box.register {
            New { (_, id: String) in FixSpellingDetail(id: id) }
            Shared(FixSpellingClock())
        }
        let missing = try #require(throws: ResolutionError.self) { try box.tryResolve(FixSpellingDetail.self) }
        #expect(
            missing.description.contains(
                "To fix, pass arguments of the registered types (String): container.resolve(FixSpellingDetail.self) { … }."
            ),
            "\(missing)")
        let extra = try #require(throws: ResolutionError.self) {
            try box.tryResolve(FixSpellingClock.self, arguments: { 7 })
        }
        #expect(
            extra.description.hasSuffix(
                "To fix, resolve it without arguments: container.resolve(FixSpellingClock.self)."), "\(extra)")
    }

    @Test func aScopeFixOfAContainerOfOnesOwnRunsTheScopeOnIt() throws {
        let box = DIContainer()
        box.register { Scoped(DIScope("fixRequest", requiresRun: true)) { FixSpellingRequest() } }
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(FixSpellingRequest.self) }
        #expect(
            error.description.contains("To fix, resolve it inside a run: container.withScope(.fixRequest) { … }"),
            "\(error)")
    }

    @Test func anAwaitFixOfAContainerOfOnesOwnAwaitsIt() throws {
        let box = DIContainer()
        box.register { Shared { _ async in FixSpellingConfig() } }
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(FixSpellingConfig.self) }
        #expect(
            error.description.hasSuffix(
                "To fix, await it first: call try await container.prepare() at startup, or resolve it with "
                    + "try await container.resolveAsync(FixSpellingConfig.self)."), "\(error)")
    }

    @Test func theStaticAPIsFixesStillNameDIContainer() throws {
        try DIContainer.withOverrides {
            New { (_, id: String) in FixSpellingDetail(id: id) }
        } operation: {
            let error = try #require(throws: ResolutionError.self) {
                try DIContainer.tryResolve(FixSpellingDetail.self)
            }
            #expect(error.description.contains("DIContainer.resolve(FixSpellingDetail.self) { … }"), "\(error)")
        }
    }

    @Test func aCycleFixNamesTheRegistrationsOfTheCycle() throws {
        let box = DIContainer()
        box.register {
            Shared(FixCycleA.init)
            Shared(FixCycleB.init)
        }
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(FixCycleA.self) }
        #expect(
            error.description.hasSuffix(
                "To fix, break the cycle: let one side get the other after creation, e.g. drop 'FixCycleA' from what "
                    + "'FixCycleB' is made with and set it in an onResolve action: "
                    + "Shared(FixCycleB.init).onResolve { fixCycleB, resolve in fixCycleB.fixCycleA = resolve() }."),
            "\(error)")
    }
}
