import DependencyInjection
import Testing

// A closure that uses an actor (`self`) is isolated to it, so a resolve written in it has that actor
// as its `#isolation`. The library runs a factory where its registration says, and a registration of
// a `Sendable` value written in an actor's method is not bound to the actor: its factory runs on any
// thread. A resolve in it must not count as running on the actor there, or what is bound to the
// actor (not `Sendable`) is made off it.

/// Not Sendable: a mutable class with no isolation of its own.
private final class Vault {
    var count = 0
}

/// What the factory of a `Receipt` got when it asked for a `Vault`.
private struct Receipt: Sendable {
    let vaultError: ResolutionError.Reason?
}

private actor Cashier {
    func register(in box: DIContainer) {
        box.register { Shared(Vault()) }
        // Isolated to this actor (it uses `self`); a `Sendable` value, so not bound to the actor.
        let receipt = { (resolve: Resolver) -> Receipt in
            _ = self
            do {
                _ = try resolve.tryResolve(Vault.self)
                return Receipt(vaultError: nil)
            } catch {
                return Receipt(vaultError: (error as? ResolutionError)?.reason)
            }
        }
        box.register { Shared(receipt) }
    }
}

@Suite(.timeLimit(.minutes(1))) struct ActorCodeRunOffItsActorTests {
    @Test func aResolveInAFactoryRunOffTheActorItIsWrittenOnMakesNothingOfThatActor() async {
        let box = DIContainer()
        await Cashier().register(in: box)
        let receipt = await Task.detached { box.resolve(Receipt.self) }.value
        #expect(receipt.vaultError == .notYetMade(actor: "Cashier"), "the Vault was made off its actor")
    }
}
