import DependencyInjection
import Testing

// `Optional<T>` resolves to nil when `T` is not registered.

private final class OptionalHolder {
    @Inject var player: MediaPlayer?
    @Inject var router: Router?
    init() {}
}

private final class Speaker: MediaPlayer {}

@Suite(.timeLimit(.minutes(1))) struct OptionalResolutionTests {
    @Test func optionalOfAnUnregisteredTypeIsNil() {
        #expect(DIContainer().resolve(Router?.self) == nil)
    }

    @Test func optionalOfARegisteredTypeIsTheInstance() throws {
        let box = DIContainer()
        box.register { Shared(RouterImpl() as Router) }
        #expect(try box.resolve(Router?.self) === box.tryResolve(Router.self))
    }

    @Test func tryResolveOfAnOptionalDoesNotThrowWhenMissing() throws {
        #expect(try DIContainer().tryResolve(Router?.self) == nil)
    }

    @Test func injectOfAnOptionalIsNilOrTheInstance() throws {
        let box = DIContainer()
        box.register { Shared(RouterImpl() as Router) }
        let holder = box.activate { OptionalHolder() }
        #expect(holder.player == nil)
        #expect(try holder.router === box.tryResolve(Router.self))
    }

    @Test func optionalFallsBackToTheParent() throws {
        let parent = DIContainer()
        parent.register { Shared(Speaker() as MediaPlayer) }
        let child = DIContainer(parent: parent)
        #expect(try child.resolve(MediaPlayer?.self) === parent.tryResolve(MediaPlayer.self))
    }

    @Test func optionalOfARegisteredButFailingTypeStillFails() throws {
        let box = DIContainer()
        box.register { Shared { resolve in try RouterImpl(config: resolve.tryResolve()) as Router } }
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(Router?.self) }
        #expect(error.typeName == "AppConfiguration")
    }

}
