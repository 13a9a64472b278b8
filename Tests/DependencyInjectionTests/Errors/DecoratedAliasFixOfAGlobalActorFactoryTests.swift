import DependencyInjection
import Testing

// The fix for a decorated type served only through `as:` writes the registration so that it
// compiles where the original did: a global actor's factory as a closure on that actor, as a
// main-actor one is.

@globalActor private actor LedgerActor {
    static let shared = LedgerActor()
}
private protocol Ledger: AnyObject, Sendable {}
@LedgerActor private final class ActorLedger: Ledger {
    let name: String
    init(name: String) { self.name = name }
}

@Suite(.timeLimit(.minutes(1))) struct DecoratedAliasFixOfAGlobalActorFactoryTests {
    /// `Shared(ActorLedger(…) as Ledger)` does not compile in nonisolated code (the initializer is
    /// isolated to `LedgerActor`); the closure on that actor does, and serves the decorated type.
    @Test func theFixOfADecoratedAliasOfAGlobalActorFactoryIsAClosureOnThatActor() async throws {
        let box = DIContainer()
        box.register {
            Shared({ @LedgerActor in ActorLedger(name: "main") }, as: Ledger.self)
            Decorate(Ledger.self) { ledger, _ throws in ledger }
        }
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(Ledger.self) }
        #expect(
            error.description.contains(
                "register it as the decorated type, Shared { @LedgerActor in ActorLedger(…) as Ledger }"),
            "\(error)")
        let fixed = DIContainer()
        fixed.register {
            Shared { @LedgerActor in ActorLedger(name: "main") as Ledger }
            Decorate(Ledger.self) { ledger, _ throws in ledger }
        }
        _ = try await fixed.resolveAsync(Ledger.self)
    }
}
