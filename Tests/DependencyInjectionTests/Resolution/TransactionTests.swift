import DependencyInjection
import Testing

/// A service that no test registers.
private struct NeverRegistered {}
private final class TransactionRoot { init() {} }
private final class AsyncTransactionRoot: Sendable { init() {} }
private final class Logger {
    var isWired = false
    init() {}
}
private final class FailingPart {}
private struct Refusal: Error {}
private final class SessionHolder {
    let session: Session
    init(session: Session) { self.session = session }
}
private final class AlreadyMadeConfig { init() {} }
private final class AlreadyHeldCache { init() {} }
private final class NeedsWhatIsMissing { init(config: AlreadyMadeConfig, missing: NeverRegistered) {} }
private final class WiredByAFailingAction { init() {} }
private final class LoopStart { init(end: LoopEnd) {} }
private final class LoopEnd { init(start: LoopStart) {} }

/// A resolution is one transaction from its first step until what it made is kept (or dropped):
/// whatever resolves on its thread meanwhile is part of it, and a nested block that fails takes
/// back what it made.
@Suite(.timeLimit(.minutes(1)))
struct TransactionTests {
    /// The `New` instance's last owner is its queued `onResolve` action: it goes away while the
    /// outer resolution runs its actions, and its `deinit` resolves (and fails).
    @Test func aDeinitThatResolvesWhileActionsRunDoesNotTakeOverTheResolution() {
        let box = DIContainer()
        let made = Guarded(0)
        let wired = Guarded(0)
        box.register {
            New { [unowned box] _ in ResolvesInDeinit { _ = try? box.tryResolve(NeverRegistered.self) } }
                .onResolve { _, _ in }
            Shared { resolve -> TransactionRoot in
                _ = resolve(ResolvesInDeinit.self)
                made.increment()
                return TransactionRoot()
            }.onResolve { _, _ in wired.increment() }
        }
        let first = box.resolve(TransactionRoot.self)
        #expect(box.resolve(TransactionRoot.self) === first)
        #expect(made.current == 1)
        #expect(wired.current == 1)
    }

    @Test func anInstanceOnlyAnActionKeptGoesAwayAfterTheResolutionAndResolvesOnItsOwn() {
        let box = DIContainer()
        let seenInDeinit = Guarded<[ObjectIdentifier]>([])
        let seenInAction = Guarded<[ObjectIdentifier]>([])
        box.register {
            Graph(Session.init)
            New { [unowned box] _ in
                ResolvesInDeinit {
                    seenInDeinit.withLock { $0.append(ObjectIdentifier(box.resolve(Session.self))) }
                }
            }.onResolve { _, _ in }
            New { resolve -> SessionHolder in
                _ = resolve(ResolvesInDeinit.self)
                return SessionHolder(session: resolve())
            }.onResolve { _, resolve in
                seenInAction.withLock { $0.append(ObjectIdentifier(resolve(Session.self))) }
            }
        }
        let user = box.resolve(SessionHolder.self)
        // The action saw the resolution's instance; the instance it kept goes away once the
        // resolution is over, so its deinit's resolve is a resolution of its own.
        #expect(seenInAction.current == [ObjectIdentifier(user.session)])
        #expect(seenInDeinit.current.count == 1)
        #expect(seenInDeinit.current != [ObjectIdentifier(user.session)])
    }

    /// A factory of `box` registers a block into `other`; the block's second eager registration fails.
    /// A factory may catch a failed `tryResolve` and go on: what that resolve made is dropped with
    /// it, as a failed top-level resolve's is, and no action runs for it.
    @Test func aFailedResolveAFactoryCatchesKeepsNothingItMadeAndRunsNoAction() {
        let events = Guarded<[String]>([])
        let engines = Guarded(0)
        let box = DIContainer()
        box.register {
            New(Logger.init).onResolve { _, _ in events.append("logger wired") }
            Shared { _ -> Engine in
                engines.increment()
                return Engine()
            }
            Shared { resolve -> FailingPart in
                _ = resolve(Logger.self)
                _ = resolve(Engine.self)
                throw Refusal()
            }
            Shared { resolve -> TransactionRoot in
                _ = try? resolve.tryResolve(FailingPart.self)
                return TransactionRoot()
            }.onResolve { _, _ in events.append("root wired") }
        }
        _ = box.resolve(TransactionRoot.self)
        #expect(events.current == ["root wired"])
        _ = box.resolve(Engine.self)
        #expect(engines.current == 2, "the Engine the failed resolve made was dropped with it")
    }

    /// The `Graph` instances a failed nested resolve made are dropped; those made before it stay.
    @Test func aFailedResolveAFactoryCatchesDropsOnlyTheGraphInstancesItMade() {
        final class Before {}
        final class During {}
        final class Outcome {
            let sameBefore: Bool
            let sameDuring: Bool
            init(sameBefore: Bool, sameDuring: Bool) { (self.sameBefore, self.sameDuring) = (sameBefore, sameDuring) }
        }
        let seen = Guarded<ObjectIdentifier?>(nil)
        let box = DIContainer()
        box.register {
            Graph(Before.init)
            Graph(During.init)
            Shared { resolve -> FailingPart in
                let during: During = resolve()
                seen.withLock { $0 = ObjectIdentifier(during) }
                throw Refusal()
            }
            New { resolve -> Outcome in
                let before: Before = resolve()
                _ = try? resolve.tryResolve(FailingPart.self)
                let during: During = resolve()
                return Outcome(
                    sameBefore: before === resolve(Before.self), sameDuring: seen.current == ObjectIdentifier(during))
            }
        }
        let outcome = box.resolve(Outcome.self)
        #expect(outcome.sameBefore, "made before the failure: kept for the rest of the resolution")
        #expect(!outcome.sameDuring, "made by the failed resolve: dropped with it")
    }

    @Test func aFailedEagerBlockInsideAFactoryKeepsNothingItMadeAndRunsNoAction() {
        let other = DIContainer()
        let engines = Guarded(0)
        other.register {
            Shared { _ -> Engine in
                engines.increment()
                return Engine()
            }
        }
        let events = Guarded<[String]>([])
        let box = DIContainer()
        box.register {
            Shared { _ -> TransactionRoot in
                do {
                    try other.tryRegister {
                        Shared(Database()).eager().onResolve { _, _ in events.append("database wired") }
                        Shared { resolve -> ImageCache in
                            _ = try resolve.tryResolve(Engine.self)
                            _ = try resolve.tryResolve(NeverRegistered.self)
                            return ImageCache()
                        }.eager()
                    }
                } catch {
                    events.append("register failed")
                }
                return TransactionRoot()
            }
        }
        _ = box.resolve(TransactionRoot.self)
        #expect(events.current == ["register failed"])
        #expect(other.registrations.map(\.typeName) == ["Engine"])
        // The Engine the failed block made was dropped with it: the next resolve makes one.
        _ = other.resolve(Engine.self)
        #expect(engines.current == 2)
    }

    /// A register inside a factory is a transaction of its own: its eager instances and their
    /// actions are made before it returns (a failing action makes it throw and change nothing), and
    /// what it made stays when the resolution around it fails.
    @Test func aRegisterInsideAnotherContainersFactoryIsATransactionOfItsOwn() throws {
        let other = DIContainer()
        let events = Guarded<[String]>([])
        let box = DIContainer()
        box.register {
            Shared { _ -> TransactionRoot in
                do {
                    try other.tryRegister { Shared(Database()).eager().onResolve { _, _ in throw Refusal() } }
                    events.append("registered")
                } catch {
                    events.append("register failed")
                }
                return TransactionRoot()
            }
        }
        _ = try box.tryResolve(TransactionRoot.self)
        #expect(events.current == ["register failed"])
        #expect(other.registrations.isEmpty)

        let engines = Guarded(0)
        let failing = DIContainer()
        failing.register {
            Shared { _ throws -> SessionHolder in
                other.register {
                    Shared { () -> Engine in
                        engines.increment()
                        return Engine()
                    }.eager()
                }
                throw Refusal()
            }
        }
        #expect(throws: ResolutionError.self) { try failing.tryResolve(SessionHolder.self) }
        #expect(engines.current == 1)
        _ = other.resolve(Engine.self)
        #expect(engines.current == 1, "the eager instance stayed made")
    }

    /// `validate()` parks a probe whose non-throwing factory failed: here, inside a `register`
    /// into another container, which never gets to put that container back itself.
    @Test func aProbeParkedInsideARegisterOfAnotherContainerLeavesThatContainerAsItWas() async throws {
        let other = DIContainer()
        other.register { Shared(Database.init) }
        let box = DIContainer()
        box.register {
            Shared { _ -> TransactionRoot in
                other.register {
                    Shared(Engine())
                    Shared { resolve in Pair(resolve(NeverRegistered.self), 0) }.eager()
                }
                return TransactionRoot()
            }
        }
        let report = try #require(await onThread { box.validate() })
        #expect(!report.isValid)
        #expect(other.registrations.map(\.typeName) == ["Database"])
    }

    /// A `validate()` probe that fails after its factory's `register` into another container ended
    /// keeps what that `register` made, as the app's failed resolve does (the test before the last):
    /// a `register` is a transaction of its own in a check too. Its `eager()` factory ran again.
    @Test func aProbeThatFailsAfterARegisterKeepsItsEagerInstancesAsTheAppDoes() async throws {
        let engines = Guarded(0)
        let other = DIContainer()
        let box = DIContainer()
        box.register {
            Shared { resolve -> TransactionRoot in
                other.register {
                    Shared { () -> Engine in
                        engines.increment()
                        return Engine()
                    }.eager()
                }
                _ = resolve(NeverRegistered.self)
                return TransactionRoot()
            }
        }
        let report = try #require(await onThread { box.validate() })
        #expect(!report.isValid)
        #expect(engines.current == 1)
        _ = other.resolve(Engine.self)
        #expect(engines.current == 1, "the eager instance was dropped with the failed check, and made again")
    }

    /// The same in an async check, whose failure parks its task's thread (it kept them before too: a guard).
    @Test func anAsyncCheckThatFailsAfterARegisterKeepsItsEagerInstancesAsTheAppDoes() async throws {
        let engines = Guarded(0)
        let other = DIContainer()
        let box = DIContainer()
        box.register {
            Shared { resolve async -> AsyncTransactionRoot in
                other.register {
                    Shared { () -> Engine in
                        engines.increment()
                        return Engine()
                    }.eager()
                }
                _ = resolve(NeverRegistered.self)
                return AsyncTransactionRoot()
            }
        }
        let report = await box.validate()
        #expect(!report.isValid, "\(report)")
        #expect(engines.current == 1)
        _ = other.resolve(Engine.self)
        #expect(engines.current == 1, "the eager instance was dropped with the failed check, and made again")
    }

    /// A failure in a `register` that a factory runs, a transaction of its own, names the whole
    /// path: the factory's own step first.
    @Test func aFailureInARegisterAFactoryRunsHasTheWholePath() throws {
        let other = DIContainer()
        let box = DIContainer()
        box.register {
            Shared { _ -> TransactionRoot in
                try other.tryRegister {
                    Shared { resolve in Pair(try resolve.tryResolve(NeverRegistered.self), 0) }.eager()
                }
                return TransactionRoot()
            }
        }
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(TransactionRoot.self) }
        #expect(error.path == ["TransactionRoot", "Pair<NeverRegistered, Int>", "NeverRegistered"], "\(error)")
    }

    /// The failing action held the last reference to the `New` instance, whose `deinit` resolves.
    @Test func aDeinitAfterAFailedResolutionResolvesOnItsOwn() {
        let box = DIContainer()
        let loggersMade = Guarded(0)
        let seen = Guarded<[(id: ObjectIdentifier, isWired: Bool)]>([])
        box.register {
            Shared { _ -> Logger in
                loggersMade.increment()
                return Logger()
            }.onResolve { logger, _ in logger.isWired = true }
            New { [unowned box] _ in
                ResolvesInDeinit {
                    let logger = box.resolve(Logger.self)
                    seen.withLock { $0.append((ObjectIdentifier(logger), logger.isWired)) }
                }
            }.onResolve { _, resolve in _ = try resolve.tryResolve(NeverRegistered.self) }
        }
        #expect(throws: ResolutionError.self) { try box.tryResolve(ResolvesInDeinit.self) }
        #expect(seen.current.first?.isWired == true)
        #expect(seen.current.first?.id == ObjectIdentifier(box.resolve(Logger.self)))
        #expect(loggersMade.current == 1)
    }

    @Test func aFailedResolveKeepsTheSharedAndWeakInstancesItFoundAlreadyMade() {
        let box = DIContainer()
        box.register {
            Shared(AlreadyMadeConfig.init)
            Weak(AlreadyHeldCache.init)
            Shared { resolve in
                _ = resolve(AlreadyHeldCache.self)
                return try NeedsWhatIsMissing(config: resolve(), missing: resolve.tryResolve())
            }
        }
        let config = box.resolve(AlreadyMadeConfig.self)
        let cache = box.resolve(AlreadyHeldCache.self)
        #expect(throws: ResolutionError.self) { _ = try box.tryResolve(NeedsWhatIsMissing.self) }
        #expect(box.resolve(AlreadyMadeConfig.self) === config)
        #expect(box.resolve(AlreadyHeldCache.self) === cache)
    }

    /// A probe parked inside an `onResolve` action is no resolution any more: what it was doing
    /// (running actions) must not colour the next resolution's error, on any thread.
    @Test func aProbeParkedInAnActionLeavesNothingOfItsResolutionBehind() async throws {
        let broken = DIContainer()
        broken.register {
            Shared(WiredByAFailingAction.init).onResolve { _, resolve in _ = resolve(NeverRegistered.self) }
        }
        let report = try #require(await onThread { broken.validate() })
        #expect(!report.isValid)
        let box = DIContainer()
        box.register {
            New(LoopStart.init)
            New(LoopEnd.init)
        }
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(LoopStart.self) }
        #expect(error.description.contains("break the cycle: let one side get the other after creation"), "\(error)")
    }
}
