import DependencyInjection
import Foundation
import Testing

// Nothing hangs: `validate()` returns when a non-throwing factory's nested resolve fails (whichever
// container it resolves from), the containers involved stay usable, and parents, children and
// lazy wrappers used from several threads at once never deadlock.

private final class Missing {}
private final class Fresh {}
private final class Wrapper {
    init(missing: Missing) {}
}
private final class Helper {
    init(_ made: Guarded<Int>) { made.increment() }
}
private final class Mid {
    init(helper: Helper, missing: Missing) {}
}
private final class Top {
    init(mid: Mid) {}
}

private final class Leaf {}
private final class Branch {
    let leaf: Leaf
    init(leaf: Leaf) { self.leaf = leaf }
}
/// Only ever read through its wrapper, which the library's lock guards.
private final class LazyLeafHolder: @unchecked Sendable {
    @LazyInject var leaf: Leaf
    init() {}
}

private final class Settings {
    init(_ made: Guarded<Int>) { made.increment() }
}
private final class Feature {
    let settings: Settings
    init(settings: Settings) { self.settings = settings }
}

@Suite(.timeLimit(.minutes(1))) struct NoHangTests {
    @Test func validateReturnsWhenAFactoryResolvesFromItsOwnContainerAndFails() async throws {
        let box = DIContainer()
        box.register {
            Shared { [unowned box] _ in Wrapper(missing: box.resolve(Missing.self)) }
            Shared(Fresh())
        }
        let report = try #require(await onThread { box.validate() }, "validate() did not return")
        #expect(!report.isValid)
        #expect(report.validCount == 1)
        let problem = try #require(report.problems.first)
        #expect(report.problems.count == 1)
        #expect(problem.registration == "Wrapper")
        #expect(problem.error.reason == .missingRegistration)
        #expect(problem.error.typeName == "Missing")

        // Nothing stayed locked or half-made: the container works, and validates once fixed.
        box.register { Shared(Missing()) }
        let fixed = try #require(await onThread { box.validate() }, "validate() did not return")
        #expect(fixed.isValid, "\(fixed)")
        _ = try box.tryResolve(Wrapper.self)
    }

    @Test func validateReturnsWhenAFactoryResolvesFromAnotherContainerAndThatContainerStaysUsable() async throws {
        let other = DIContainer()
        let helpers = Guarded(0)
        other.register {
            Shared(Helper(helpers))
            Shared { resolve in Mid(helper: resolve(), missing: resolve()) }
        }
        let box = DIContainer()
        box.register { Shared { _ in Top(mid: other.resolve(Mid.self)) } }

        let report = try #require(await onThread { box.validate() }, "validate() did not return")
        let problem = try #require(report.problems.first, "\(report)")
        #expect(problem.registration == "Top")
        #expect(problem.error.reason == .missingRegistration)
        #expect(problem.error.path == ["Top", "Mid", "Missing"])
        #expect(helpers.current == 1)

        // Its next resolve neither blocks nor sees a stale "being made" mark or a half-made instance.
        let outcome = await onThread(timeout: 20) { () -> String in
            other.register { Shared(Missing()) }
            if let error = resolutionError({ _ = try other.tryResolve(Mid.self) }) { return "\(error)" }
            return "resolved"
        }
        #expect(outcome == "resolved", "the other container blocked or failed after the parked probe")
        #expect(helpers.current == 2, "the Helper made by the abandoned probe was dropped")
        _ = try box.tryResolve(Top.self)
    }

    @Test func validateWithAFailingPlainFactoryWhileOtherThreadsResolve() async {
        let failing = DIContainer()
        failing.register { Shared { [unowned failing] _ in Wrapper(missing: failing.resolve(Missing.self)) } }
        let busy = DIContainer()
        let made = Guarded(0)
        busy.register {
            Shared(Settings(made))
            New { resolve in Feature(settings: resolve()) }
        }
        let problems = Guarded<[Int]>([])
        let features = Guarded(0)
        let finished = await onThread(timeout: 50) { () -> Bool in
            DispatchQueue.concurrentPerform(iterations: 3) { worker in
                if worker == 0 {
                    for _ in 0..<3 { problems.withLock { $0.append(failing.validate().problems.count) } }
                } else {
                    for _ in 0..<2_000 {
                        _ = busy.resolve(Feature.self)
                        features.increment()
                    }
                }
            }
            return true
        }
        #expect(finished == true)
        #expect(problems.current == [1, 1, 1])
        #expect(features.current == 4_000)
        #expect(made.current == 1)
    }

    @Test func childLazyInjectReadInParentFactoryWhileAnotherThreadResolvesThroughTheChild() async {
        let parent = DIContainer()
        let child = DIContainer(parent: parent)
        let leaves = Guarded(0)
        child.register {
            New { _ -> Leaf in
                leaves.increment()
                return Leaf()
            }
        }
        // Bound to the child, which alone registers `Leaf`; read inside the parent's factory.
        let holder = child.activate { LazyLeafHolder() }
        parent.register {
            New { _ -> Branch in
                holder.$leaf.reset()
                return Branch(leaf: holder.leaf)
            }
        }
        let iterations = 3_000
        let branches = Guarded(0)
        let finished = await onThread(timeout: 50) { () -> Bool in
            DispatchQueue.concurrentPerform(iterations: 3) { worker in
                for _ in 0..<iterations {
                    switch worker {
                    case 0: _ = parent.resolve(Branch.self)
                    case 1: _ = child.resolve(Branch.self)
                    default: _ = child.activate { LazyLeafHolder() }.leaf
                    }
                    branches.increment()
                }
            }
            return true
        }
        #expect(finished == true, "deadlock")
        #expect(branches.current == 3 * iterations)
        #expect(leaves.current == 3 * iterations)
    }

    @Test func parentSharedIsMadeOnceWhileChildrenResolveItOnManyThreads() {
        let parent = DIContainer()
        let settingsMade = Guarded(0)
        let featuresMade = Guarded(0)
        parent.register { Shared(Settings(settingsMade)) }
        let children = (0..<8).map { _ in DIContainer(parent: parent) }
        for child in children {
            child.register {
                Shared { resolve -> Feature in
                    featuresMade.increment()
                    return Feature(settings: resolve())
                }
            }
        }
        let settings = Guarded<[Settings]>([])
        let features = Guarded<[Feature]>([])
        let mismatches = Guarded(0)
        DispatchQueue.concurrentPerform(iterations: 800) { index in
            let child = children[index % children.count]
            let feature = child.resolve(Feature.self)
            let fromChild = child.resolve(Settings.self)
            let fromParent = parent.resolve(Settings.self)
            if feature.settings !== fromChild || fromChild !== fromParent { mismatches.increment() }
            settings.withLock { $0.append(fromParent) }
            features.withLock { $0.append(feature) }
        }
        #expect(settingsMade.current == 1)
        #expect(featuresMade.current == children.count)
        #expect(mismatches.current == 0)
        #expect(Set(settings.current.map(ObjectIdentifier.init)).count == 1)
        #expect(Set(features.current.map(ObjectIdentifier.init)).count == children.count)
    }
}
