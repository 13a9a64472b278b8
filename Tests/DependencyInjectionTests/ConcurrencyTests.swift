import DependencyInjection
import Dispatch
import Testing

// Many threads at once: nothing is made twice, nothing deadlocks, nothing is lost.

private final class Heavy: @unchecked Sendable {
    let checksum: Int
    init(_ counter: FactoryCallCounter) {
        counter.increment()
        // Some work inside the factory widens the window in which a second maker could enter.
        checksum = (0..<2_000).reduce(0) { ($0 &* 31) &+ $1 }
    }
}

private final class Leaf: @unchecked Sendable { init() {} }
private final class Branch: @unchecked Sendable {
    @Inject var leaf: Leaf
    @LazyInject var lazyLeaf: Leaf
}
private final class Trunk: @unchecked Sendable {
    @Inject var branch: Branch
    @Inject var leaf: Leaf
}

private final class Holder: @unchecked Sendable {
    @LazyInject var heavy: Heavy
    @MutableLazyInject var mutableHeavy: Heavy
}

private let threads = 64

@Suite struct ConcurrencyTests {
    @Test(.timeLimit(.minutes(1)))
    func sharedIsMadeOnceUnderContention() {
        for _ in 0..<20 {
            let made = FactoryCallCounter()
            let box = DIContainer()
            box.register(Shared(Heavy(made)))
            let seen = ConcurrentCollector<ObjectIdentifier>()
            DispatchQueue.concurrentPerform(iterations: threads) { _ in
                seen.append(ObjectIdentifier(box.resolve(Heavy.self)))
            }
            #expect(made.value == 1)
            #expect(Set(seen.all).count == 1)
            #expect(seen.all.count == threads)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func sharedBehindAliasesIsMadeOnceUnderContention() {
        class Ballast: @unchecked Sendable {}
        final class Anvil: Ballast, @unchecked Sendable {
            init(_ counter: FactoryCallCounter) { counter.increment() }
        }
        for _ in 0..<20 {
            let made = FactoryCallCounter()
            let box = DIContainer()
            box.register(Shared({ Anvil(made) }, as: Ballast.self))
            let seen = ConcurrentCollector<ObjectIdentifier>()
            DispatchQueue.concurrentPerform(iterations: threads) { index in
                let object: AnyObject = index.isMultiple(of: 2) ? box.resolve(Ballast.self) : box.resolve(Anvil.self)
                seen.append(ObjectIdentifier(object))
            }
            #expect(made.value == 1)
            #expect(Set(seen.all).count == 1)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func lazyInjectFirstAccessFromManyThreadsResolvesOnce() {
        for _ in 0..<20 {
            let made = FactoryCallCounter()
            let box = DIContainer()
            box.register(New(Heavy(made)))
            let holder = box.activate { Holder() }
            let seen = ConcurrentCollector<ObjectIdentifier>()
            DispatchQueue.concurrentPerform(iterations: threads) { index in
                let heavy = index.isMultiple(of: 2) ? holder.heavy : holder.mutableHeavy
                seen.append(ObjectIdentifier(heavy))
            }
            #expect(made.value == 2, "one New instance per lazy property, made on first access")
            #expect(Set(seen.all).count == 2)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func nestedResolutionThroughWrappersDoesNotDeadlock() {
        let box = DIContainer()
        box.register {
            Shared(Leaf.init)
            New(Branch())
            New(Trunk())
        }
        let leaves = ConcurrentCollector<ObjectIdentifier>()
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            let trunk = box.resolve(Trunk.self)
            leaves.append(ObjectIdentifier(trunk.leaf))
            leaves.append(ObjectIdentifier(trunk.branch.leaf))
            leaves.append(ObjectIdentifier(trunk.branch.lazyLeaf))
        }
        #expect(leaves.all.count == threads * 3)
        #expect(Set(leaves.all) == [ObjectIdentifier(box.resolve(Leaf.self))])
    }

    @Test(.timeLimit(.minutes(1)))
    func childAndParentResolvedFromManyThreadsDoNotDeadlock() {
        let parent = DIContainer()
        parent.register {
            Shared(Leaf.init)
            New(Branch())
        }
        let child = DIContainer(parent: parent)
        child.register(New(Trunk()))
        let done = FactoryCallCounter()
        DispatchQueue.concurrentPerform(iterations: threads) { index in
            if index.isMultiple(of: 2) {
                _ = child.resolve(Trunk.self).branch.lazyLeaf
            } else {
                _ = parent.resolve(Branch.self).leaf
            }
            done.increment()
        }
        #expect(done.value == threads)
    }

    @Test(.timeLimit(.minutes(1)))
    func manyThreadsRegisterAndResolveAtOnce() {
        let box = DIContainer()
        box.register(Shared(Leaf.init))
        let common = ConcurrentCollector<ObjectIdentifier>()
        let own = ConcurrentCollector<Bool>()
        DispatchQueue.concurrentPerform(iterations: threads) { index in
            box.register(Shared("value \(index)").named("\(index)"))
            own.append(box.resolve(String.self, name: "\(index)") == "value \(index)")
            common.append(ObjectIdentifier(box.resolve(Leaf.self)))
            box.register(New(index))
            _ = box.resolve(Int.self)
        }
        #expect(own.all == Array(repeating: true, count: threads))
        #expect(Set(common.all).count == 1)
        for index in 0..<threads {
            #expect(box.resolve(String?.self, name: "\(index)") == "value \(index)")
        }
        #expect((0..<threads).contains(box.resolve(Int.self)))
    }

    @Test(.timeLimit(.minutes(1)))
    func replacingARegistrationWhileOthersResolveItAlwaysGivesAWholeInstance() {
        let box = DIContainer()
        box.register(Shared(Leaf.init))
        let resolved = FactoryCallCounter()
        DispatchQueue.concurrentPerform(iterations: threads) { index in
            if index.isMultiple(of: 4) {
                box.register(Shared(Leaf.init))
            } else {
                _ = box.resolve(Leaf.self)
                resolved.increment()
            }
        }
        #expect(resolved.value == threads - threads / 4)
    }
}
