import DependencyInjection
import Testing

// A child container uses the instances its parent makes for what the parent registers.

private final class ParentMadeService { init() {} }

@Suite(.timeLimit(.minutes(1))) struct ChildInstancesTests {
    @Test func releasingAChildsInstancesKeepsTheInstancesItsParentMade() {
        let parent = DIContainer()
        parent.register { Shared(ParentMadeService.init) }
        let child = DIContainer(parent: parent)
        let made = child.resolve(ParentMadeService.self)
        #expect(parent.resolve(ParentMadeService.self) === made)
        child.releaseInstances()
        #expect(child.resolve(ParentMadeService.self) === made)
        parent.releaseInstances()
        #expect(child.resolve(ParentMadeService.self) !== made)
    }
}
