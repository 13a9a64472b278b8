import DependencyInjection
import Testing

// The fix "make the factory return it as the `as:` type" helps only when that type is a Sendable
// protocol (a value made as one is handed out anywhere), which the library cannot ask at run time:
// the fix says so, and writes the initializer as a placeholder (`Impl(…)`), since it may take parameters.

protocol AliasFixStore: AnyObject {}
@MainActor final class AliasFixMemoryStore: AliasFixStore { init(size: Int) {} }
final class AliasFixSyncEngine: Sendable { init(store: any AliasFixStore) {} }

@Suite(.timeLimit(.minutes(1))) struct AliasFixConditionTests {
    @Test func theAliasFixOfAResolveOffTheMainActorSaysItNeedsASendableProtocol() async throws {
        let box = DIContainer()
        box.register { Shared({ @MainActor in AliasFixMemoryStore(size: 1) }, as: (any AliasFixStore).self) }
        try await box.prepare()
        let error = await errorInDetachedTask { _ = try box.tryResolve((any AliasFixStore).self) }
        let message = try #require(error).description
        #expect(
            message.hasSuffix(
                "To fix, resolve it on the main actor, or, if 'AliasFixStore' is a Sendable protocol, make the "
                    + "factory return it as that type, e.g. Shared { @MainActor in AliasFixMemoryStore(…) as AliasFixStore } "
                    + "(a value made as a Sendable type is handed out anywhere)."), "\(message)")
    }

    @Test func theAliasFixOfAnIsolationConflictSaysItNeedsASendableProtocol() async throws {
        let box = DIContainer()
        box.register {
            Shared({ @MainActor in AliasFixMemoryStore(size: 1) }, as: (any AliasFixStore).self)
            Shared { resolve in try AliasFixSyncEngine(store: resolve.tryResolve()) }
        }
        let report = await box.validate()
        let message = try #require(report.problems.first, "\(report)").error.description
        #expect(
            message.contains(
                "To fix, isolate the registration's factory to the dependency's actor (Shared { @MainActor resolve "
                    + "throws in … }), resolve it with try await resolveAsync, or, if 'AliasFixStore' is a Sendable "
                    + "protocol, make the dependency's factory return it as that type, e.g. "
                    + "Shared { @MainActor in AliasFixMemoryStore(…) as AliasFixStore } (prepare() makes it, and a "
                    + "value made as a Sendable type is handed out anywhere)."), "\(message)")
    }
}
