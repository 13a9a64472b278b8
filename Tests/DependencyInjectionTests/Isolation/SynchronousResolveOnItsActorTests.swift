import DependencyInjection
import Testing

// A service bound to an actor (registered in an actor's method or a global actor's function, not
// Sendable) is made and handed out by a synchronous resolve written on that actor: the resolve
// knows its caller's actor from `#isolation`, which the compiler proves. Anywhere else it stays
// an error, and the hop that makes a main-actor service for such a caller makes nothing of the
// caller's actor on the main thread.

/// Not Sendable: a mutable class with no isolation of its own.
private final class Ledger {
    var count = 0
}

/// Sendable by fiat, given a `Ledger` by an `onResolve` action: it must never get one.
private final class LedgerHolder: @unchecked Sendable {
    // Unchecked: never given a `Ledger` in these tests (that stays on its actor).
    var ledger: Ledger?
}

@globalActor private actor LedgerGlobalActor { static let shared = LedgerGlobalActor() }

private actor Teller {
    func register(in box: DIContainer) { box.register { Shared(Ledger()) } }

    /// Every synchronous form on this actor gives the one instance, which the async form gives too.
    func sameLedgerEveryWay(in box: DIContainer) async throws -> Bool {
        let ledger = try box.tryResolve(Ledger.self)
        let resolved = box.resolve(Ledger.self)
        let awaited = try await box.resolveAsync(Ledger.self)
        return ledger === resolved && ledger === awaited
    }

    /// Written here, not in a closure handed to a nonisolated function (whose `#isolation` is `nil`).
    func holderError(in box: DIContainer) -> ResolutionError? {
        do {
            _ = try box.tryResolve(LedgerHolder.self)
            return nil
        } catch {
            return error as? ResolutionError
        }
    }
}

@LedgerGlobalActor private func registerOnTheGlobalActor(in box: DIContainer) {
    box.register { Shared(Ledger()) }
}

@LedgerGlobalActor private func sameLedgerTwiceOnTheGlobalActor(in box: DIContainer) throws -> Bool {
    try box.tryResolve(Ledger.self) === box.resolve(Ledger.self)
}

@Suite(.timeLimit(.minutes(1))) struct SynchronousResolveOnItsActorTests {
    @Test func aServiceBoundToAnActorInstanceResolvesSynchronouslyOnThatActor() async throws {
        let box = DIContainer()
        let teller = Teller()
        await teller.register(in: box)
        #expect(try await teller.sameLedgerEveryWay(in: box))
        let offTheActor = await Task.detached { resolutionError { _ = try box.tryResolve(Ledger.self) } }.value
        #expect(offTheActor?.reason == .notSendable(actor: "Teller"), "\(String(describing: offTheActor))")
    }

    @Test func aServiceBoundToAGlobalActorResolvesSynchronouslyOnThatActor() async throws {
        let box = DIContainer()
        await registerOnTheGlobalActor(in: box)
        #expect(try await sameLedgerTwiceOnTheGlobalActor(in: box))
        let offTheActor = await Task.detached { resolutionError { _ = try box.tryResolve(Ledger.self) } }.value
        #expect(offTheActor?.reason == .notSendable(actor: "LedgerGlobalActor"), "\(String(describing: offTheActor))")
    }

    /// Made on the main actor for a caller on `Teller`, a main-actor service whose factory needs a
    /// `Ledger` bound to `Teller` does not get one there: the main thread does not run for `Teller`.
    @Test func theHopToTheMainActorMakesNothingOfTheCallersActor() async throws {
        let box = DIContainer()
        let teller = Teller()
        await teller.register(in: box)
        // The action is nonisolated code: it runs wherever the holder is made (the main thread, here).
        box.register {
            Shared { @MainActor in LedgerHolder() }.onResolve { holder, resolve in
                holder.ledger = try resolve.tryResolve()
            }
        }
        let error = await teller.holderError(in: box)
        #expect(error?.reason == .notYetMade(actor: "Teller"), "\(String(describing: error))")
        #expect(error?.path == ["LedgerHolder", "Ledger"], "\(String(describing: error))")
    }
}
