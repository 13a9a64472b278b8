import DependencyInjection
import Testing

// The container keeps what its lifetimes promise and nothing more: no `New` instance, no
// dropped registration, no copy made by `withOverrides`, and no cycle through factories,
// resolvers or property wrappers that would keep a container alive after its last reference.

/// A weak reference that can be returned from a closure.
struct WeakReference<Object: AnyObject> {
    weak var object: Object?
    init(_ object: Object?) { self.object = object }
}

private final class LeakEngine { init() {} }
private final class LeakSession { init() {} }
private final class LeakCache { init() {} }
private final class LeakFresh { init() {} }
private final class LeakSessionUser {
    let session: LeakSession
    init(session: LeakSession) { self.session = session }
}

/// A Shared service with every way of reaching the container: lazy wrappers, an eager
/// wrapper, a resolver kept by `onResolve`, and a dependency set by `onResolve`.
private final class LeakService {
    @LazyInject var engine: LeakEngine
    @MutableLazyInject var cache: LeakCache
    @Inject var session: LeakSession
    var partner: LeakPartner?
    var resolver: Resolver?
    init() {}
}
/// Points back at the service: the cycle the contract's `onResolve` pattern makes on purpose
/// is broken by the user with `weak`; the container must add no strong edge of its own.
private final class LeakPartner {
    weak var service: LeakService?
    init(service: LeakService) { self.service = service }
}

private struct MadeObjects {
    var container: WeakReference<DIContainer>
    var service: WeakReference<LeakService>
    var engine: WeakReference<LeakEngine>
    var cache: WeakReference<LeakCache>
    var session: WeakReference<LeakSession>
    var partner: WeakReference<LeakPartner>

    var released: Bool {
        container.object == nil && service.object == nil && engine.object == nil && cache.object == nil
            && session.object == nil && partner.object == nil
    }
}

/// Builds a container, uses it, and returns weak references to all it made.
private func useAndDropContainer() throws -> MadeObjects {
    let container = DIContainer()
    container.register {
        Shared(LeakEngine.init)
        Shared(LeakCache.init)
        Graph(LeakSession.init)
        Shared(LeakService.init).onResolve { service, resolve in
            service.partner = resolve()
            service.resolver = resolve
        }
        Shared { resolve in LeakPartner(service: resolve()) }
        Weak(LeakFresh.init)
    }
    let service = try container.tryResolve(LeakService.self)
    // Reach everything the lazy wrappers hold, so they are resolved too.
    _ = try (service.engine, service.cache, container.tryResolve(LeakFresh.self))
    return MadeObjects(
        container: WeakReference(container), service: WeakReference(service), engine: WeakReference(service.engine),
        cache: WeakReference(service.cache), session: WeakReference(service.session),
        partner: WeakReference(service.partner))
}

@Suite(.timeLimit(.minutes(1))) struct LeakTests {
    @Test func newInstancesAreNotRetainedByTheContainer() throws {
        let container = DIContainer()
        container.register {
            New(LeakFresh.init)
            New { (_: Resolver, index: Int) in LeakFresh() }.named("arguments")
        }
        let plain = try WeakReference(container.tryResolve(LeakFresh.self))
        let withArguments = try WeakReference(container.tryResolve(LeakFresh.self, name: "arguments") { 1 })
        #expect(plain.object == nil)
        #expect(withArguments.object == nil)
    }

    @Test func graphAndWeakInstancesAreReleasedOnceNobodyHoldsThem() throws {
        let container = DIContainer()
        container.register {
            Graph(LeakSession.init)
            Weak(LeakFresh.init)
            New { resolve in LeakSessionUser(session: resolve()) }
        }
        let graph = try WeakReference(container.tryResolve(LeakSession.self))
        let weak = try WeakReference(container.tryResolve(LeakFresh.self))
        #expect(graph.object == nil)
        #expect(weak.object == nil)
        // A Graph instance made as a dependency ends with its resolution too.
        let dependency = try WeakReference(container.tryResolve(LeakSessionUser.self).session)
        #expect(dependency.object == nil)
    }

    @Test func containerAndEverythingItMadeAreReleasedWithTheLastReference() throws {
        let made = try useAndDropContainer()
        #expect(made.container.object == nil, "the container outlived its last reference")
        #expect(made.service.object == nil, "the Shared service (lazy wrappers, onResolve) outlived the container")
        #expect(made.released, "something the container made outlived it")
    }

    @Test func childContainerIsReleasedWhileItsParentLives() throws {
        let parent = DIContainer()
        parent.register(Shared(LeakEngine.init))
        var child: DIContainer? = DIContainer(parent: parent)
        child?.register(Shared(LeakCache.init))
        let cache = WeakReference(child?.resolve(LeakCache.self))
        _ = child?.resolve(LeakEngine.self)
        let engine = try parent.tryResolve(LeakEngine.self)
        let weakChild = WeakReference(child)
        child = nil
        #expect(weakChild.object == nil)
        #expect(cache.object == nil)
        #expect(try parent.tryResolve(LeakEngine.self) === engine, "the parent kept its own instance")
    }

    @Test func replacedResetAndReleasedInstancesAreReleased() throws {
        let container = DIContainer()
        container.register(Shared(LeakEngine.init))
        let replaced = try WeakReference(container.tryResolve(LeakEngine.self))
        container.register(Shared(LeakEngine.init))
        #expect(replaced.object == nil, "registering again kept the old instance")

        let released = try WeakReference(container.tryResolve(LeakEngine.self))
        container.releaseInstances()
        #expect(released.object == nil, "releaseInstances() kept the instance")

        let reset = try WeakReference(container.tryResolve(LeakEngine.self))
        container.reset()
        #expect(reset.object == nil, "reset() kept the instance")
    }

    @Test func withOverridesReleasesItsCopyWhenItReturns() {
        let parent = DIContainer()
        parent.register(Shared(LeakEngine.init))
        let container = DIContainer(parent: parent)
        container.register(Shared(LeakCache.init))
        let (copy, engine, cache) = container.withOverrides {
            New(LeakSession.init)
        } operation: {
            (
                WeakReference(DIContainer.current), WeakReference(DIContainer.resolve(LeakEngine.self)),
                WeakReference(DIContainer.resolve(LeakCache.self))
            )
        }
        #expect(copy.object == nil, "the isolated copy outlived withOverrides")
        #expect(engine.object == nil, "an instance of the copied parent outlived withOverrides")
        #expect(cache.object == nil, "an instance the copy made outlived withOverrides")
    }

    @Test func asyncWithOverridesReleasesItsCopyWhenItReturns() async {
        let container = DIContainer()
        container.register(Shared(LeakEngine.init))
        let (copy, engine) = await container.withOverrides {
            New(LeakSession.init)
        } operation: { () async -> (WeakReference<DIContainer>, WeakReference<LeakEngine>) in
            await Task.yield()
            return (WeakReference(DIContainer.current), WeakReference(DIContainer.resolve(LeakEngine.self)))
        }
        #expect(copy.object == nil, "the isolated copy outlived withOverrides")
        #expect(engine.object == nil, "an instance the copy made outlived withOverrides")
    }
}
