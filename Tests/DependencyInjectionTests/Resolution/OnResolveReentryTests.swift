import DependencyInjection
import Foundation
import Testing

// An onResolve action that resolves again: its own service, the other side of a cycle, a Graph.

private final class ReentryCache { init() {} }
private final class ReentryLog: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func add(_ item: String) { lock.withLock { items.append(item) } }
    var all: [String] { lock.withLock { items } }
}
private final class ReentryParent {
    var child: ReentryChild?
    init() {}
}
private final class ReentryChild {
    unowned let parent: ReentryParent
    init(parent: ReentryParent) { self.parent = parent }
}
private final class ReentryContext { init() {} }
private final class ReentryOwner {
    let fromInit: ReentryContext
    var fromAction: ReentryContext?
    init(_ context: ReentryContext) { fromInit = context }
}
extension DIScope {
    fileprivate static let reentrySession = DIScope("reentrySession")
}

@Suite(.timeLimit(.minutes(1))) struct OnResolveReentryTests {
    @Test(arguments: ["shared", "weak", "graph", "scoped", "scoped in a run"])
    func anActionThatResolvesItsOwnServiceGetsTheInstanceItRunsFor(lifetime: String) {
        let box = DIContainer()
        let seen = ReentryLog()
        let action: (ReentryCache, Resolver) throws -> Void = { cache, resolve in
            let again: ReentryCache = try resolve.tryResolve()
            seen.add(again === cache ? "same" : "other")
        }
        switch lifetime {
        case "shared": box.register { Shared(ReentryCache.init).onResolve(action) }
        case "weak": box.register { Weak(ReentryCache.init).onResolve(action) }
        case "graph": box.register { Graph(ReentryCache.init).onResolve(action) }
        default: box.register { Scoped(.reentrySession, ReentryCache.init).onResolve(action) }
        }
        if lifetime == "scoped in a run" {
            box.withScope(.reentrySession) { _ = box.resolve(ReentryCache.self) }
        } else {
            let made = box.resolve(ReentryCache.self)
            withExtendedLifetime(made) {}
        }
        #expect(seen.all == ["same"])
    }

    @Test func aWeakCycleBrokenByOnResolveIsOnePairWhileTheParentIsHeld() {
        let box = DIContainer()
        box.register {
            Weak(ReentryParent.init).onResolve { parent, resolve in parent.child = resolve() }
            New { resolve in ReentryChild(parent: resolve()) }
        }
        let parent = box.resolve(ReentryParent.self)
        #expect(parent.child?.parent === parent)
        #expect(box.resolve(ReentryParent.self) === parent)
    }

    @Test func anActionSharesTheGraphOfTheResolutionThatMadeItsInstance() {
        let box = DIContainer()
        box.register {
            Graph(ReentryContext.init)
            New { resolve in ReentryOwner(resolve()) }.onResolve { owner, resolve in owner.fromAction = resolve() }
        }
        let owner = box.resolve(ReentryOwner.self)
        #expect(owner.fromAction === owner.fromInit)
    }
}
