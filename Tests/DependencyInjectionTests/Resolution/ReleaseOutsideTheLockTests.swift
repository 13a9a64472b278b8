import DependencyInjection
import Foundation
import Testing

// Nothing a resolution releases is released while the library's lock is held, lazy wrappers
// survive their container going away on another thread, and a lazy read inside a failed
// resolution keeps nothing that resolution dropped.

private final class LazyWired: Sendable {}

private final class LazyHolder: @unchecked Sendable {
    // Unchecked: the wrapper is never set, and its storage is guarded by the library's lock.
    @LazyInject var wired: LazyWired?
}

private final class WiredHolder {
    @LazyInject var wired: Wired
}

private final class Wired {}
private final class FailsAfterLazyRead {}
private struct Refused: Error {}
private protocol UnrelatedToItsValue: AnyObject {}

@Suite(.timeLimit(.minutes(1)))
struct ReleaseOutsideTheLockTests {
    @Test func aGraphInstanceIsReleasedAfterTheResolveLetsGoOfTheLock() {
        let box = DIContainer()
        let outcome = Guarded<Bool?>(nil)
        box.register {
            Shared(Engine())
            Graph { ResolvesInDeinit { outcome.withLock { $0 = anotherThreadCanResolve(from: box) } } }
            New { resolve -> Session in
                _ = resolve(ResolvesInDeinit.self)
                return Session()
            }
        }
        _ = box.resolve(Session.self)
        #expect(outcome.current == true)
    }

    @Test func whatAFailedResolutionDropsIsReleasedAfterTheLock() {
        let box = DIContainer()
        let outcome = Guarded<Bool?>(nil)
        box.register {
            Shared(Engine())
            Shared { ResolvesInDeinit { outcome.withLock { $0 = anotherThreadCanResolve(from: box) } } }
            New { resolve -> Session in
                _ = resolve(ResolvesInDeinit.self)
                throw Refused()
            }
        }
        #expect(throws: ResolutionError.self) { try box.tryResolve(Session.self) }
        #expect(outcome.current == true)
    }

    /// A main-actor `New` registered off the main actor whose `as:` type it does not conform to
    /// (checked when resolved, on the main actor): the value made is released after the lock.
    @Test func aValueThatFailsItsAliasIsReleasedAfterTheLock() async {
        let box = DIContainer()
        let outcome = Guarded<Bool?>(nil)
        box.register {
            Shared(Engine())
            New(
                { @MainActor in ResolvesInDeinit { outcome.withLock { $0 = anotherThreadCanResolve(from: box) } } },
                as: UnrelatedToItsValue.self)
        }
        let failed = await MainActor.run { (try? box.tryResolve(UnrelatedToItsValue.self)) == nil }
        #expect(failed)
        #expect(outcome.current == true)
    }

    /// A decorator that returns a new value instead of wrapping the one it was given: the value it
    /// replaced is released after the lock, for every lifetime and each decorator of a chain.
    @Test(arguments: [Lifetime.new, .shared])
    func aValueADecoratorReplacedIsReleasedAfterTheLock(lifetime: Lifetime) {
        let box = DIContainer()
        let outcomes = Guarded<[Bool]>([])
        func made() -> ResolvesInDeinit {
            ResolvesInDeinit { outcomes.withLock { $0.append(anotherThreadCanResolve(from: box)) } }
        }
        box.register {
            Shared(Engine())
            if lifetime == .new { New { made() } } else { Shared { made() } }
            Decorate(ResolvesInDeinit.self) { _, _ in made() }
            Decorate(ResolvesInDeinit.self) { _, _ in made() }
        }
        _ = box.resolve(ResolvesInDeinit.self)
        box.releaseInstances()
        #expect(outcomes.current == [true, true, true], "released under the lock: \(outcomes.current)")
    }

    @Test func aLazyWrapperReadWhileItsContainerGoesAwayFallsBackToTheCurrentOne() {
        for _ in 0..<200 {
            let owner = Guarded<DIContainer?>(nil)
            let holder = { () -> LazyHolder in
                let box = DIContainer()
                box.register { Shared(LazyWired()) }
                owner.withLock { $0 = box }
                return box.activate { LazyHolder() }
            }()
            let start = DispatchSemaphore(value: 0)
            let group = DispatchGroup()
            for _ in 0..<4 {
                DispatchQueue.global().async(group: group) {
                    start.wait()
                    _ = holder.wired
                }
            }
            DispatchQueue.global().async(group: group) {
                start.wait()
                owner.withLock { $0 = nil }
            }
            for _ in 0..<5 { start.signal() }
            #expect(group.wait(timeout: .now() + 10) == .success)
        }
    }

    @Test func aLazyReadInsideAFailedResolutionKeepsNothingItDropped() throws {
        let box = DIContainer()
        box.register {
            Shared(WiredHolder())
            Shared(Wired())
            New { resolve -> FailsAfterLazyRead in
                let holder: WiredHolder = resolve()
                _ = holder.wired
                throw Refused()
            }
        }
        let holder = box.resolve(WiredHolder.self)
        #expect(throws: ResolutionError.self) { try box.tryResolve(FailsAfterLazyRead.self) }
        #expect(holder.wired === box.resolve(Wired.self))
    }
}
