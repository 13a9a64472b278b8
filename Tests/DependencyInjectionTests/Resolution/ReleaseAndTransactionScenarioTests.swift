import DependencyInjection
import Foundation
import Testing

// Scenarios for the core's rules: a failed top-level resolution keeps nothing it made,
// values are released once the state is consistent (a `deinit` may resolve), a `Graph` instance
// belongs to the entry that made it, and a factory's wrappers resolve from the container running
// it. Every test uses containers of its own.

private final class Fresh {}
private final class Missing {}

/// A `Shared` service that counts how often its factory ran.
private final class LazilyMade {
    init(_ made: Guarded<Int>) { made.increment() }
}

/// Something a `deinit` resolves as a `Graph`, counting its own `deinit`s.
private final class EchoSession {
    let deinits: Guarded<Int>
    init(deinits: Guarded<Int>) { self.deinits = deinits }
    deinit { deinits.increment() }
}

/// An instance whose `deinit` resolves from its container what was not made yet, and records
/// what it got.
private final class DeinitResolver {
    // Weak: a container that is being deallocated releases its instances, and then there is
    // nothing to resolve from.
    weak var container: DIContainer?
    let deinits: Guarded<Int>
    let outcomes: Guarded<[String]>

    init(container: DIContainer, deinits: Guarded<Int>, outcomes: Guarded<[String]>) {
        self.container = container
        self.deinits = deinits
        self.outcomes = outcomes
    }

    deinit {
        deinits.increment()
        guard let container else { return }
        outcomes.append(Self.outcome("Fresh") { _ = try container.tryResolve(Fresh.self) })
        outcomes.append(Self.outcome("LazilyMade") { _ = try container.tryResolve(LazilyMade.self) })
        outcomes.append(Self.outcome("EchoSession") { _ = try container.tryResolve(EchoSession.self) })
    }

    private static func outcome(_ label: String, _ resolve: () throws -> Void) -> String {
        guard let error = resolutionError(resolve) else { return "\(label): ok" }
        return "\(label): \(error.reason)"
    }
}

/// What the `deinit`s of `DeinitResolver`s resolved, each time.
private let everythingResolved = ["Fresh: ok", "LazilyMade: ok", "EchoSession: ok"]

/// What a top-level resolution saw of its `Graph` instance, without keeping it.
private struct GraphReport {
    let sameInstance: Bool
}

/// Registers `DeinitResolver` with `lifetime`, and what its `deinit` resolves.
private func registerDeinitResolver(
    in box: DIContainer, made: Guarded<Int>, deinits: Guarded<Int>, echoDeinits: Guarded<Int>,
    outcomes: Guarded<[String]>
) {
    box.register {
        Graph { [unowned box] _ in DeinitResolver(container: box, deinits: deinits, outcomes: outcomes) }
        New { _ in Fresh() }
        Shared(LazilyMade(made))
        Graph(EchoSession(deinits: echoDeinits))
        New { resolve -> GraphReport in
            let first: DeinitResolver = resolve()
            let second: DeinitResolver = resolve()
            return GraphReport(sameInstance: first === second)
        }
    }
}

@Suite(.timeLimit(.minutes(1))) struct ReleaseScenarioTests {
    @Test func graphInstanceWhoseDeinitResolvesIsReleasedOnce() {
        let box = DIContainer()
        let made = Guarded(0)
        let deinits = Guarded(0)
        let echoDeinits = Guarded(0)
        let outcomes = Guarded<[String]>([])
        registerDeinitResolver(in: box, made: made, deinits: deinits, echoDeinits: echoDeinits, outcomes: outcomes)

        #expect(box.resolve(GraphReport.self).sameInstance)
        // Released when the resolution ended: its deinit ran once, and resolved a New, a Shared
        // not made yet, and a Graph of a new resolution of its own.
        #expect(deinits.current == 1)
        #expect(outcomes.current == everythingResolved)
        #expect(made.current == 1)
        #expect(echoDeinits.current == 1)

        #expect(box.resolve(GraphReport.self).sameInstance)
        #expect(deinits.current == 2)
        #expect(made.current == 1, "the Shared made by the first deinit is kept")
        #expect(echoDeinits.current == 2)
        #expect(outcomes.current.allSatisfy { $0.hasSuffix(": ok") }, "\(outcomes.current)")
    }

    @Test func graphInstanceWhoseDeinitResolvesIsReleasedOnceWhenTheResolutionFails() {
        let box = DIContainer()
        let made = Guarded(0)
        let deinits = Guarded(0)
        let echoDeinits = Guarded(0)
        let outcomes = Guarded<[String]>([])
        registerDeinitResolver(in: box, made: made, deinits: deinits, echoDeinits: echoDeinits, outcomes: outcomes)
        box.register {
            New { resolve -> Fresh in
                let _: DeinitResolver = try resolve.tryResolve()
                let _: Missing = try resolve.tryResolve()
                return Fresh()
            }
            .named("failing")
        }

        let error = resolutionError { _ = try box.tryResolve(Fresh.self, name: "failing") }
        #expect(error?.reason == .missingRegistration)
        #expect(error?.typeName == "Missing")
        #expect(deinits.current == 1)
        #expect(outcomes.current == everythingResolved)

        #expect(box.resolve(GraphReport.self).sameInstance)
        #expect(deinits.current == 2)
        #expect(made.current == 1)
    }

    @Test func droppedOnResolveActionsLeaveNoCycleBehind() throws {
        let box = DIContainer()
        let made = Guarded(0)
        let deinits = Guarded(0)
        let actions = Guarded<[String]>([])
        let outcomes = Guarded<[String]>([])
        box.register {
            Shared { [unowned box] _ -> DeinitResolver in
                made.increment()
                return DeinitResolver(container: box, deinits: deinits, outcomes: outcomes)
            }
            .onResolve { _, _ in actions.append("shared") }
            Graph(Generation(0))
                .onResolve { _, _ in actions.append("graph") }
            New { _ in Fresh() }
            Shared(LazilyMade(Guarded(0)))
            Graph(EchoSession(deinits: Guarded(0)))
            New { resolve -> Fresh in
                let _: DeinitResolver = try resolve.tryResolve()
                let _: Generation = try resolve.tryResolve()
                let _: Missing = try resolve.tryResolve()
                return Fresh()
            }
            .named("failing")
        }

        for attempt in 1...3 {
            let error = resolutionError { _ = try box.tryResolve(Fresh.self, name: "failing") }
            #expect(error?.reason == .missingRegistration, "attempt \(attempt): \(String(describing: error))")
            #expect(made.current == attempt)
            #expect(deinits.current == attempt, "the instance made by the failed resolution is released once")
            #expect(actions.current.isEmpty, "actions queued by a failed resolution never run")
        }
        #expect(outcomes.current == Array([[String]](repeating: everythingResolved, count: 3).joined()))

        // No stale "being made" mark and no stale queued action: both resolve and run their action once.
        let wired = try box.tryResolve(DeinitResolver.self)
        _ = try box.tryResolve(Generation.self)
        #expect(made.current == 4)
        #expect(actions.current == ["shared", "graph"])
        #expect(try box.tryResolve(DeinitResolver.self) === wired)
        #expect(actions.current == ["shared", "graph"])
    }

    @Test func deinitThatResolvesRunsOnceAfterReleaseInstances() {
        let box = DIContainer()
        let made = Guarded(0)
        let deinits = Guarded(0)
        let outcomes = Guarded<[String]>([])
        registerSharedDeinitResolver(in: box, made: made, deinits: deinits, outcomes: outcomes)
        do {
            let first = box.resolve(DeinitResolver.self)
            box.releaseInstances()
            #expect(deinits.current == 0, "the test still holds it")
            let second = box.resolve(DeinitResolver.self)
            #expect(second !== first)
            #expect(made.current == 2)
        }
        // The first is gone with the test's reference; the container keeps the second.
        #expect(deinits.current == 1)
        box.releaseInstances()
        #expect(deinits.current == 2, "released by releaseInstances, once")
        #expect(outcomes.current == everythingResolved + everythingResolved)
        _ = box.resolve(DeinitResolver.self)
        #expect(made.current == 3)
    }

    @Test func deinitThatResolvesItsOwnServiceDuringReleaseInstancesGetsANewInstanceThatIsKept() {
        let box = DIContainer()
        let made = Guarded(0)
        let deinits = Guarded(0)
        let remade = Guarded<[ObjectIdentifier]>([])
        box.register {
            Shared { [unowned box] _ -> SelfResolving in
                made.increment()
                return SelfResolving(container: box, deinits: deinits, remade: remade, isFirst: made.current == 1)
            }
        }
        _ = box.resolve(SelfResolving.self)
        box.releaseInstances()
        #expect(deinits.current == 1)
        #expect(made.current == 2, "the deinit made a new instance")
        let kept = box.resolve(SelfResolving.self)
        #expect(made.current == 2, "and the container kept it")
        #expect(remade.current == [ObjectIdentifier(kept)])
    }

    @Test func deinitThatResolvesDuringResetSeesTheEmptyContainer() {
        let box = DIContainer()
        let deinits = Guarded(0)
        let outcomes = Guarded<[String]>([])
        registerSharedDeinitResolver(in: box, made: Guarded(0), deinits: deinits, outcomes: outcomes)
        _ = box.resolve(DeinitResolver.self)
        box.reset()
        #expect(deinits.current == 1)
        // Released once the reset is complete: a clean "missing" error, neither a stale instance
        // nor a crash.
        #expect(
            outcomes.current == [
                "Fresh: missingRegistration", "LazilyMade: missingRegistration", "EchoSession: missingRegistration",
            ])
        box.register { New { _ in Fresh() } }
        _ = box.resolve(Fresh.self)
    }

    @Test func factoryReleasingAndResettingOtherContainersRunsDeinitsThatResolve() {
        let first = DIContainer()
        let second = DIContainer()
        let third = DIContainer()
        let made = Guarded(0)
        let deinits = Guarded(0)
        let outcomes = Guarded<[String]>([])
        registerSharedDeinitResolver(in: second, made: made, deinits: deinits, outcomes: outcomes)
        registerSharedDeinitResolver(in: third, made: made, deinits: deinits, outcomes: outcomes)
        _ = second.resolve(DeinitResolver.self)
        _ = third.resolve(DeinitResolver.self)
        first.register {
            New { _ -> Fresh in
                // The released instances' deinits run once first's resolution has let go of the
                // lock (never while it is held): they resolve from second, which keeps its
                // registrations, and from third, registered again by then.
                second.releaseInstances()
                third.reset()
                registerSharedDeinitResolver(in: third, made: made, deinits: deinits, outcomes: outcomes)
                return Fresh()
            }
        }
        _ = first.resolve(Fresh.self)
        #expect(deinits.current == 2)
        #expect(outcomes.current == everythingResolved + everythingResolved)
        _ = second.resolve(DeinitResolver.self)
        _ = third.resolve(DeinitResolver.self)
        #expect(made.current == 4)
    }
}

extension ReleaseScenarioTests {
    @Test func instanceOfAContainerDroppedMidResolutionIsReleasedAfterTheLock() {
        let first = DIContainer()
        let lockWasFree = Guarded<[Bool]>([])
        first.register {
            New { _ -> Fresh in
                // A container of the factory's own: its instance is made in first's resolution, and
                // the container is gone before that resolution ends, so only the resolution holds it.
                let temporary = DIContainer()
                temporary.register { Shared(LockProbe(lockWasFree)) }
                _ = temporary.resolve(LockProbe.self)
                return Fresh()
            }
        }
        _ = first.resolve(Fresh.self)
        #expect(lockWasFree.current == [true])
    }
}

private typealias LockProbe = DeinitLockProbe

/// Registers a `Shared` `DeinitResolver` and what its `deinit` resolves.
private func registerSharedDeinitResolver(
    in box: DIContainer, made: Guarded<Int>, deinits: Guarded<Int>, outcomes: Guarded<[String]>
) {
    box.register {
        Shared { [unowned box] _ -> DeinitResolver in
            made.increment()
            return DeinitResolver(container: box, deinits: deinits, outcomes: outcomes)
        }
        New { _ in Fresh() }
        Shared(LazilyMade(Guarded(0)))
        Graph(EchoSession(deinits: Guarded(0)))
    }
}

/// A `Shared` instance whose `deinit` (the first instance's only) resolves its own registration.
private final class SelfResolving {
    weak var container: DIContainer?
    let deinits: Guarded<Int>
    let remade: Guarded<[ObjectIdentifier]>
    let isFirst: Bool

    init(container: DIContainer, deinits: Guarded<Int>, remade: Guarded<[ObjectIdentifier]>, isFirst: Bool) {
        self.container = container
        self.deinits = deinits
        self.remade = remade
        self.isFirst = isFirst
    }

    deinit {
        deinits.increment()
        guard isFirst, let container else { return }
        let again = container.resolve(SelfResolving.self)
        remade.withLock { $0.append(ObjectIdentifier(again)) }
    }
}

// MARK: - Half-made instances

private final class Config {
    init(_ made: Guarded<Int>) { made.increment() }
}
private final class Eager {}
private final class Salutation {
    let text: String
    init(_ text: String) { self.text = text }
}
private struct Unreachable: Error {}
private struct RefusedOnce: Error {}

@Suite(.timeLimit(.minutes(1))) struct TransactionScenarioTests {
    @Test func sharedMadeDuringAFailedResolutionIsMadeAgainWithItsAction() throws {
        let box = DIContainer()
        let made = Guarded(0)
        let actions = Guarded(0)
        let instances = Guarded<[ObjectIdentifier]>([])
        box.register {
            Shared { _ -> Config in
                let config = Config(made)
                instances.withLock { $0.append(ObjectIdentifier(config)) }
                return config
            }
            .onResolve { _, _ in actions.increment() }
            New { resolve -> Fresh in
                let _: Config = try resolve.tryResolve()
                let _: Missing = try resolve.tryResolve()
                return Fresh()
            }
        }

        #expect(throws: ResolutionError.self) { try box.tryResolve(Fresh.self) }
        #expect(made.current == 1)
        #expect(actions.current == 0)

        let config = try box.tryResolve(Config.self)
        #expect(made.current == 2, "the failed resolution's instance was not kept")
        #expect(actions.current == 1)
        #expect(ObjectIdentifier(config) == instances.current.last)
        #expect(try box.tryResolve(Config.self) === config)
        #expect(made.current == 2)
        #expect(actions.current == 1)
    }

    @Test func sharedWhoseOnResolveThrewIsNotCached() throws {
        let box = DIContainer()
        let made = Guarded(0)
        let actions = Guarded(0)
        let laterActions = Guarded(0)
        box.register {
            Shared(Config(made))
                .onResolve { _, _ in
                    actions.increment()
                    if actions.current == 1 { throw RefusedOnce() }
                }
                .onResolve { _, _ in laterActions.increment() }
        }

        let error = resolutionError { _ = try box.tryResolve(Config.self) }
        #expect(error?.reason == .factoryFailed)
        #expect(error?.underlyingError is RefusedOnce)
        #expect(made.current == 1)
        #expect(laterActions.current == 0, "the action after the one that threw did not run")

        let config = try box.tryResolve(Config.self)
        #expect(made.current == 2, "a new instance, not the one whose action threw")
        #expect(actions.current == 2)
        #expect(laterActions.current == 1)
        #expect(try box.tryResolve(Config.self) === config)
        #expect(made.current == 2)
        #expect(actions.current == 2)
    }

    @Test func failedEagerRegistrationLeavesExistingSharedUnmadeAndRegistrationsAsTheyWere() throws {
        let box = DIContainer()
        let made = Guarded(0)
        let actions = Guarded(0)
        box.register {
            Shared(Config(made)).onResolve { _, _ in actions.increment() }
            New(Salutation("old"))
        }
        let before = box.registrations.description

        let error = resolutionError {
            try box.tryRegister {
                New(Salutation("new"))
                Shared { resolve -> Eager in
                    let _: Config = try resolve.tryResolve()
                    throw Unreachable()
                }
                .eager()
            }
        }
        #expect(error?.reason == .factoryFailed)
        #expect(error?.underlyingError is Unreachable)
        #expect(made.current == 1, "the eager factory made the Shared it needed")
        #expect(actions.current == 0)

        #expect(box.registrations.description == before)
        #expect(box.resolve(Salutation.self).text == "old")
        #expect(resolutionError { _ = try box.tryResolve(Eager.self) }?.reason == .missingRegistration)
        _ = try box.tryResolve(Config.self)
        #expect(made.current == 2, "the instance the failed registration made was dropped")
        #expect(actions.current == 1)
    }

    @Test func eagerRegistrationWhoseOnResolveThrowsIsRefusedAndLeavesTheContainerUsable() throws {
        let box = DIContainer()
        box.register { New(Salutation("old")) }
        let made = Guarded(0)

        let error = resolutionError {
            try box.tryRegister {
                New(Salutation("new"))
                Shared(Config(made)).onResolve { _, _ in throw Unreachable() }.eager()
            }
        }
        #expect(error?.reason == .factoryFailed)
        #expect(error?.underlyingError is Unreachable)
        #expect(made.current == 1)
        #expect(box.resolve(Salutation.self).text == "old", "nothing of the refused block was installed")
        #expect(resolutionError { _ = try box.tryResolve(Config.self) }?.reason == .missingRegistration)
        // The container (and the resolution state shared by all containers) is consistent again.
        box.register { Shared(Config(made)) }
        _ = try box.tryResolve(Config.self)
        #expect(made.current == 2)
    }

    @Test func weakMadeDuringAFailedResolutionIsNotKept() throws {
        let box = DIContainer()
        let made = Guarded(0)
        let stash = Guarded<[Config]>([])
        box.register {
            Weak(Config(made))
            New { resolve -> Fresh in
                let config: Config = try resolve.tryResolve()
                stash.withLock { $0.append(config) }
                let _: Missing = try resolve.tryResolve()
                return Fresh()
            }
        }
        #expect(throws: ResolutionError.self) { try box.tryResolve(Fresh.self) }
        let config = try box.tryResolve(Config.self)
        #expect(made.current == 2, "the failed resolution's instance is alive but no longer the container's")
        #expect(config !== stash.current.first)
        #expect(try box.tryResolve(Config.self) === config)
    }

    @Test func throwingEagerRegistrationRegistersNothing() {
        let box = DIContainer()
        let made = Guarded(0)
        let error = resolutionError {
            try box.tryRegister(
                Shared { _ -> Config in
                    _ = Config(made)
                    throw Unreachable()
                }.eager())
        }
        #expect(error?.reason == .factoryFailed)
        #expect(made.current == 1)
        #expect(box.registrations.isEmpty)
        #expect(resolutionError { _ = try box.tryResolve(Config.self) }?.reason == .missingRegistration)
    }
}

// MARK: - Containers

/// Made by a `Graph` registration, numbered by the registration that made it.
private final class Generation {
    let number: Int
    init(_ number: Int) { self.number = number }
}
private struct Generations {
    let numbers: [Int]
}

private protocol Flavor: AnyObject { var origin: String { get } }
private final class ParentFlavor: Flavor { let origin = "parent" }
private final class ChildFlavor: Flavor { let origin = "child" }

/// Made by the parent; its wrapper must resolve from the parent, whoever asked.
private final class Inner {
    @Inject var flavor: Flavor
    init() {}
}
/// Made by the child, from a parent factory; it needs an `Inner` that only the parent registers.
private final class Middle {
    @Inject var flavor: Flavor
    let inner: Inner
    init(inner: Inner) { self.inner = inner }
}
/// Made by the parent; its factory goes through the child.
private final class Outer {
    @Inject var flavor: Flavor
    let middle: Middle
    init(middle: Middle) { self.middle = middle }
}

/// Made by a parent's factory from the parent's `Graph` registration.
private final class GenerationHolder {
    let generation: Generation
    init(generation: Generation) { self.generation = generation }
}
private struct GenerationPair {
    let direct: Generation
    let throughParentFactory: Generation
}

/// Keeps the resolver its factory received, to resolve later.
private final class LateBinder {
    let resolve: Resolver
    init(resolve: Resolver) { self.resolve = resolve }
}

@Suite(.timeLimit(.minutes(1))) struct ContainerScenarioTests {
    @Test func factoryResettingAnotherContainerGetsTheNewGraphRegistration() {
        let first = DIContainer()
        let second = DIContainer()
        second.register { Graph(Generation(0)) }
        first.register {
            New { _ -> Generations in
                var seen = [second.resolve(Generation.self).number]
                for number in 1...50 {
                    // Alternately forget everything and replace the one registration: either way
                    // the old entry (and its Graph instance) must not answer for the new one.
                    if number.isMultiple(of: 2) { second.reset() }
                    second.register { Graph(Generation(number)) }
                    seen.append(second.resolve(Generation.self).number)
                    seen.append(second.resolve(Generation.self).number)
                }
                return Generations(numbers: seen)
            }
        }
        let expected = [0] + (1...50).flatMap { [$0, $0] }
        #expect(first.resolve(Generations.self).numbers == expected)
        #expect(second.resolve(Generation.self).number == 50)
    }

    @Test func parentFactoryReachedThroughAChildInjectsFromTheParent() throws {
        let parent = DIContainer()
        let child = DIContainer(parent: parent)
        parent.register {
            Shared(ParentFlavor() as Flavor)
            New { _ in Inner() }
            New { [unowned child] _ in Outer(middle: child.resolve()) }
        }
        child.register {
            Shared(ChildFlavor() as Flavor)
            New { resolve in Middle(inner: resolve()) }
        }

        let outer = parent.resolve(Outer.self)
        #expect(outer.flavor.origin == "parent")
        #expect(outer.middle.flavor.origin == "child")
        #expect(outer.middle.inner.flavor.origin == "parent", "parent factory -> child -> parent factory")

        let fromChild = child.resolve(Outer.self)
        #expect(fromChild.flavor.origin == "parent")
        #expect(fromChild.middle.inner.flavor.origin == "parent")
        #expect(child.resolve(Middle.self).inner.flavor.origin == "parent")
        #expect(DIContainer.current !== parent && DIContainer.current !== child)
    }

    @Test func parentGraphIsSharedByEverythingOneResolutionMakesThroughAChild() {
        let parent = DIContainer()
        let child = DIContainer(parent: parent)
        let made = Guarded(0)
        parent.register {
            Graph { _ -> Generation in
                made.increment()
                return Generation(made.current)
            }
            New { resolve in GenerationHolder(generation: resolve()) }
        }
        child.register {
            New { resolve in
                GenerationPair(direct: resolve(), throughParentFactory: resolve(GenerationHolder.self).generation)
            }
        }
        let first = child.resolve(GenerationPair.self)
        #expect(first.direct === first.throughParentFactory)
        let second = child.resolve(GenerationPair.self)
        #expect(second.direct === second.throughParentFactory)
        #expect(second.direct !== first.direct, "one instance per top-level resolution")
        #expect(made.current == 2)
    }

    @Test func keptResolverWorksWhileItsContainerLivesAndDoesNotKeepItAlive() throws {
        weak var weakBox: DIContainer?
        let binder: LateBinder
        do {
            let box = DIContainer()
            weakBox = box
            box.register {
                Shared { resolve in LateBinder(resolve: resolve) }
                New { _ in Fresh() }
            }
            binder = box.resolve(LateBinder.self)
            // After its factory returned, while the container lives: it still resolves from it.
            let first: Fresh = binder.resolve()
            let second = try binder.resolve.tryResolve(Fresh.self)
            #expect(first !== second)
            #expect(resolutionError { _ = try binder.resolve.tryResolve(Missing.self) }?.reason == .missingRegistration)
        }
        #expect(weakBox == nil, "a kept resolver does not keep its container alive")
        withExtendedLifetime(binder) {}
    }
}

// MARK: - Messages

private final class Ticket {
    let summary: String
    init(_ summary: String) { self.summary = summary }
}
private final class CycleLeft {
    init(right: CycleRight) {}
}
private final class CycleRight {
    init(left: CycleLeft) {}
}
private final class CycleEntrance {
    init(left: CycleLeft) {}
}

@Suite(.timeLimit(.minutes(1))) struct MessageScenarioTests {
    @Test func factoryTakingAnEmptyTupleResolvesWithoutArguments() throws {
        let box = DIContainer()
        box.register { New { (_: Resolver, _: ()) in Ticket("empty tuple") } }
        #expect(box.resolve(Ticket.self).summary == "empty tuple")
        #expect(try box.tryResolve(Ticket.self).summary == "empty tuple")
        #expect(box.registrations.first?.argumentTypes == [])
    }

    @Test func factoryWithoutArgumentsResolvesWithAnEmptyArgumentClosure() throws {
        let box = DIContainer()
        box.register { New { _ in Ticket("no arguments") } }
        #expect(box.resolve(Ticket.self) { () }.summary == "no arguments")
        #expect(try box.tryResolve(Ticket.self, arguments: { () }).summary == "no arguments")
    }

    // `{ (id: "a", count: 1) }` cannot reach the library as arguments: Swift takes a labelled
    // tuple in that closure as an unused expression (and warns), so the closure returns nothing.
    // The mismatch message says so, for the closure that returns nothing.
    @Test func anArgumentsClosureThatReturnsNothingSaysWhyForAFactoryThatTakesArguments() throws {
        let box = DIContainer()
        box.register { New { (_, id: String, count: Int) in Ticket("\(id) x\(count)") } }
        #expect(box.resolve(Ticket.self) { ("a", 1) }.summary == "a x1")
        let error = try #require(resolutionError { _ = try box.tryResolve(Ticket.self) { () } })
        #expect(error.reason == .argumentMismatch(expected: "(String, Int)", received: "no arguments"))
        #expect(
            error.description == """
                Wrong arguments for 'Ticket': expected (String, Int), received no arguments.
                To fix, pass arguments of the registered types (String, Int): container.resolve(Ticket.self) { … }. \
                An arguments closure that returns a labelled tuple, { (id: …, count: …) }, returns nothing \
                (Swift warns that the tuple is unused): drop the labels.
                """)
    }

    @Test func newToNewCycleIsReportedWithItsPath() throws {
        let box = DIContainer()
        let made = Guarded(0)
        box.register {
            New { resolve -> CycleLeft in
                made.increment()
                return try CycleLeft(right: resolve.tryResolve())
            }
            New { resolve in try CycleRight(left: resolve.tryResolve()) }
            New { resolve in try CycleEntrance(left: resolve.tryResolve()) }
        }
        let error = try #require(resolutionError { _ = try box.tryResolve(CycleEntrance.self) })
        #expect(error.reason == .dependencyCycle(cycle: ["CycleLeft", "CycleRight", "CycleLeft"]))
        #expect(error.path == ["CycleEntrance", "CycleLeft", "CycleRight", "CycleLeft"])
        #expect(error.description.hasPrefix("Dependency cycle: CycleLeft -> CycleRight -> CycleLeft."), "\(error)")
        #expect(error.description.contains("Resolution path: CycleEntrance -> CycleLeft -> CycleRight -> CycleLeft"))
        #expect(made.current == 1, "found on the first repetition, not after overflowing")

        // Reported again the same way: nothing stayed marked as being made.
        let again = try #require(resolutionError { _ = try box.tryResolve(CycleRight.self) })
        #expect(again.reason == .dependencyCycle(cycle: ["CycleRight", "CycleLeft", "CycleRight"]))
    }
}
