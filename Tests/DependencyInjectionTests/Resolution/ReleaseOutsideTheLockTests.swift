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
private final class Dropped: Sendable {}
private final class DroppedHolder { @LazyInject var dropped: Dropped }

/// A container whose `New` of `Dropped` lets another thread drop the last other reference to the
/// container (`owner`'s) while it runs: the library's own reference is then the last one.
private func containerDroppedWhileMaking(_ log: Guarded<[Bool]>, owner: Guarded<DIContainer?>) -> DIContainer {
    let box = DIContainer()
    box.register {
        Shared(DeinitLockProbe(log))
        New { resolve -> Dropped in
            _ = resolve(DeinitLockProbe.self)
            let dropped = DispatchSemaphore(value: 0)
            Thread {
                owner.withLock { $0 = nil }
                dropped.signal()
            }.start()
            dropped.wait()
            return Dropped()
        }
    }
    owner.withLock { $0 = box }
    return box
}

private final class NeedsProbeAndRefused { init(probe: DeinitLockProbe, refused: RefusedService) {} }
private final class RefusedService { init() throws { throw Refused() } }
private final class CatchesItsDependencysFailure {}

private final class GivenSession {}
private final class GivenReader { init(session: GivenSession) {} }
private final class GivenScreen { init(reader: GivenReader, session: GivenSession) {} }
private final class GivenWatch: @unchecked Sendable { weak var session: GivenSession? }

private final class UsesAKeptWeak {}
private final class NeverRegistered {}

private final class DecoratedAfterAProbe {}
private final class ConvertedAfterAProbe {}

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

    @Test func aLazyWrapperReadWhileItsContainerGoesAwayFallsBackToTheCurrentOne() async {
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
            #expect(await onThread(timeout: 10) { group.wait() } != nil)
        }
    }

    /// The container goes (with its instances) once the lock is let go, whichever way it was reached:
    /// a lazy wrapper's weak reference, or a factory closure's.
    @Test func aContainerDroppedWhileALazyReadResolvesIsReleasedAfterTheLock() {
        let (log, owner) = (Guarded<[Bool]>([]), Guarded<DIContainer?>(nil))
        let holder = containerDroppedWhileMaking(log, owner: owner).activate { DroppedHolder() }
        _ = holder.dropped
        #expect(log.current == [true], "released under the lock: \(log.current)")
    }

    @Test func aContainerDroppedWhileAFactoryClosureResolvesIsReleasedAfterTheLock() {
        let (log, owner) = (Guarded<[Bool]>([]), Guarded<DIContainer?>(nil))
        let make = containerDroppedWhileMaking(log, owner: owner).factory(Dropped.self)
        _ = make()
        #expect(log.current == [true], "released under the lock: \(log.current)")
    }

    /// A `withOverrides` copy made inside a factory goes after the lock, with what it keeps.
    @Test func withOverridesInsideAFactoryReleasesItsCopyAfterTheLock() {
        let box = DIContainer()
        let log = Guarded<[Bool]>([])
        box.register {
            New { _ -> Dropped in
                box.withOverrides {
                    Shared(DeinitLockProbe(log)).eager()
                } operation: {
                }
                return Dropped()
            }
        }
        _ = box.resolve(Dropped.self)
        #expect(log.current == [true], "released under the lock: \(log.current)")
    }

    /// A `Graph` value an async factory run made again (before the fix) was released under the lock.
    @Test func anAsyncGraphValueOfAnAsyncRunIsReleasedAfterTheLock() async throws {
        let box = DIContainer()
        let log = Guarded<[Bool]>([])
        box.register {
            Graph { _ async in DeinitLockProbe(log) }
            Shared { _ async throws -> Dropped in
                _ = try await box.resolveAsync(DeinitLockProbe.self)
                _ = try await box.resolveAsync(DeinitLockProbe.self)
                return Dropped()
            }
        }
        _ = try await box.resolveAsync(Dropped.self)
        #expect(log.current == [true], "released under the lock: \(log.current)")
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

    /// A `New` or `Weak` a factory (an initializer's, or a closure) was given, and dropped when it
    /// failed, or when what it asked next failed: released after the lock, as a `Shared` one is.
    @Test(arguments: [Lifetime.new, .weak])
    func whatAFailingFactoryWasGivenIsReleasedAfterTheLock(lifetime: Lifetime) {
        let log = Guarded<[Bool]>([])
        let box = DIContainer()
        box.register {
            if lifetime == .new { New { DeinitLockProbe(log) } } else { Weak { DeinitLockProbe(log) } }
            New(RefusedService.init)
            New(NeedsProbeAndRefused.init)
            New { resolve -> CatchesItsDependencysFailure in
                // A nested resolve that fails after making the probe, caught: the factory goes on.
                _ = try? resolve.tryResolve(NeedsProbeAndRefused.self)
                return CatchesItsDependencysFailure()
            }
        }
        #expect(throws: ResolutionError.self) { try box.tryResolve(NeedsProbeAndRefused.self) }
        _ = box.resolve(CatchesItsDependencysFailure.self)
        #expect(log.current == [true, true])
    }

    /// Kept for the rollback only while the factory it was given to runs: a `Weak` that factory did
    /// not keep is made again by the next one in the same resolution, and a `New` is gone.
    @Test func whatASucceedingFactoryWasGivenAndDidNotKeepGoesWhenItReturns() {
        let made = Guarded(0)
        let watch = GivenWatch()
        let alive = Guarded<[Bool]>([])
        for lifetime in [Lifetime.weak, .new] {
            let box = DIContainer()
            box.register {
                if lifetime == .weak {
                    Weak { () -> GivenSession in
                        made.withLock { $0 += 1 }
                        return GivenSession()
                    }
                } else {
                    New { GivenSession() }
                }
                New { resolve -> GivenReader in
                    watch.session = resolve(GivenSession.self)  // read, not kept
                    return GivenReader(session: GivenSession())
                }
                New { resolve -> GivenScreen in
                    let reader: GivenReader = resolve()
                    alive.withLock { $0.append(watch.session != nil) }
                    return GivenScreen(reader: reader, session: resolve())
                }
            }
            _ = box.resolve(GivenScreen.self)
        }
        #expect(made.current == 2)
        #expect(alive.current == [false, false])
    }

    /// A kept `Weak` handed to a factory, whose other holder lets go (on another thread) while the
    /// factory runs: the factory then fails, holding the last reference, which goes after the lock.
    @Test func aKeptWeakAFailingFactoryHeldLastIsReleasedAfterTheLock() {
        let log = Guarded<[Bool]>([])
        let holder = Guarded<DeinitLockProbe?>(nil)
        let box = DIContainer()
        box.register {
            Weak { DeinitLockProbe(log) }
            New { resolve -> UsesAKeptWeak in
                let probe = resolve(DeinitLockProbe.self)  // the instance `holder` keeps
                let droppedElsewhere = DispatchSemaphore(value: 0)
                Thread {
                    holder.withLock { $0 = nil }
                    droppedElsewhere.signal()
                }.start()
                droppedElsewhere.wait()
                defer { withExtendedLifetime(probe) {} }  // now the last reference
                _ = try resolve.tryResolve(NeverRegistered.self)
                return UsesAKeptWeak()
            }
        }
        holder.withLock { $0 = box.resolve(DeinitLockProbe.self) }
        #expect(throws: ResolutionError.self) { try box.tryResolve(UsesAKeptWeak.self) }
        #expect(log.current == [true])
    }

    /// The same when the factory returned and its `Decorate` then fails.
    @Test(arguments: [Lifetime.new, .weak])
    func whatAFactoryWasGivenIsReleasedAfterTheLockWhenItsDecoratorFails(lifetime: Lifetime) {
        let log = Guarded<[Bool]>([])
        let box = DIContainer()
        box.register {
            if lifetime == .new { New { DeinitLockProbe(log) } } else { Weak { DeinitLockProbe(log) } }
            New { resolve -> DecoratedAfterAProbe in
                _ = resolve(DeinitLockProbe.self)
                return DecoratedAfterAProbe()
            }
            Decorate(DecoratedAfterAProbe.self) { _, _ in throw Refused() }
        }
        #expect(throws: ResolutionError.self) { try box.tryResolve(DecoratedAfterAProbe.self) }
        #expect(log.current == [true])
    }

    /// The same when the value was kept and then fails its `as:` conversion (a type registration
    /// could not check: a private protocol's conformance is looked for when resolved).
    @Test(arguments: [Lifetime.new, .weak])
    func whatAFactoryWasGivenIsReleasedAfterTheLockWhenItsValueFailsItsAlias(lifetime: Lifetime) {
        let log = Guarded<[Bool]>([])
        let box = DIContainer()
        box.register {
            if lifetime == .new { New { DeinitLockProbe(log) } } else { Weak { DeinitLockProbe(log) } }
            New(
                { resolve -> ConvertedAfterAProbe in
                    _ = resolve(DeinitLockProbe.self)
                    return ConvertedAfterAProbe()
                }, as: UnrelatedToItsValue.self)
        }
        #expect(throws: ResolutionError.self) { try box.tryResolve(UnrelatedToItsValue.self) }
        #expect(log.current == [true])
    }
}
