import DependencyInjection
import Dispatch
import Testing

// Custom scopes: Scoped(scope, …), releaseInstances(in:) and withScope.

extension DIScope {
    static let session = DIScope("session")
    static let request = DIScope("request")
}

private final class UserSession {
    let tracker: Tracker
    init(tracker: Tracker) { self.tracker = tracker }
}
private protocol Cart: AnyObject { var session: UserSession { get } }
private final class CartImpl: Cart {
    let session: UserSession
    init(session: UserSession) { self.session = session }
}
private final class RequestContext: Sendable {}
private final class RequestHandler {
    let context: RequestContext
    let session: UserSession?
    init(context: RequestContext, session: UserSession? = nil) {
        self.context = context
        self.session = session
    }
}
@MainActor private final class ScopedScreenModel {
    init() {}
}

@Suite(.timeLimit(.minutes(1))) struct ScopedLifetimeTests {
    private func sessionContainer() -> DIContainer {
        let box = DIContainer()
        box.register {
            New(TrackerImpl() as Tracker)
            Scoped(.session, UserSession.init)
            Scoped(.session) { resolve in CartImpl(session: resolve()) as Cart }
            Scoped(.request, RequestContext())
        }
        return box
    }

    @Test func aScopedServiceIsKeptByItsContainerUntilItsScopeIsReleased() {
        let box = sessionContainer()
        let session = box.resolve(UserSession.self)
        #expect(box.resolve(UserSession.self) === session)
        #expect(box.resolve(Cart.self).session === session)
        box.releaseInstances(in: .session)
        let next = box.resolve(UserSession.self)
        #expect(next !== session)
        #expect(box.resolve(Cart.self).session === next)
    }

    @Test func releasingOneScopeKeepsTheOthers() {
        let box = sessionContainer()
        let context = box.resolve(RequestContext.self)
        let session = box.resolve(UserSession.self)
        box.releaseInstances(in: .request)
        #expect(box.resolve(UserSession.self) === session)
        #expect(box.resolve(RequestContext.self) !== context)
        box.releaseInstances()
        #expect(box.resolve(UserSession.self) !== session)
    }

    @Test func theStaticReleaseInstancesInActsOnTheCurrentContainer() {
        let box = sessionContainer()
        let session = box.resolve(UserSession.self)
        box.activate { DIContainer.releaseInstances(in: .session) }
        #expect(box.resolve(UserSession.self) !== session)
    }

    @Test func everyRegistrationFormTakesAScope() throws {
        let box = DIContainer()
        box.register {
            New(TrackerImpl() as Tracker)
            Scoped(.session, PostgresStore() as Store).named("expression")
            Scoped(.session, MemoryStore(), as: Store.self).named("aliases")
            Scoped(.session) { Engine() }
            Scoped(.session) { resolve in Session() }
            Scoped(.session, UserSession.init)
            Scoped(.session) { (_, id: String) in ConcreteViewModel(id: id) as ViewModelProtocol }
            Scoped(.session) { @MainActor in ScopedScreenModel() }
            Scoped(.request) { _ async in RequestContext() }
        }
        let expression = try box.tryResolve(Store.self, name: "expression")
        #expect(try box.tryResolve(Store.self, name: "expression") === expression)
        #expect(try box.tryResolve(Store.self, name: "aliases") === box.tryResolve(MemoryStore.self, name: "aliases"))
        #expect(try box.tryResolve(Engine.self) === box.tryResolve(Engine.self))
        #expect(try box.tryResolve(Session.self) === box.tryResolve(Session.self))
        #expect(try box.tryResolve(UserSession.self) === box.tryResolve(UserSession.self))
        let model = try box.tryResolve(ViewModelProtocol.self) { "first" }
        #expect(try box.tryResolve(ViewModelProtocol.self) === model)
        let listing = box.registrations.map(\.description).joined(separator: "\n")
        #expect(listing.contains("UserSession — Scoped(session)"))
        #expect(box.registrations.contains { $0.lifetime == .scoped && $0.scope == .request })
    }

    @Test @MainActor func aMainActorScopedServiceIsMadeOnTheMainActor() {
        let box = DIContainer()
        box.register { Scoped(.session) { @MainActor in ScopedScreenModel() } }
        #expect(box.resolve(ScopedScreenModel.self) === box.resolve(ScopedScreenModel.self))
    }

    @Test func anAsyncScopedServiceIsMadeOncePerRun() async throws {
        let box = DIContainer()
        box.register { Scoped(.request) { _ async in RequestContext() } }
        let outside = try await box.resolveAsync(RequestContext.self)
        #expect(try await box.resolveAsync(RequestContext.self) === outside)
        try await box.withScope(.request) {
            let inside = try await box.resolveAsync(RequestContext.self)
            #expect(inside !== outside)
            #expect(try await box.resolveAsync(RequestContext.self) === inside)
            #expect(box.resolve(RequestContext.self) === inside)
        }
    }

    @Test func aWithOverridesCopyKeepsItsOwnScopedInstances() {
        let box = sessionContainer()
        let session = box.resolve(UserSession.self)
        box.withOverrides {
        } operation: {
            let copied = DIContainer.resolve(UserSession.self)
            #expect(copied !== session)
            DIContainer.releaseInstances(in: .session)
            #expect(DIContainer.resolve(UserSession.self) !== copied)
        }
        #expect(box.resolve(UserSession.self) === session)
    }

    @Test func onResolveRunsOnceForEachScopedInstance() {
        let box = DIContainer()
        let actions = Tally()
        box.register {
            New(TrackerImpl() as Tracker)
            Scoped(.session, UserSession.init).onResolve { _, _ in actions.increment() }
        }
        _ = box.resolve(UserSession.self)
        _ = box.resolve(UserSession.self)
        #expect(actions.value == 1)
        box.withScope(.session) { _ = box.resolve(UserSession.self) }
        #expect(actions.value == 2)
    }

    @Test func aScopedServiceIsMadeExactlyOnceUnderContention() {
        let box = DIContainer()
        let made = Tally()
        box.register { Scoped(.session) { _ in Counted(made) } }
        let seen = IdentitySet()
        DispatchQueue.concurrentPerform(iterations: 64) { _ in seen.insert(box.resolve(Counted.self)) }
        #expect(made.value == 1)
        #expect(seen.count == 1)
    }

    @Test func aFailingResolutionKeepsNoScopedInstance() throws {
        let box = DIContainer()
        let made = Tally()
        box.register {
            Scoped(.session) { _ in Counted(made) }
            New { resolve -> RequestHandler in
                _ = resolve(Counted.self)
                return RequestHandler(context: try resolve.tryResolve())
            }
        }
        try box.withScope(.session) {
            #expect(throws: ResolutionError.self) { try box.tryResolve(RequestHandler.self) }
            _ = try box.tryResolve(Counted.self)
        }
        #expect(made.value == 2)
    }
}

@Suite(.timeLimit(.minutes(1))) struct WithScopeTests {
    private func requestContainer() -> DIContainer {
        let box = DIContainer()
        box.register {
            New(TrackerImpl() as Tracker)
            Scoped(.request, RequestContext())
            Scoped(.session, UserSession.init)
            New { resolve in RequestHandler(context: resolve(), session: resolve()) }
        }
        return box
    }

    @Test func eachRunHasItsOwnInstancesSeenByEverythingItResolves() {
        let box = requestContainer()
        let outside = box.resolve(RequestContext.self)
        let (first, handler) = box.withScope(.request) {
            (DIContainer.resolve(RequestContext.self), DIContainer.resolve(RequestHandler.self))
        }
        #expect(first !== outside)
        #expect(handler.context === first)
        let second = box.withScope(.request) { box.resolve(RequestContext.self) }
        #expect(second !== first)
        #expect(box.resolve(RequestContext.self) === outside)
    }

    @Test func aRunOfOneScopeLeavesTheOtherScopesToTheContainer() {
        let box = requestContainer()
        let session = box.resolve(UserSession.self)
        let handler = box.withScope(.request) { box.resolve(RequestHandler.self) }
        #expect(handler.session === session)
        let nested = box.withScope(.request) {
            box.withScope(.session) { box.resolve(RequestHandler.self) }
        }
        #expect(nested.session !== session)
        #expect(nested.context !== handler.context)
    }

    @Test func aRunReleasesItsInstancesWhenItReturns() {
        let box = requestContainer()
        weak var released: RequestContext?
        box.withScope(.request) { released = box.resolve(RequestContext.self) }
        #expect(released == nil)
    }

    @Test func aDeinitThatResolvesRunsAfterTheRunReleasedTheLock() {
        let box = DIContainer()
        let resolvedInDeinit = Tally()
        box.register {
            Shared(Engine.init)
            // Weak: the container keeps this closure, which would otherwise keep the container.
            Scoped(.request) { [weak box] _ in
                ResolvesInDeinit {
                    if box?.resolve(Engine.self) != nil { resolvedInDeinit.increment() }
                }
            }
        }
        box.withScope(.request) { _ = box.resolve(ResolvesInDeinit.self) }
        #expect(resolvedInDeinit.value == 1)
    }

    @Test func theStaticWithScopeUsesTheCurrentContainer() async {
        let box = requestContainer()
        let outside = box.resolve(RequestContext.self)
        let inside = await box.activate {
            await DIContainer.withScope(.request) { () async in DIContainer.resolve(RequestContext.self) }
        }
        #expect(inside !== outside)
    }

    @Test func aThousandConcurrentRunsNeverShareAnInstance() async {
        let box = requestContainer()
        let seen = IdentitySet()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<1000 {
                group.addTask {
                    await box.withScope(.request) {
                        let context = box.resolve(RequestContext.self)
                        await Task.yield()
                        #expect(box.resolve(RequestHandler.self).context === context)
                        seen.insert(context)
                    }
                }
            }
        }
        #expect(seen.count == 1000)
    }

    @Test func tasksStartedInsideARunSeeIt() async {
        let box = requestContainer()
        await box.withScope(.request) {
            let context = box.resolve(RequestContext.self)
            let fromChild = await Task { box.resolve(RequestContext.self) }.value
            #expect(fromChild === context)
        }
    }
}
