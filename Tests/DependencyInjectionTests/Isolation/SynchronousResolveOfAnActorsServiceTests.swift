import DependencyInjection
import Testing

// A service that is not Sendable, bound to an actor (registered in an actor's method or a global
// actor's function), is handed out only to an await in that actor's code: a synchronous resolve
// cannot tell the actor it runs on. Resolved synchronously on that very actor, the message says so
// and gives the fix that works there, not `prepare()` (which makes it, but does not hand it out) nor
// "resolve it on the actor" (which the caller is doing).

/// Not Sendable: a mutable class with no isolation of its own.
private final class Ledger {
    var count = 0
}

@globalActor private actor LedgerGlobalActor { static let shared = LedgerGlobalActor() }

private actor Teller {
    func register(in box: DIContainer) { box.register { Shared(Ledger()) } }

    /// The error of a synchronous resolve written here, on the actor.
    func synchronousError(in box: DIContainer) -> ResolutionError? {
        do {
            _ = try box.tryResolve(Ledger.self)
            return nil
        } catch {
            return error as? ResolutionError
        }
    }

    /// The fix the messages give, applied here.
    func countAwaited(in box: DIContainer) async throws -> Int { try await box.resolveAsync(Ledger.self).count }
}

@LedgerGlobalActor private func registerOnTheGlobalActor(in box: DIContainer) {
    box.register { Shared(Ledger()) }
}

@LedgerGlobalActor private func synchronousErrorOnTheGlobalActor(in box: DIContainer) -> ResolutionError? {
    do {
        _ = try box.tryResolve(Ledger.self)
        return nil
    } catch {
        return error as? ResolutionError
    }
}

@Suite(.timeLimit(.minutes(1))) struct SynchronousResolveOfAnActorsServiceTests {
    @Test func onItsActorBeforePrepareTheFixIsAnAwaitInTheActorsCodeNotPrepare() async throws {
        let box = DIContainer()
        let teller = Teller()
        await teller.register(in: box)
        let error = try #require(await teller.synchronousError(in: box))
        #expect(error.reason == .notYetMade(actor: "Teller"))
        #expect(error.description.contains("container.resolveAsync(Ledger.self) in Teller's code"), "\(error)")
        #expect(error.description.contains("cannot tell the actor it runs on"), "\(error)")
        #expect(!error.description.contains("call try await"), "\(error)")
        #expect(try await teller.countAwaited(in: box) == 0)
    }

    @Test func onItsActorAfterPrepareTheMessageSaysASynchronousResolveCannotTell() async throws {
        let box = DIContainer()
        let teller = Teller()
        await teller.register(in: box)
        try await box.prepare()
        let error = try #require(await teller.synchronousError(in: box))
        #expect(error.reason == .notSendable(actor: "Teller"))
        #expect(error.description.contains("or synchronously (a synchronous resolve cannot tell"), "\(error)")
        #expect(error.description.contains("container.resolveAsync(Ledger.self) in Teller's code"), "\(error)")
        #expect(!error.description.contains("To fix, resolve it on Teller"), "\(error)")
        #expect(try await teller.countAwaited(in: box) == 0)
    }

    @Test func onAGlobalActorTheFixIsTheSame() async throws {
        let box = DIContainer()
        await registerOnTheGlobalActor(in: box)
        let error = try #require(await synchronousErrorOnTheGlobalActor(in: box))
        #expect(error.reason == .notYetMade(actor: "LedgerGlobalActor"))
        #expect(error.description.contains("resolveAsync(Ledger.self) in LedgerGlobalActor's code"), "\(error)")
    }
}
