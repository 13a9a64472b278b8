import DependencyInjection
import Foundation
import Testing

// A `register` or `registerDependencies()` reached in the middle of a resolution sets that
// resolution aside (a transaction of its own): what a validate() probe that parks then takes back,
// the paths and cycles named across it, and what other threads see while validate() runs there.

private struct SetAsideMissing {}
private final class SetAsideRoot { init() {} }
private final class SetAsideEager { init() {} }
private final class SetAsideWatched { init() {} }
private final class SetAsideFoo { init(_ missing: SetAsideMissing) {} }
private final class SetAsideParks { init() {} }
private final class CycleRoot { init() {} }
private final class CycleEager { init(_ root: CycleRoot) {} }
private final class SetAsideAsync: Sendable { init() {} }
/// Unchecked: set by a factory before validate() returns, read by the test after it (a weak reference zeroes atomically).
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

    /// validate() inside registerDependencies(), first reached in another container's factory: the
    /// checks (other threads, while the lock is free) get the factory's resolution as set aside.
    @Test func validateInRegisterDependenciesReachedInAFactoryGivesItsChecksTheirOwnPath() {
        let capture = ValidationCapture()
        let box = DIContainer()
        DIContainer.withOverrides {
        } operation: {
            DIContainer.reset()
            let copy = DIContainer.current
            box.register {
                New { _ -> Engine in
                    _ = copy.resolve(Greeting.self)
                    return Engine()
                }
            }
            let extra = Module { Shared { resolve in SetAsideFoo(try resolve.tryResolve(SetAsideMissing.self)) } }
            BootstrapExtra.current.withValue(extra) {
                ValidationCapture.current.withValue(capture) { _ = box.resolve(Engine.self) }
            }
        }
        let report = capture.report
        let problem = report?.problems.first { $0.registration.contains("SetAsideFoo") }
        #expect(problem?.error.path == ["SetAsideFoo", "SetAsideMissing"], "\(String(describing: report))")
    }

    /// The same, a check that parks: it abandons the factory's resolution on the other thread, which
    /// goes on (its Shared instance is taken back, and made again).
    @Test func aParkedCheckInRegisterDependenciesLeavesTheResolutionThatReachedItAlone() {
        let capture = ValidationCapture()
        let box = DIContainer()
        let given = Guarded<Database?>(nil)
        let databases = Guarded(0)
        DIContainer.withOverrides {
        } operation: {
            DIContainer.reset()
            let copy = DIContainer.current
            box.register {
                Shared { () -> Database in
                    databases.increment()
                    return Database()
                }
                New { resolve -> Engine in
                    let database = resolve(Database.self)
                    given.withLock { $0 = database }
                    _ = copy.resolve(Greeting.self)
                    return Engine()
                }
            }
            let extra = Module {
                Shared { resolve -> SetAsideParks in
                    _ = resolve(SetAsideMissing.self)
                    return SetAsideParks()
                }
            }
            BootstrapExtra.current.withValue(extra) {
                ValidationCapture.current.withValue(capture) { _ = box.resolve(Engine.self) }
            }
        }
        #expect(capture.report?.isValid == false, "\(String(describing: capture.report))")
        #expect(box.resolve(Database.self) === given.current, "made again")
        #expect(databases.current == 1)
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

    /// While validate() in registerDependencies() (first reached in a factory) waits for its checks,
    /// an unrelated resolve on another thread fails with the factory's step in its path.
    @Test func anUnrelatedResolveDuringValidateInRegisterDependenciesHasItsOwnPath() {
        let capture = ValidationCapture()
        let seen = Guarded<[String]?>(nil)
        let box = DIContainer()
        let unrelated = DIContainer()
        DIContainer.withOverrides {
        } operation: {
            DIContainer.reset()
            let copy = DIContainer.current
            box.register {
                New { _ -> Engine in
                    _ = copy.resolve(Greeting.self)
                    return Engine()
                }
            }
            let extra = Module {
                Shared { _ async -> SetAsideAsync in
                    // On a thread of its own: a task would wait for the cooperative pool, which this
                    // synchronous test holds a thread of, past validate()'s 10 seconds under load.
                    let path =
                        await onThread { () -> [String]? in
                            do { _ = try unrelated.tryResolve(SetAsideMissing.self) } catch {
                                return (error as? ResolutionError)?.path
                            }
                            return nil
                        } ?? nil
                    seen.withLock { $0 = path }
                    return SetAsideAsync()
                }
            }
            BootstrapExtra.current.withValue(extra) {
                ValidationCapture.current.withValue(capture) { _ = box.resolve(Engine.self) }
            }
        }
        #expect(seen.current == ["SetAsideMissing"], "\(String(describing: capture.report))")
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
}
