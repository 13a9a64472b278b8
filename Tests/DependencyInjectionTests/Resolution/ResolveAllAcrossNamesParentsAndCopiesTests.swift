import DependencyInjection
import Testing

// resolveAll and @InjectAll where names, aliases, parents and override copies meet.

private protocol LabelledTracker: AnyObject { var label: String { get } }
private final class NamedTracker: LabelledTracker {
    let label: String
    init(_ label: String) { self.label = label }
}
private final class TrackingContext { init() {} }
private final class ContextTracker: LabelledTracker {
    let context: TrackingContext
    let label: String
    init(_ context: TrackingContext, _ label: String) { (self.context, self.label) = (context, label) }
}
private final class TrackerList {
    @InjectAll var trackers: [LabelledTracker]
    init() {}
}

@Suite(.timeLimit(.minutes(1))) struct ResolveAllAcrossNamesParentsAndCopiesTests {
    @Test func resolveAllListsNamedRegistrationsMadeThroughAnAlias() {
        let box = DIContainer()
        box.register {
            Shared({ NamedTracker("console") }, as: LabelledTracker.self).named("console")
            Shared({ NamedTracker("remote") }, as: LabelledTracker.self).named("remote")
        }
        #expect(box.resolveAll(LabelledTracker.self).map(\.label) == ["console", "remote"])
    }

    @Test func aChildsUnnamedRegistrationShadowsItsParentsInResolveAll() {
        let parent = DIContainer()
        parent.register { Shared(NamedTracker("parent") as LabelledTracker) }
        let child = DIContainer(parent: parent)
        child.register { Shared(NamedTracker("child") as LabelledTracker) }
        #expect(child.resolveAll(LabelledTracker.self).map(\.label) == ["child"])
    }

    @Test func resolveAllInAnOverridesCopyOfAChildCombinesTheOverrideTheChildAndTheParent() {
        let parent = DIContainer()
        parent.register { Shared({ NamedTracker("parent-x") }, as: LabelledTracker.self).named("x") }
        let child = DIContainer(parent: parent)
        child.register { Shared({ NamedTracker("child-y") }, as: LabelledTracker.self).named("y") }
        let labels = child.withOverrides {
            Shared(NamedTracker("override-x") as LabelledTracker).named("x")
        } operation: {
            DIContainer.resolveAll(LabelledTracker.self).map(\.label)
        }
        #expect(labels.sorted() == ["child-y", "override-x"])
    }

    @Test func resolveAllSharesOneGraphInstanceAcrossEveryRegistrationItMakes() {
        let box = DIContainer()
        box.register {
            Graph(TrackingContext.init)
            New { resolve in ContextTracker(resolve(), "a") as LabelledTracker }.named("a")
            New { resolve in ContextTracker(resolve(), "b") as LabelledTracker }.named("b")
        }
        let all = box.resolveAll(LabelledTracker.self).compactMap { $0 as? ContextTracker }
        #expect(all.count == 2)
        #expect(all.first?.context === all.last?.context)
    }

    @Test func injectAllIsEmptyWhenNothingIsRegistered() {
        let box = DIContainer()
        let list = box.activate { TrackerList() }
        #expect(list.trackers.isEmpty)
    }

    @Test func injectAllInAChildListsTheChildsAndThenTheParentsRegistrations() {
        let parent = DIContainer()
        parent.register { Shared(NamedTracker("parent") as LabelledTracker).named("p") }
        let child = DIContainer(parent: parent)
        child.register { Shared(NamedTracker("child") as LabelledTracker) }
        let list = child.activate { TrackerList() }
        #expect(list.trackers.map(\.label) == ["child", "parent"])
    }
}
