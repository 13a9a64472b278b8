import DependencyInjection
import Foundation
import Testing

// A `register` or `registerDependencies()` reached in the middle of a resolution sets that
// resolution aside (a transaction of its own): what a validate() probe that parks then takes back,
// and the paths, cycles, hints, refusals and main-actor hops that must see across it.

private struct SetAsideMissing {}
private final class SetAsideRoot { init() {} }
private final class SetAsideEager { init() {} }
private final class SetAsideWatched { init() {} }
private final class CycleRoot { init() {} }
private final class CycleEager { init(_ root: CycleRoot) {} }
/// Unchecked: set by a factory before validate() returns, read by the test after it (a weak reference zeroes atomically).
private final class SetAsideCheck { init() {} }
private final class SetAsideNew { init() {} }
private final class SetAsideEagerNew { init(_ x: SetAsideNew) {} }
private final class SetAsidePlain { init() {} }
private final class WeakWatch: @unchecked Sendable { weak var value: AnyObject? }

@Suite(.timeLimit(.minutes(1)))
struct SetAsideResolutionTests {
    // A parked probe lets go of what it took back before it signals validate() (`abandonResolution`,
    // then `finished`), so what it kept is gone once validate() returns: no waiting here.
    /// Control: a check that made a Shared with an action, and parks, lets it go.
    @Test func controlAParkedCheckLetsGoOfWhatItsResolutionMade() async throws {
        let watch = WeakWatch()
        let box = DIContainer()
        box.register {
            Shared { () -> SetAsideWatched in
                let made = SetAsideWatched()
                watch.value = made
                return made
            }.onResolve { _, _ in }
            Shared { resolve -> SetAsideRoot in
                _ = resolve(SetAsideWatched.self)
                _ = resolve(SetAsideMissing.self)
                return SetAsideRoot()
            }
        }
        let report = try #require(await onThread { box.validate() })
        #expect(!report.isValid)
        #expect(watch.value == nil, "kept alive by the parked thread")
    }

    /// The same check, parking in an eager factory of a `register` its factory runs: the resolution
    /// set aside (on the parked thread's stack, `withResolutionSetAside`'s `aside`) keeps it for good.
    @Test func aCheckParkedUnderARegisterLetsGoOfWhatTheOuterResolutionMade() async throws {
        let watch = WeakWatch()
        let other = DIContainer()
        let box = DIContainer()
        box.register {
            Shared { () -> SetAsideWatched in
                let made = SetAsideWatched()
                watch.value = made
                return made
            }.onResolve { _, _ in }
            Shared { resolve -> SetAsideRoot in
                _ = resolve(SetAsideWatched.self)
                other.register {
                    Shared { resolve -> SetAsideEager in
                        _ = resolve(SetAsideMissing.self)
                        return SetAsideEager()
                    }.eager()
                }
                return SetAsideRoot()
            }
        }
        let report = try #require(await onThread { box.validate() })
        #expect(!report.isValid)
        #expect(watch.value == nil, "kept alive by the parked thread")
    }

    /// A cycle that goes through a `register` a factory runs: the cycle names the whole loop, as the
    /// path (which now starts at the set-aside steps) does.
    @Test func aCycleThroughARegisterNamesTheWholeLoop() throws {
        let box = DIContainer()
        let other = DIContainer()
        box.register {
            Shared { outer -> CycleRoot in
                try other.tryRegister {
                    Shared { _ in CycleEager(try outer.tryResolve(CycleRoot.self)) }.eager()
                }
                return CycleRoot()
            }
        }
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(CycleRoot.self) }
        #expect(error.path == ["CycleRoot", "CycleEager", "CycleRoot"], "\(error)")
        guard case .dependencyCycle(let cycle) = error.reason else {
            Issue.record("\(error)")
            return
        }
        #expect(cycle == ["CycleRoot", "CycleEager", "CycleRoot"], "\(error)")
    }

    /// The same in validate(), whose check said the whole loop before bba087d.
    @Test func validateNamesTheWholeLoopOfACycleThroughARegister() async throws {
        let box = DIContainer()
        let other = DIContainer()
        box.register {
            Shared { outer -> CycleRoot in
                try other.tryRegister {
                    Shared { _ in CycleEager(try outer.tryResolve(CycleRoot.self)) }.eager()
                }
                return CycleRoot()
            }
        }
        let report = try #require(await onThread { box.validate() })
        let error = try #require(report.problems.first?.error)
        guard case .dependencyCycle(let cycle) = error.reason else {
            Issue.record("\(report)")
            return
        }
        #expect(cycle == ["CycleRoot", "CycleEager", "CycleRoot"], "\(report)")
    }

    /// A `New` (or `Graph`) value the outer factory was given and dropped, then parked under a register:
    /// taken back with the abandoned resolution, it is never released (the parked thread keeps a copy of
    /// the set-aside state). `underRegister: false` is the control.
    @Test(arguments: [(false, false), (true, false), (false, true), (true, true)])
    func aParkedCheckLetsGoOfWhatItsFactoryWasGiven(underRegister: Bool, graph: Bool) async throws {
        let watch = WeakWatch()
        let other = DIContainer()
        let box = DIContainer()
        let make = { () -> SetAsideWatched in
            let made = SetAsideWatched()
            watch.value = made
            return made
        }
        box.register {
            if graph { Graph(make) } else { New(make) }
            Shared { resolve -> SetAsideRoot in
                _ = resolve(SetAsideWatched.self)
                if underRegister {
                    other.register {
                        Shared { resolve -> SetAsideEager in
                            _ = resolve(SetAsideMissing.self)
                            return SetAsideEager()
                        }.eager()
                    }
                } else {
                    _ = resolve(SetAsideMissing.self)
                }
                return SetAsideRoot()
            }
        }
        let report = try #require(await onThread { box.validate() })
        #expect(!report.isValid)
        #expect(watch.value == nil, "kept alive by the parked thread")
    }

    /// Nested registers: a park inside the innermost eager factory, or after the inner register ended.
    @Test(arguments: [false, true])
    func aParkUnderNestedRegistersLeavesNothingBehind(afterInner: Bool) async throws {
        let made = Guarded(0)
        let other = DIContainer()
        let third = DIContainer()
        let box = DIContainer()
        box.register {
            Shared { _ -> SetAsideRoot in
                other.register {
                    Shared { resolve -> SetAsideEager in
                        third.register {
                            Shared { resolve -> SetAsideWatched in
                                made.increment()
                                if !afterInner { _ = resolve(SetAsideMissing.self) }
                                return SetAsideWatched()
                            }.eager()
                        }
                        if afterInner { _ = resolve(SetAsideMissing.self) }
                        return SetAsideEager()
                    }.eager()
                }
                return SetAsideRoot()
            }
        }
        let report = try #require(await onThread { box.validate() })
        #expect(!report.isValid)
        #expect(
            report.problems.first?.error.path == ["SetAsideRoot", "SetAsideEager"]
                + (afterInner ? [] : ["SetAsideWatched"]) + ["SetAsideMissing"], "\(report)")
        #expect(other.registrations.isEmpty, "\(other.registrations)")
        #expect(third.registrations.count == (afterInner ? 1 : 0))
        if afterInner {
            _ = try third.tryResolve(SetAsideWatched.self)
            #expect(made.current == 1)
        }
        // Nothing left "being made", nothing half installed: both take registrations and resolve.
        other.register { Shared { SetAsideEager() } }
        third.register { Shared { SetAsideWatched() } }
        #expect(throws: Never.self) { try other.tryResolve(SetAsideEager.self) }
        #expect(throws: Never.self) { try third.tryResolve(SetAsideWatched.self) }
        #expect((await onThread { box.validate() })?.problems.count == 1)
    }

    /// What the outer resolution made, taken back when a check parks under a register, is released after the lock.
    @Test(arguments: [false, true])
    func whatAParkUnderARegisterTakesBackIsReleasedAfterTheLock(inner: Bool) async throws {
        let log = Guarded<[Bool]>([])
        let other = DIContainer()
        let box = DIContainer()
        box.register {
            Shared { DeinitLockProbe(log) }
            Shared { outer -> SetAsideRoot in
                if !inner { _ = outer(DeinitLockProbe.self) }
                other.register {
                    Shared { resolve -> SetAsideEager in
                        if inner { _ = outer(DeinitLockProbe.self) }
                        _ = resolve(SetAsideMissing.self)
                        return SetAsideEager()
                    }.eager()
                }
                return SetAsideRoot()
            }
        }
        let report = try #require(await onThread { box.validate() })
        #expect(!report.isValid)
        #expect(log.current.count == 2 && !log.current.contains(false), "\(log.current)")
    }

    /// A New without actions whose factory registers an eager Shared whose action cycles back to it:
    /// the hint blames the New's (non-existent) onResolve action.
    @Test func aCycleThroughAnEagerActionUnderARegisterGivesTheRightHint() throws {
        let box = DIContainer()
        let other = DIContainer()
        box.register {
            New { outer -> SetAsideNew in
                try other.tryRegister {
                    Shared { SetAsidePlain() }.onResolve { _, _ in _ = try outer.tryResolve(SetAsideNew.self) }.eager()
                }
                return SetAsideNew()
            }
        }
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(SetAsideNew.self) }
        #expect(!error.description.contains("not New"), "\(error)")
    }

    /// A New whose onResolve action registers an eager Shared whose factory cycles back to it: the
    /// cycle runs through the New's action; the hint should say so, as it does without the register.
    @Test(arguments: [false, true])
    func aNewsActionThatCyclesBackThroughARegisterGetsTheNewHint(throughRegister: Bool) throws {
        let box = DIContainer()
        let other = DIContainer()
        box.register {
            New { SetAsideNew() }.onResolve { _, resolve in
                if throughRegister {
                    try other.tryRegister {
                        Shared { _ in SetAsideEagerNew(try resolve.tryResolve(SetAsideNew.self)) }.eager()
                    }
                } else {
                    _ = try resolve.tryResolve(SetAsideEagerNew.self)
                }
            }
            Shared { resolve in SetAsideEagerNew(try resolve.tryResolve(SetAsideNew.self)) }
        }
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(SetAsideNew.self) }
        #expect(error.description.contains("not New"), "\(error)")
    }

    /// A factory of `box` registering into `box` is refused; through an eager factory of a `register`
    /// into another container (which sets `box`'s resolution aside), it is let through.
    @Test(arguments: [false, true])
    func registeringIntoAContainerWhoseFactoryRunsIsRefusedThroughARegisterToo(throughRegister: Bool) throws {
        let box = DIContainer()
        let other = DIContainer()
        box.register {
            Shared { [unowned box] _ -> SetAsidePlain in
                if throughRegister {
                    try other.tryRegister {
                        Shared { [unowned box] _ -> SetAsideCheck in
                            try box.tryRegister(Shared(MemoryStore() as Store))
                            return SetAsideCheck()
                        }.eager()
                    }
                } else {
                    try box.tryRegister(Shared(MemoryStore() as Store))
                }
                return SetAsidePlain()
            }
        }
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(SetAsidePlain.self) }
        #expect(error.reason == .mutationDuringResolution(operation: "register"), "\(error)")
    }

    /// A check that bootstraps a real container (a withOverrides copy reset), whose
    /// registerDependencies() registers an eager service that fails: the probe parks in it.
    @Test func aProbeParkingInRegisterDependenciesReachedInACheck() async throws {
        let holder = Guarded<DIContainer?>(nil)
        DIContainer.withOverrides {
        } operation: {
            DIContainer.reset()
            holder.withLock { $0 = DIContainer.current }
        }
        let copy = try #require(holder.current)
        let extra = Module {
            Shared { resolve -> SetAsidePlain in
                _ = resolve(SetAsideMissing.self)
                return SetAsidePlain()
            }.eager()
        }
        let box = DIContainer()
        box.register {
            Shared { _ -> SetAsideCheck in
                BootstrapExtra.current.withValue(extra) { _ = copy.resolve(Greeting.self) }
                return SetAsideCheck()
            }
        }
        let report = try #require(await onThread { box.validate() })
        #expect(!report.isValid)
        #expect(
            report.problems.first?.error.path == ["SetAsideCheck", "SetAsidePlain", "SetAsideMissing"], "\(report)")
        // The copy: its registerDependencies() was abandoned half-way.
        #expect(copy.registrations.count >= 1, "\(copy.registrations)")
        #expect(throws: Never.self) { try copy.tryResolve(Greeting.self) }
    }

    /// aSharedMadeBeforeTheMainActorIsNeededIsMadeOnce (AsyncTests), the main actor needed in an eager
    /// factory of a `register` the plain factory runs: the hop's "kept nothing yet" reads only the
    /// register's fresh state, so the whole resolve is made again on the main actor, StoreJournal too.
    @Test(arguments: [false, true])
    func aSharedMadeBeforeARegisterThatNeedsTheMainActorIsMadeOnce(throughRegister: Bool) async throws {
        let runs = Tally()
        let box = DIContainer()
        let other = DIContainer()
        box.register {
            Shared { @MainActor in StoreSettings() }
            Shared { StoreJournal(runs) }
            Shared { resolve throws -> StoreDesk in
                let journal: StoreJournal = try resolve.tryResolve()
                if throughRegister {
                    try other.tryRegister {
                        Shared { _ -> SetAsidePlain in
                            _ = try resolve.tryResolve(StoreSettings.self)
                            return SetAsidePlain()
                        }.eager()
                    }
                }
                return StoreDesk(journal: journal, settings: try resolve.tryResolve())
            }
            Shared { resolve async throws in StoreFront(desk: try resolve.tryResolve()) }
        }
        _ = try? await box.resolveAsync(StoreFront.self)
        #expect(runs.value == 1, "StoreJournal's factory ran \(runs.value) times")
    }
}
