import DependencyInjection
import Testing

// Weak: one instance, decorated and acted on once, for as long as someone holds it.

private protocol HeldPayments: AnyObject {}
private final class HeldStripe: HeldPayments { init() {} }
private final class HeldLogging: HeldPayments {
    let inner: HeldPayments
    init(_ inner: HeldPayments) { self.inner = inner }
}
private final class HeldCache { init() {} }

@Suite(.timeLimit(.minutes(1))) struct WeakWhileHeldTests {
    @Test func everyThreadGetsTheOneHeldInstance() async {
        let box = DIContainer()
        box.register { Weak(HeldCache.init) }
        let held = box.resolve(HeldCache.self)
        let ids = await withTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<64 { group.addTask { ObjectIdentifier(box.resolve(HeldCache.self)) } }
            var set = Set<ObjectIdentifier>()
            for await id in group { set.insert(id) }
            return set
        }
        #expect(ids == [ObjectIdentifier(held)])
    }

    @Test func aWeaksActionsRunOncePerInstanceMade() {
        let box = DIContainer()
        let actions = Tally()
        box.register { Weak(HeldCache.init).onResolve { _, _ in actions.increment() } }
        var held: HeldCache? = box.resolve(HeldCache.self)
        #expect(box.resolve(HeldCache.self) === held)
        #expect(actions.value == 1)
        held = nil
        let next = box.resolve(HeldCache.self)
        #expect(actions.value == 2)
        #expect(box.resolve(HeldCache.self) === next)
        #expect(actions.value == 2)
    }

    @Test func aHeldWeakIsDecoratedOnceAndItsNextInstanceAgain() {
        let box = DIContainer()
        let decorations = Tally()
        let actions = Tally()
        box.register {
            Weak({ HeldStripe() as HeldPayments }).onResolve { _, _ in actions.increment() }
            Decorate(HeldPayments.self) { payments, _ in
                decorations.increment()
                return HeldLogging(payments)
            }
        }
        var held: HeldPayments? = box.resolve(HeldPayments.self)
        #expect(held is HeldLogging)
        #expect(box.resolve(HeldPayments.self) === held)
        #expect(decorations.value == 1)
        #expect(actions.value == 1)
        held = nil
        let next = box.resolve(HeldPayments.self)
        #expect(next is HeldLogging)
        #expect(decorations.value == 2)
        #expect(actions.value == 2)
    }
}
