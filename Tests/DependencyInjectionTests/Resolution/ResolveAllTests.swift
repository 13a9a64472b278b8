import DependencyInjection
import Testing

// Every registration of a type: resolveAll and @InjectAll.

private final class ConsoleTracker: Tracker {}
private final class RemoteTracker: Tracker {}

private final class Analytics {
    @InjectAll var trackers: [Tracker]
}

private protocol Plugin: AnyObject, Sendable {}
private final class PlainPlugin: Plugin {}
@MainActor private final class MainActorPlugin: Plugin {}

@Suite(.timeLimit(.minutes(1))) struct ResolveAllTests {
    /// Off the main actor, one registration made on the main actor for the caller does not make
    /// the others' factories run twice (the attempt that found it was dropped and run again there).
    @Test func resolveAllOffTheMainActorRunsEachSharedFactoryOnce() async {
        let box = DIContainer()
        let made = Guarded(0)
        box.register {
            Shared { () -> Plugin in
                made.withLock { $0 += 1 }
                return PlainPlugin()
            }
            Shared { @MainActor () -> Plugin in MainActorPlugin() }.named("main")
        }
        #expect(await onThread { box.resolveAll(Plugin.self).count } == 2)
        #expect(made.current == 1)
    }

    private func trackers() -> DIContainer {
        let box = DIContainer()
        box.register {
            Shared(ConsoleTracker.init, as: Tracker.self).named("console")
            Shared(RemoteTracker.init, as: Tracker.self).named("remote")
        }
        return box
    }

    @Test func resolveAllGivesTheUnnamedRegistrationFirstThenTheNamedOnesInRegistrationOrder() {
        let box = trackers()
        box.register(Shared(TrackerImpl() as Tracker))
        let all = box.resolveAll(Tracker.self)
        #expect(all.count == 3)
        #expect(all[0] is TrackerImpl)
        #expect(all[1] is ConsoleTracker)
        #expect(all[2] is RemoteTracker)
    }

    @Test func resolveAllIsEmptyWhenNothingIsRegistered() {
        #expect(DIContainer().resolveAll(Tracker.self).isEmpty)
    }

    @Test func resolveAllKeepsEachLifetime() {
        let box = trackers()
        box.register(New(TrackerImpl() as Tracker))
        let first = box.resolveAll(Tracker.self)
        let second = box.resolveAll(Tracker.self)
        #expect(first[0] !== second[0])
        #expect(first[1] === second[1])
        #expect(first[1] === box.resolve(Tracker.self, name: "console"))
    }

    @Test func aChildsRegistrationShadowsItsParentsOfTheSameName() {
        let parent = trackers()
        let child = DIContainer(parent: parent)
        child.register {
            Shared(TrackerImpl.init, as: Tracker.self).named("remote")
            Shared(TrackerImpl.init, as: Tracker.self).named("child")
        }
        let all = child.resolveAll(Tracker.self)
        #expect(all.count == 3)
        #expect(all[0] is ConsoleTracker)
        #expect(all[1] is TrackerImpl)
        #expect(all[2] is TrackerImpl)
        #expect(parent.resolveAll(Tracker.self).count == 2)
    }

    @Test func injectAllResolvesEveryRegistrationFromTheCurrentContainer() {
        let box = trackers()
        let analytics = box.activate { Analytics() }
        #expect(analytics.trackers.count == 2)
        #expect(analytics.trackers[0] === box.resolve(Tracker.self, name: "console"))
    }

    @Test func resolveAllWorksInsideAFactoryAndInOverrides() {
        final class Fanout {
            let trackers: [Tracker]
            init(trackers: [Tracker]) { self.trackers = trackers }
        }
        let box = trackers()
        box.register { Shared { resolve in Fanout(trackers: resolve.resolveAll()) } }
        #expect(box.resolve(Fanout.self).trackers.count == 2)
        box.withOverrides {
            New(TrackerImpl() as Tracker).named("console")
        } operation: {
            // The override keeps the place of the registration it replaces.
            let all = DIContainer.resolveAll(Tracker.self)
            #expect(all.count == 2)
            #expect(all[0] is TrackerImpl)
            #expect(all[1] is RemoteTracker)
            #expect(DIContainer.resolve(Fanout.self).trackers[0] is TrackerImpl)
        }
    }

    @Test func resolveAllOfAFailingRegistrationReportsItWithItsPath() throws {
        let box = DIContainer()
        box.register { Shared { resolve in try RouterImpl(config: resolve.tryResolve()) as Router } }
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(Router.self) }
        #expect(error.path == ["Router", "AppConfiguration"])
    }
}
