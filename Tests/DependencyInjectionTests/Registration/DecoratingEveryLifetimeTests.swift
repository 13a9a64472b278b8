import DependencyInjection
import Foundation
import Testing

// Decorate with each lifetime and form: Scoped, eager, async, prepared, global-actor, and through a child.

private protocol DecoratedPayments: AnyObject { var inner: DecoratedPayments? { get } }
private final class DecoratedStripe: DecoratedPayments { var inner: DecoratedPayments? { nil } }
private final class DecoratedLogging: DecoratedPayments {
    let inner: DecoratedPayments?
    let tag: String
    init(_ inner: DecoratedPayments, tag: String = "") { (self.inner, self.tag) = (inner, tag) }
}
private final class DecoratedLog: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func add(_ item: String) { lock.withLock { items.append(item) } }
    var all: [String] { lock.withLock { items } }
}
private protocol DecoratedRemote: AnyObject, Sendable { var wrapped: Bool { get } }
private final class DecoratedRemoteImpl: DecoratedRemote { var wrapped: Bool { false } }
private final class DecoratedRemoteLogging: DecoratedRemote {
    let inner: DecoratedRemote
    init(_ inner: DecoratedRemote) { self.inner = inner }
    var wrapped: Bool { true }
}
@globalActor private actor DecoratedActor { static let shared = DecoratedActor() }
extension DIScope {
    fileprivate static let decoratedSession = DIScope("decoratedSession")
}

@Suite(.timeLimit(.minutes(1))) struct DecoratingEveryLifetimeTests {
    @Test func aScopedServiceIsDecoratedOncePerScopeInstanceAndOncePerRun() {
        let box = DIContainer()
        let decorations = Tally()
        box.register {
            Scoped(.decoratedSession) { DecoratedStripe() as DecoratedPayments }
            Decorate(DecoratedPayments.self) { payments, _ in
                decorations.increment()
                return DecoratedLogging(payments)
            }
        }
        let first = box.resolve(DecoratedPayments.self)
        #expect(box.resolve(DecoratedPayments.self) === first)
        #expect(first is DecoratedLogging)
        #expect(decorations.value == 1)
        box.releaseInstances(in: .decoratedSession)
        let second = box.resolve(DecoratedPayments.self)
        #expect(second !== first)
        #expect(second is DecoratedLogging)
        #expect(decorations.value == 2)
        let inRun = box.withScope(.decoratedSession) { () -> (DecoratedPayments, DecoratedPayments) in
            (box.resolve(DecoratedPayments.self), box.resolve(DecoratedPayments.self))
        }
        #expect(inRun.0 === inRun.1)
        #expect(inRun.0 is DecoratedLogging)
        #expect(decorations.value == 3)
    }

    @Test func theLastDecoratorIsOutermostAndOnResolveSeesTheUndecoratedInstance() {
        let box = DIContainer()
        let seen = DecoratedLog()
        box.register {
            Decorate(DecoratedPayments.self) { payments, _ in DecoratedLogging(payments, tag: "first") }
            Shared(DecoratedStripe() as DecoratedPayments).onResolve { payments, _ in
                seen.add("\(type(of: payments))")
            }
            Decorate(DecoratedPayments.self) { payments, _ in DecoratedLogging(payments, tag: "second") }
        }
        let outer = box.resolve(DecoratedPayments.self) as? DecoratedLogging
        #expect(outer?.tag == "second")
        #expect((outer?.inner as? DecoratedLogging)?.tag == "first")
        #expect((outer?.inner as? DecoratedLogging)?.inner is DecoratedStripe)
        #expect(seen.all == ["DecoratedStripe"])
    }

    @Test func aDecoratorRegisteredInALaterCallThanItsServiceStillDecoratesIt() {
        let box = DIContainer()
        box.register { New(DecoratedStripe() as DecoratedPayments) }
        box.register { Decorate(DecoratedPayments.self) { payments, _ in DecoratedLogging(payments) } }
        #expect(box.resolve(DecoratedPayments.self) is DecoratedLogging)
    }

    @Test func aParentsDecoratorAppliesToItsInstanceResolvedThroughAChild() {
        let parent = DIContainer()
        parent.register {
            Shared(DecoratedStripe() as DecoratedPayments)
            Decorate(DecoratedPayments.self) { payments, _ in DecoratedLogging(payments) }
        }
        let child = DIContainer(parent: parent)
        #expect(child.resolve(DecoratedPayments.self) is DecoratedLogging)
        #expect(child.resolve(DecoratedPayments.self) === parent.resolve(DecoratedPayments.self))
    }

    @Test func anEagerSharedIsDecoratedByADecorateLaterInItsBlock() {
        let box = DIContainer()
        let decorations = Tally()
        box.register {
            Shared(DecoratedStripe() as DecoratedPayments).eager()
            Decorate(DecoratedPayments.self) { payments, _ in
                decorations.increment()
                return DecoratedLogging(payments)
            }
        }
        #expect(decorations.value == 1)
        #expect(box.resolve(DecoratedPayments.self) is DecoratedLogging)
        #expect(decorations.value == 1)
    }

    @Test func aPreparedAsyncSharedIsDecoratedOnce() async throws {
        let box = DIContainer()
        let decorations = Tally()
        box.register {
            Shared { _ async -> DecoratedRemote in DecoratedRemoteImpl() }
            Decorate(DecoratedRemote.self) { remote, _ in
                decorations.increment()
                return DecoratedRemoteLogging(remote)
            }
        }
        try await box.prepare()
        #expect(try box.tryResolve(DecoratedRemote.self).wrapped)
        _ = try await box.resolveAsync(DecoratedRemote.self)
        #expect(decorations.value == 1)
    }

    @Test func aGlobalActorSharedIsDecorated() async throws {
        let box = DIContainer()
        box.register {
            Shared { @DecoratedActor () -> DecoratedRemote in DecoratedRemoteImpl() }
            Decorate(DecoratedRemote.self) { remote, _ in DecoratedRemoteLogging(remote) }
        }
        try await box.prepare()
        #expect(try box.tryResolve(DecoratedRemote.self).wrapped)
    }

    @Test func anAsyncNewIsDecoratedEveryTimeItIsMade() async throws {
        let box = DIContainer()
        let decorations = Tally()
        box.register {
            New { _ async -> DecoratedRemote in DecoratedRemoteImpl() }
            Decorate(DecoratedRemote.self) { remote, _ in
                decorations.increment()
                return DecoratedRemoteLogging(remote)
            }
        }
        #expect(try await box.resolveAsync(DecoratedRemote.self).wrapped)
        #expect(try await box.resolveAsync(DecoratedRemote.self).wrapped)
        #expect(decorations.value == 2)
    }

    @Test func anAsyncScopedServiceIsDecoratedOncePerRun() async throws {
        let box = DIContainer()
        let decorations = Tally()
        box.register {
            Scoped(.decoratedSession) { _ async -> DecoratedRemote in DecoratedRemoteImpl() }
            Decorate(DecoratedRemote.self) { remote, _ in
                decorations.increment()
                return DecoratedRemoteLogging(remote)
            }
        }
        try await box.withScope(.decoratedSession) {
            let first = try await box.resolveAsync(DecoratedRemote.self)
            let second = try await box.resolveAsync(DecoratedRemote.self)
            #expect(first === second)
            #expect(first.wrapped)
        }
        #expect(decorations.value == 1)
    }
}
