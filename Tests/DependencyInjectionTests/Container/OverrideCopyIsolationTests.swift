import DependencyInjection
import Testing

// What happens inside a withOverrides copy stays there; what is made from it keeps resolving from it.

private protocol CopyRouter: AnyObject {}
private final class CopyRouterImpl: CopyRouter { init() {} }
private final class CopyCatalog {
    let region: String
    init(region: String) { self.region = region }
}

@Suite(.timeLimit(.minutes(1))) struct OverrideCopyIsolationTests {
    @Test func unregisteringAndResettingInsideTheOperationLeaveTheSourceAlone() {
        let box = DIContainer()
        box.register { Shared(CopyRouterImpl.init, as: CopyRouter.self) }
        let router = box.resolve(CopyRouter.self)
        box.withOverrides {
        } operation: {
            #expect(DIContainer.unregister(CopyRouter.self))
            #expect(DIContainer.resolve(CopyRouter?.self) == nil)
            DIContainer.reset()
            #expect(DIContainer.current.resolve(CopyRouterImpl?.self) == nil)
        }
        #expect(box.resolve(CopyRouter.self) === router)
        #expect(box.resolve(CopyRouterImpl.self) === router)
    }

    @Test func aFactoryMadeInsideTheOperationResolvesFromTheCopyAfterIt() {
        let box = DIContainer()
        box.register { New { _, region in CopyCatalog(region: region) } }
        let (make, copy) = box.withOverrides {
            New { (_, region: String) in CopyCatalog(region: "mock-\(region)") }
        } operation: { () -> ((String) -> CopyCatalog, DIContainer) in
            (DIContainer.factory(CopyCatalog.self, arguments: String.self), DIContainer.current)
        }
        #expect(copy !== box)
        // The factory does not keep the copy alive: the test does.
        withExtendedLifetime(copy) { #expect(make("eu").region == "mock-eu") }
        #expect(box.resolve(CopyCatalog.self, arguments: { "eu" }).region == "eu")
    }
}
