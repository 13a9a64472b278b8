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
    @Test func childFallsBackToItsParent() throws {
        let parent = DIContainer()
        parent.register { Shared(Engine.init) }
        let child = DIContainer(parent: parent)
        #expect(child.parent === parent)
        #expect(try child.tryResolve(Engine.self) === parent.tryResolve(Engine.self))
    }

    @Test func parentNeverSeesTheChildsRegistrations() {
        let parent = DIContainer()
        let child = DIContainer(parent: parent)
        child.register { Shared(Engine.init) }
        #expect(parent.resolve(Engine?.self) == nil)
    }

    @Test func childRegistrationShadowsTheParents() throws {
        let parent = DIContainer()
        parent.register { Shared(Engine.init) }
        let child = DIContainer(parent: parent)
        child.register { Shared(Engine.init) }
        #expect(try child.tryResolve(Engine.self) !== parent.tryResolve(Engine.self))
    }

    @Test func aParentServiceKeepsTheParentsDependencies() throws {
        let parent = DIContainer()
        parent.register {
            Shared(Engine.init)
            New { resolve in UsesEngine(engine: resolve()) }
        }
        let child = DIContainer(parent: parent)
        child.register { Shared(Engine.init) }
        let fromChild = try child.tryResolve(UsesEngine.self)
        #expect(try fromChild.engine === parent.tryResolve(Engine.self))
        #expect(try fromChild.engine !== child.tryResolve(Engine.self))
    }

    @Test func grandchildrenFallBackThroughTheChain() throws {
        let root = DIContainer()
        root.register { Shared(Engine.init) }
        let grandchild = DIContainer(parent: DIContainer(parent: root))
        #expect(try grandchild.tryResolve(Engine.self) === root.tryResolve(Engine.self))
    }

    @Test func missingInTheWholeChainIsAnError() throws {
        let child = DIContainer(parent: DIContainer())
        let error = try #require(throws: ResolutionError.self) { try child.tryResolve(Engine.self) }
        #expect(error.reason == .missingRegistration)
    }

    @Test func graphInAParentIsSharedWithinOneResolutionThroughAChild() throws {
        let parent = DIContainer()
        parent.register { Graph(Session.init) }
        let child = DIContainer(parent: parent)
        child.register {
            New { resolve in Pair(resolve(Session.self), resolve(Session.self)) }
        }
        let pair = try child.tryResolve(Pair<Session, Session>.self)
        #expect(pair.first === pair.second)
        let next = try child.tryResolve(Pair<Session, Session>.self)
        #expect(next.first !== pair.first, "the next top-level resolution gets a new instance")
    }

    @Test func graphInAParentIsNotSharedAcrossThreads() throws {
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
        #expect(try parent.tryResolve(Session.self) !== parent.tryResolve(Session.self))
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

    @Test func staticAPIActsOnTheActivatedContainer() throws {
        let box = DIContainer()
        box.activate {
            DIContainer.register { Shared(Engine.init) }
            #expect(DIContainer.resolve(Engine.self) === box.resolve(Engine.self))
            DIContainer.releaseInstances()
            DIContainer.reset()
        }
        #expect(box.resolve(Engine?.self) == nil)
    }

    @Test func activateInsideAFactoryBindsTheOtherContainer() throws {
        let other = DIContainer()
        other.register { Shared(MemoryStore() as Store) }
        let box = DIContainer()
        box.register {
            New { _ in Pair(other.activate { DIContainer.resolve(Store.self) }, 0) }
        }
        #expect(try box.tryResolve(Pair<Store, Int>.self).first === other.tryResolve(Store.self))
    }
}

@Suite(.timeLimit(.minutes(1))) struct HousekeepingTests {
    @Test func resetForgetsRegistrationsAndInstances() throws {
        let box = DIContainer()
        box.register { Shared(Engine.init) }
        _ = try box.tryResolve(Engine.self)
        box.reset()
        #expect(box.resolve(Engine?.self) == nil)
    }

    @Test func releaseInstancesKeepsRegistrationsAndDropsSharedInstances() throws {
        let box = DIContainer()
        box.register { Shared(Engine.init) }
        let first = try box.tryResolve(Engine.self)
        box.releaseInstances()
        let second = try box.tryResolve(Engine.self)
        #expect(second !== first)
        #expect(try box.tryResolve(Engine.self) === second)
    }

    @Test func releaseInstancesDropsInstancesReachedThroughAliases() throws {
        let box = DIContainer()
        box.register { Shared(RouterImpl.init, as: Router.self) }
        let first = try box.tryResolve(Router.self)
        box.releaseInstances()
        #expect(try box.tryResolve(Router.self) !== first)
        #expect(try box.tryResolve(Router.self) === box.tryResolve(RouterImpl.self))
    }

    @Test func releaseInstancesReachesAliasesWhoseImplementationSlotWasReplaced() throws {
        let box = DIContainer()
        box.register { Shared(RouterImpl.init, as: Router.self) }
        let first = try box.tryResolve(Router.self)
        box.register { New(RouterImpl.init) }
        box.releaseInstances()
        #expect(try box.tryResolve(Router.self) !== first)
    }

    /// LeakTests shows a released Shared instance is freed; a Weak one is forgotten even while held.
    @Test func releaseInstancesForgetsAWeakInstanceThatIsStillHeld() throws {
        let box = DIContainer()
        box.register { Weak(ImageCache.init) }
        let held = try box.tryResolve(ImageCache.self)
        #expect(try box.tryResolve(ImageCache.self) === held)
        box.releaseInstances()
        let next = try box.tryResolve(ImageCache.self)
        #expect(next !== held)
        #expect(try box.tryResolve(ImageCache.self) === next, "still Weak: kept while held")
    }
}
