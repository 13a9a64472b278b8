import DependencyInjection
import Testing

// releaseInstances(in:) across parents, scopes and runs; runs nested in runs; a parent's service in a child's run.

private final class NestingSession { init() {} }
private final class NestingCache { init() {} }
private final class NestingSetting { init() {} }
extension DIScope {
    fileprivate static let nestingSession = DIScope("nestingSession")
    fileprivate static let nestingOther = DIScope("nestingOther")
}

@Suite(.timeLimit(.minutes(1))) struct ScopeReleaseAndNestingTests {
    @Test func releasingAScopeInAChildLeavesTheParentsScopedInstance() {
        let parent = DIContainer()
        parent.register { Scoped(.nestingSession, NestingSession.init) }
        let child = DIContainer(parent: parent)
        let first = child.resolve(NestingSession.self)
        #expect(parent.resolve(NestingSession.self) === first)
        child.releaseInstances(in: .nestingSession)
        #expect(child.resolve(NestingSession.self) === first)
        parent.releaseInstances(in: .nestingSession)
        #expect(child.resolve(NestingSession.self) !== first)
    }

    @Test func releasingAScopeKeepsOtherScopesAndSharedInstances() {
        let box = DIContainer()
        box.register {
            Scoped(.nestingSession, NestingSession.init)
            Scoped(.nestingOther, NestingCache.init)
            Shared(NestingSetting.init)
        }
        let session = box.resolve(NestingSession.self)
        let cache = box.resolve(NestingCache.self)
        let setting = box.resolve(NestingSetting.self)
        box.releaseInstances(in: .nestingSession)
        #expect(box.resolve(NestingSession.self) !== session)
        #expect(box.resolve(NestingCache.self) === cache)
        #expect(box.resolve(NestingSetting.self) === setting)
        box.releaseInstances()
        #expect(box.resolve(NestingCache.self) !== cache)
        #expect(box.resolve(NestingSetting.self) !== setting)
    }

    @Test func releasingInstancesInsideARunKeepsTheRunsInstances() {
        let box = DIContainer()
        box.register { Scoped(.nestingSession, NestingSession.init) }
        let outside = box.resolve(NestingSession.self)
        box.withScope(.nestingSession) {
            let inRun = box.resolve(NestingSession.self)
            #expect(inRun !== outside)
            box.releaseInstances(in: .nestingSession)
            #expect(box.resolve(NestingSession.self) === inRun)
            box.releaseInstances()
            #expect(box.resolve(NestingSession.self) === inRun)
        }
        #expect(box.resolve(NestingSession.self) !== outside)
    }

    @Test func aNestedRunOfAnotherScopeKeepsTheOuterRunsInstancesAndOneOfTheSameScopeStartsFresh() {
        let box = DIContainer()
        box.register {
            Scoped(.nestingSession, NestingSession.init)
            Scoped(.nestingOther, NestingCache.init)
        }
        box.withScope(.nestingSession) {
            let outer = box.resolve(NestingSession.self)
            box.withScope(.nestingOther) {
                #expect(box.resolve(NestingSession.self) === outer)
                let cache = box.resolve(NestingCache.self)
                box.withScope(.nestingSession) {
                    #expect(box.resolve(NestingSession.self) !== outer)
                    #expect(box.resolve(NestingCache.self) === cache)
                }
            }
            #expect(box.resolve(NestingSession.self) === outer)
        }
    }

    @Test func aParentsScopedServiceResolvedInAChildsRunIsTheRunsOwn() {
        let parent = DIContainer()
        parent.register { Scoped(.nestingSession, NestingSession.init) }
        let child = DIContainer(parent: parent)
        let outside = parent.resolve(NestingSession.self)
        let (viaStatic, viaChild) = child.withScope(.nestingSession) {
            (DIContainer.resolve(NestingSession.self), child.resolve(NestingSession.self))
        }
        #expect(viaStatic === viaChild)
        #expect(viaStatic !== outside)
        #expect(parent.resolve(NestingSession.self) === outside)
    }
}
