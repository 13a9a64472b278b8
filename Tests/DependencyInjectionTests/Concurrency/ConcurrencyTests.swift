import DependencyInjection
import Foundation
import Testing

// Many threads registering and resolving at once: nothing made twice, nothing deadlocks.

/// Runs `work(index)` on `threads` threads released together, and waits for all of them.
/// Returns false if they have not finished after `timeout` seconds (a deadlock), so the test
/// fails with its own message, well within the suite's time limit.
/// The caller is suspended while they run, not blocked (see `onThread`).
private func runTogether(
    threads: Int, timeout: TimeInterval = 30, _ work: @escaping @Sendable (Int) -> Void
) async -> Bool {
    let gate = DispatchSemaphore(value: 0)
    let done = DispatchGroup()
    for index in 0..<threads {
        done.enter()
        let thread = Thread {
            gate.wait()
            work(index)
            done.leave()
        }
        thread.start()
    }
    for _ in 0..<threads { gate.signal() }
    return await onThread(timeout: timeout) { done.wait() } != nil
}

/// Burns a little time inside a factory, to widen the window in which a second thread could
/// make a second instance.
private func busyWork() {
    var value = 0
    for step in 0..<20_000 { value &+= step }
    precondition(value != 1)
}

private final class SlowService {
    init(_ made: Tally) {
        made.increment()
        busyWork()
    }
}

private final class Leaf {}
private final class Middle {
    @Inject var leaf: Leaf
    init() {}
}
private final class Top {
    @Inject var middle: Middle
    @LazyInject var lazyLeaf: Leaf
    init() {}
}

private final class Scope {}
private final class ScopeUser {
    let scope: Scope
    init(scope: Scope) { self.scope = scope }
}

private final class LazyCountedHolder: @unchecked Sendable {
    @LazyInject var service: SlowService
    init() {}
}

private enum First {}
private enum Second {}
private enum Third {}
private final class TaggedService<Tag>: Sendable {
    let index: Int
    init(index: Int) { self.index = index }
}

@Suite(.timeLimit(.minutes(1))) struct ConcurrencyTests {
    /// How the contending threads reach one `Shared` registration.
    enum SharedRoute: String, CaseIterable, Sendable {
        /// `Shared(SlowService(made))`, resolved as itself.
        case itsOwnType
        /// `Shared(…, as: Router.self, DeeplinkHandler.self)`, resolved as each alias and as itself.
        case everyAlias
    }

    @Test(arguments: SharedRoute.allCases)
    func sharedIsMadeOnceUnderContention(route: SharedRoute) async {
        let made = Tally()
        let seen = IdentitySet()
        let box = DIContainer()
        switch route {
        case .itsOwnType:
            box.register { Shared(SlowService(made)) }
        case .everyAlias:
            box.register {
                Shared(
                    { _ in
                        made.increment()
                        busyWork()
                        return RouterImpl()
                    }, as: Router.self, DeeplinkHandler.self)
            }
        }
        let finished = await runTogether(threads: 32) { index in
            for _ in 0..<50 {
                switch (route, index % 3) {
                case (.itsOwnType, _): seen.insert(box.resolve(SlowService.self))
                case (.everyAlias, 0): seen.insert(box.resolve(Router.self))
                case (.everyAlias, 1): seen.insert(box.resolve(DeeplinkHandler.self))
                case (.everyAlias, _): seen.insert(box.resolve(RouterImpl.self))
                }
            }
        }
        #expect(finished)
        #expect(made.value == 1)
        #expect(seen.count == 1)
    }

    @Test func lazyInjectFirstAccessFromManyThreadsResolvesOnce() async {
        let made = Tally()
        let seen = IdentitySet()
        let box = DIContainer()
        box.register { New(SlowService(made)) }
        let holder = box.activate { LazyCountedHolder() }
        let finished = await runTogether(threads: 32) { _ in
            seen.insert(holder.service)
        }
        #expect(finished)
        #expect(made.value == 1)
        #expect(seen.count == 1)
    }

    @Test func nestedResolutionThroughWrappersNeverDeadlocks() async {
        let box = DIContainer()
        box.register {
            Shared(Leaf.init)
            New(Middle())
            New(Top())
        }
        let leaves = IdentitySet()
        let finished = await runTogether(threads: 16) { _ in
            for _ in 0..<50 {
                let top = box.resolve(Top.self)
                leaves.insert(top.middle.leaf)
                leaves.insert(top.lazyLeaf)
            }
        }
        #expect(finished)
        #expect(leaves.count == 1)
    }

    @Test func registeringAndResolvingAtOnceLosesNothing() async {
        let box = DIContainer()
        box.register { Shared(Leaf.init) }
        let leaves = IdentitySet()
        let finished = await runTogether(threads: 16) { index in
            for step in 0..<50 {
                if index.isMultiple(of: 2) {
                    box.register { Shared(Engine.init).named("\(index)-\(step)") }
                } else {
                    leaves.insert(box.resolve(Leaf.self))
                }
            }
        }
        #expect(finished)
        #expect(leaves.count == 1)
        let missing = (0..<16).filter { $0.isMultiple(of: 2) }.flatMap { index in
            (0..<50).filter { step in box.resolve(Engine?.self, name: "\(index)-\(step)") == nil }
        }
        #expect(missing.isEmpty)
    }

    @Test func replacingARegistrationWhileOthersResolveItIsSafe() async {
        let made = Tally()
        @Sendable func memory() -> Store {
            made.increment()
            return MemoryStore()
        }
        @Sendable func postgres() -> Store {
            made.increment()
            return PostgresStore()
        }
        let box = DIContainer()
        box.register { Shared(memory()) }
        let replacements = 100
        let resolved = Tally()
        let finished = await runTogether(threads: 8) { index in
            for _ in 0..<replacements {
                if index == 0 {
                    box.register { Shared(postgres()) }
                    box.register { Shared(memory()) }
                } else {
                    _ = box.resolve(Store.self)
                    resolved.increment()
                }
            }
        }
        #expect(finished)
        #expect(resolved.value == 7 * replacements)
        // Each registration made its instance at most once, however many threads resolved it.
        #expect(made.value <= 1 + 2 * replacements)
        // The last registration won, and is Shared as it should be.
        let last = box.resolve(Store.self)
        #expect(last.kind == "memory")
        #expect(box.resolve(Store.self) === last)
    }

    @Test func childAndParentResolvingAtOnceMakeTheParentsSharedOnce() async {
        let made = Tally()
        let seen = IdentitySet()
        let parent = DIContainer()
        parent.register { Shared(SlowService(made)) }
        let child = DIContainer(parent: parent)
        child.register { New { resolve in Pair(resolve(SlowService.self), 0) } }
        let finished = await runTogether(threads: 16) { index in
            for _ in 0..<50 {
                if index.isMultiple(of: 2) {
                    seen.insert(parent.resolve(SlowService.self))
                } else {
                    seen.insert(child.resolve(Pair<SlowService, Int>.self).first)
                }
            }
        }
        #expect(finished)
        #expect(made.value == 1)
        #expect(seen.count == 1)
    }

    @Test func graphStaysPerResolutionUnderContention() async {
        let box = DIContainer()
        box.register {
            Graph(Scope.init)
            New { resolve in ScopeUser(scope: resolve()) }
            New { resolve in Pair(resolve(ScopeUser.self), resolve(ScopeUser.self)) }
        }
        let scopes = IdentitySet()
        let mixed = Tally()
        let finished = await runTogether(threads: 16) { _ in
            for _ in 0..<50 {
                let pair = box.resolve(Pair<ScopeUser, ScopeUser>.self)
                if pair.first.scope !== pair.second.scope { mixed.increment() }
                scopes.insert(pair.first.scope)
            }
        }
        #expect(finished)
        #expect(mixed.value == 0)
        #expect(scopes.count == 16 * 50)
    }

    @Test func aFactoryThatHopsThroughAnotherQueueStillReenters() async {
        let box = DIContainer()
        let hop = DispatchQueue(label: "hop")
        box.register {
            Shared(Leaf.init)
            New { resolve in hop.sync { Pair(resolve(Leaf.self), 0) } }
        }
        let finished = await runTogether(threads: 4) { _ in
            for _ in 0..<20 { _ = box.resolve(Pair<Leaf, Int>.self) }
        }
        #expect(finished)
    }

    /// Each thread remembers the root-entry class of the types it registered; the same types
    /// registered on other threads, in other containers, must make entries of their own type.
    @Test func registeringTheSameTypesOnManyThreadsMakesEntriesOfTheirOwnTypes() async {
        let containers = (0..<8).map { _ in DIContainer() }
        let finished = await runTogether(threads: 8) { index in
            for round in 0..<50 {
                let box = containers[index]
                box.register(Shared(TaggedService<First>(index: round)))
                box.register(New { _ in TaggedService<Second>(index: round) })
                box.register(New { (_, offset: Int) in TaggedService<Third>(index: round + offset) })
            }
        }
        #expect(finished)
        for box in containers {
            #expect(box.resolve(TaggedService<First>.self).index == 49)
            #expect(box.resolve(TaggedService<Second>.self).index == 49)
            #expect(box.resolve(TaggedService<Third>.self) { 1 }.index == 50)
        }
    }

    @Test func activateIsolatesConcurrentTasks() async {
        let mismatches = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<100 {
                group.addTask {
                    let box = DIContainer()
                    box.register { New({ _ in ConcreteViewModel(id: "\(index)") }, as: ViewModelProtocol.self) }
                    return await box.activate { () async -> Bool in
                        await Task.yield()
                        return DIContainer.resolve(ViewModelProtocol.self).id == "\(index)"
                    }
                }
            }
            var mismatches = 0
            for await matched in group where !matched { mismatches += 1 }
            return mismatches
        }
        #expect(mismatches == 0)
    }
}
