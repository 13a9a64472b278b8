import DependencyInjection
import Testing

// A top-level resolution releases the entries it made in place only while its container (or an
// ancestor) still holds them; these take the entry out of the table during that same resolution
// in every way the API allows (from a factory of a child container, which may change its parent),
// and check that the instance's `deinit` then runs after the library's lock is let go.

private typealias MadeProbe = DeinitLockProbe

private protocol MadeProbeService: AnyObject {}
extension MadeProbe: MadeProbeService {}
private final class Asker {}
private final class Filler<Tag> {}

enum MadeEntryParentChange: String, CaseIterable, Sendable {
    case reset, unregister, replaced, unregisterAliasThenReset, eagerThenReset, releaseInstances, reshuffledThenReset
}

@Suite(.timeLimit(.minutes(1))) struct MadeEntryReleaseTests {
    @Test(arguments: MadeEntryParentChange.allCases)
    func anEntryMadeAndDroppedFromItsParentInOneResolutionIsReleasedAfterTheLock(change: MadeEntryParentChange) {
        let parent = DIContainer()
        let log = Guarded<[Bool]>([])
        parent.register { Shared(MadeProbe(log), as: (any MadeProbeService).self) }
        // Other keys, so that removals move the probe's slot (swap with the last one) and regrow.
        parent.register {
            New(Filler<Int>())
            New(Filler<String>())
            New(Filler<Double>())
        }
        let child = DIContainer(parent: parent)
        child.register {
            New { resolve -> Asker in
                switch change {
                case .reset:
                    _ = try resolve.tryResolve(MadeProbe.self)
                    parent.reset()
                case .unregister:
                    _ = try resolve.tryResolve(MadeProbe.self)
                    parent.unregister(MadeProbe.self)
                    parent.unregister((any MadeProbeService).self)
                case .replaced:
                    _ = try resolve.tryResolve((any MadeProbeService).self)
                    parent.register {
                        New(Engine(), as: (any MadeProbeService).self).named("unused")
                        Shared(MadeProbe(Guarded([])))
                    }
                    parent.register { Shared(MockRouter(), as: (any MadeProbeService).self) }
                case .unregisterAliasThenReset:
                    _ = try resolve.tryResolve((any MadeProbeService).self)
                    parent.unregister(MadeProbe.self)
                    parent.reset()
                case .eagerThenReset:
                    parent.reset()
                    parent.register { Shared(MadeProbe(log)).eager() }
                    parent.reset()
                case .releaseInstances:
                    _ = try resolve.tryResolve(MadeProbe.self)
                    parent.releaseInstances()
                case .reshuffledThenReset:
                    _ = try resolve.tryResolve(MadeProbe.self)
                    parent.unregister(Filler<Int>.self)
                    for index in 0..<40 { parent.register(New(Filler<Int>()).named("\(index)")) }
                    parent.unregister(MadeProbe.self)
                    parent.register(Shared(MadeProbe(Guarded([]))))
                    parent.reset()
                }
                return Asker()
            }
        }
        _ = child.resolve(Asker.self)
        if change == .replaced || change == .unregisterAliasThenReset || change == .unregister {
            parent.reset()
        }
        #expect(log.current == [true], "\(change)")
    }

    @Test(arguments: [false, true])
    func anEntryOfADroppedChildIsReleasedAfterTheLockThoughItsParentServesTheSameKey(named: Bool) {
        let first = DIContainer()
        let (log, parentLog) = (Guarded<[Bool]>([]), Guarded<[Bool]>([]))
        let name: String? = named ? "probe" : nil
        first.register {
            // The same key as the child's, a different registration: only identity tells them apart.
            if let name { Shared(MadeProbe(parentLog)).named(name) } else { Shared(MadeProbe(parentLog)) }
            New { resolve -> Asker in
                _ = try resolve.tryResolve(MadeProbe.self, name: name)
                // A child of the resolving container, dropped before the resolution ends: only the
                // resolution holds the entry its instance was made in.
                let temporary = DIContainer(parent: first)
                temporary.register {
                    if let name { Shared(MadeProbe(log)).named(name) } else { Shared(MadeProbe(log)) }
                }
                _ = try temporary.tryResolve(MadeProbe.self, name: name)
                return Asker()
            }
        }
        _ = first.resolve(Asker.self)
        #expect(log.current == [true])
        #expect(parentLog.current == [])
        first.reset()
        #expect(parentLog.current == [true])
    }

    @Test func anEntryMadeInAContainerAFactoryActivatesAndResetsIsReleasedAfterTheLock() {
        let log = Guarded<[Bool]>([])
        let other = DIContainer()
        other.register { Shared(MadeProbe(log)) }
        let box = DIContainer()
        box.register {
            New { _ -> Asker in
                other.activate {
                    _ = DIContainer.resolve(MadeProbe.self)
                    DIContainer.reset()
                }
                return Asker()
            }
        }
        _ = box.resolve(Asker.self)
        #expect(log.current == [true])
    }
}

extension MockRouter: MadeProbeService {}
