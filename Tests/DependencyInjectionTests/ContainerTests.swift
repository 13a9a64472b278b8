import DependencyInjection
import Dispatch
import Testing

// Containers of your own: parents, activate, reset and releaseInstances.

private final class UsesEngine {
    let engine: Engine
    init(engine: Engine) { self.engine = engine }
}

@Suite(.timeLimit(.minutes(1))) struct OwnContainerTests {
    @Test func aNewContainerStartsEmptyAndNeverRunsRegisterDependenciesEvenAfterReset() throws {
        let box = DIContainer()
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(Greeting.self) }
        #expect(error.reason == .missingRegistration)
        box.reset()
        #expect(box.resolve(Greeting?.self) == nil)
    }

    @Test func containersDoNotSeeEachOthersRegistrations() {
        let first = DIContainer()
        let second = DIContainer()
        first.register { Shared(Engine.init) }
        #expect(second.resolve(Engine?.self) == nil)
    }
}

@Suite(.timeLimit(.minutes(1))) struct ParentContainerTests {
    @Test func childFallsBackToItsParent() {
        let parent = DIContainer()
        parent.register { Shared(Engine.init) }
        let child = DIContainer(parent: parent)
        #expect(child.parent === parent)
        #expect(child.resolve(Engine.self) === parent.resolve(Engine.self))
    }

    @Test func parentNeverSeesTheChildsRegistrations() {
        let parent = DIContainer()
        let child = DIContainer(parent: parent)
        child.register { Shared(Engine.init) }
        #expect(parent.resolve(Engine?.self) == nil)
    }

    @Test func childRegistrationShadowsTheParents() {
        let parent = DIContainer()
        parent.register { Shared(Engine.init) }
        let child = DIContainer(parent: parent)
        child.register { Shared(Engine.init) }
        #expect(child.resolve(Engine.self) !== parent.resolve(Engine.self))
    }

    @Test func aParentServiceKeepsTheParentsDependencies() {
        let parent = DIContainer()
        parent.register {
            Shared(Engine.init)
            New { resolve in UsesEngine(engine: resolve()) }
        }
        let child = DIContainer(parent: parent)
        child.register { Shared(Engine.init) }
        let fromChild = child.resolve(UsesEngine.self)
        #expect(fromChild.engine === parent.resolve(Engine.self))
        #expect(fromChild.engine !== child.resolve(Engine.self))
    }

    @Test func grandchildrenFallBackThroughTheChain() {
        let root = DIContainer()
        root.register { Shared(Engine.init) }
        let grandchild = DIContainer(parent: DIContainer(parent: root))
        #expect(grandchild.resolve(Engine.self) === root.resolve(Engine.self))
    }

    @Test func missingInTheWholeChainIsAnError() throws {
        let child = DIContainer(parent: DIContainer())
        let error = try #require(throws: ResolutionError.self) { try child.tryResolve(Engine.self) }
        #expect(error.reason == .missingRegistration)
    }

    @Test func graphInAParentIsSharedWithinOneResolutionThroughAChild() {
        let parent = DIContainer()
        parent.register { Graph(Session.init) }
        let child = DIContainer(parent: parent)
        child.register {
            New { resolve in Pair(resolve(Session.self), resolve(Session.self)) }
        }
        let pair = child.resolve(Pair<Session, Session>.self)
        #expect(pair.first === pair.second)
        let next = child.resolve(Pair<Session, Session>.self)
        #expect(next.first !== pair.first, "the next top-level resolution gets a new instance")
    }

    @Test func graphInAParentIsNotSharedAcrossThreads() {
        // Each thread's resolution through the child keeps its own Graph instance, even while the
        // parent's lock is free between the two lookups of one resolution.
        let parent = DIContainer()
        parent.register { Graph(Session.init) }
        let child = DIContainer(parent: parent)
        child.register {
            New { resolve in Pair(resolve(Session.self), resolve(Session.self)) }
        }
        let results = Tally()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<200 {
                let pair = child.resolve(Pair<Session, Session>.self)
                if pair.first !== pair.second { results.increment() }
            }
        }
        #expect(results.value == 0)
        #expect(parent.resolve(Session.self) !== parent.resolve(Session.self))
    }

    @Test func parentsRegisterDependenciesRunsBeforeAChildLooksInIt() throws {
        // A copy of shared, reset, has registerDependencies() pending, like shared at launch.
        try DIContainer.shared.withOverrides {
        } operation: {
            let pending = DIContainer.current
            pending.reset()
            let child = DIContainer(parent: pending)
            let greeting = try child.tryResolve(Greeting.self)
            #expect(greeting.text == "production")
        }
    }
}

@Suite(.timeLimit(.minutes(1))) struct ActivateTests {
    @Test func activateBindsCurrentForTheClosureOnly() {
        let box = DIContainer()
        let outside = DIContainer.current
        box.activate {
            #expect(DIContainer.current === box)
        }
        #expect(DIContainer.current === outside)
    }

    @Test func activateReturnsTheValueAndRethrows() throws {
        let box = DIContainer()
        #expect(box.activate { 42 } == 42)
        #expect(throws: Offline.self) { try box.activate { throw Offline() } }
    }

    @Test func activateNests() {
        let outer = DIContainer()
        let inner = DIContainer()
        outer.activate {
            inner.activate {
                #expect(DIContainer.current === inner)
            }
            #expect(DIContainer.current === outer)
        }
    }

    @Test func asyncActivateBindsAcrossSuspensions() async {
        let box = DIContainer()
        let seen = await box.activate { () async -> Bool in
            await Task.yield()
            return DIContainer.current === box
        }
        #expect(seen)
    }

    @Test func activateReachesChildTasksButNotOtherTasks() async {
        let box = DIContainer()
        await box.activate {
            async let child = DIContainer.current === box
            let detached = await Task.detached { DIContainer.current === box }.value
            #expect(await child)
            #expect(!detached)
        }
    }

    @Test func staticAPIActsOnTheActivatedContainer() {
        let box = DIContainer()
        box.activate {
            DIContainer.register { Shared(Engine.init) }
            #expect(DIContainer.resolve(Engine.self) === box.resolve(Engine.self))
            DIContainer.releaseInstances()
            DIContainer.reset()
        }
        #expect(box.resolve(Engine?.self) == nil)
    }

    @Test func activateInsideAFactoryBindsTheOtherContainer() {
        let other = DIContainer()
        other.register { Shared(MemoryStore() as Store) }
        let box = DIContainer()
        box.register {
            New { _ in Pair(other.activate { DIContainer.resolve(Store.self) }, 0) }
        }
        #expect(box.resolve(Pair<Store, Int>.self).first === other.resolve(Store.self))
    }
}

@Suite(.timeLimit(.minutes(1))) struct HousekeepingTests {
    @Test func resetForgetsRegistrationsAndInstances() {
        let box = DIContainer()
        box.register { Shared(Engine.init) }
        _ = box.resolve(Engine.self)
        box.reset()
        #expect(box.resolve(Engine?.self) == nil)
    }

    @Test func releaseInstancesKeepsRegistrationsAndDropsSharedInstances() {
        let box = DIContainer()
        box.register { Shared(Engine.init) }
        let first = box.resolve(Engine.self)
        box.releaseInstances()
        let second = box.resolve(Engine.self)
        #expect(second !== first)
        #expect(box.resolve(Engine.self) === second)
    }

    @Test func releaseInstancesDropsInstancesReachedThroughAliases() {
        let box = DIContainer()
        box.register { Shared(RouterImpl.init, as: Router.self) }
        let first = box.resolve(Router.self)
        box.releaseInstances()
        #expect(box.resolve(Router.self) !== first)
        #expect(box.resolve(Router.self) === box.resolve(RouterImpl.self))
    }

    @Test func releaseInstancesReachesAliasesWhoseImplementationSlotWasReplaced() {
        let box = DIContainer()
        box.register { Shared(RouterImpl.init, as: Router.self) }
        let first = box.resolve(Router.self)
        box.register { New(RouterImpl.init) }
        box.releaseInstances()
        #expect(box.resolve(Router.self) !== first)
    }

    /// LeakTests shows a released Shared instance is freed; a Weak one is forgotten even while held.
    @Test func releaseInstancesForgetsAWeakInstanceThatIsStillHeld() {
        let box = DIContainer()
        box.register { Weak(ImageCache.init) }
        let held = box.resolve(ImageCache.self)
        #expect(box.resolve(ImageCache.self) === held)
        box.releaseInstances()
        let next = box.resolve(ImageCache.self)
        #expect(next !== held)
        #expect(box.resolve(ImageCache.self) === next, "still Weak: kept while held")
    }
}
