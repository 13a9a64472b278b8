import DependencyInjection
import Testing

// Factories that need each other: reported with their path, never a stack overflow.

private final class A { init(b: B) {} }
private final class B {
    init(c: C) {}
    init(a: A) {}
    init() {}
}
private final class C { init(a: A) {} }
private protocol Greeter: AnyObject {}
private final class GreeterImpl: Greeter { init(greeter: Greeter) {} }
private final class Ledger { init(audit: Audit) {} }
private final class Audit { init(ledger: Ledger) {} }
private final class Archive { init(ledger: Ledger) {} }
private final class Left { @Inject var right: Right }
private final class Right { @Inject var left: Left }
private final class AsyncLeft: @unchecked Sendable {  // (made once, read by nobody else)
    @Inject var right: AsyncRight
}
private final class AsyncRight: @unchecked Sendable {
    @Inject var left: AsyncLeft
}
private final class Dashboard { @Inject var motor: Motor }
private final class Kettle { @Inject var stove: Stove }
private final class Stove { init(kettle: Kettle) {} }
private final class Motor { init(gearbox: Gearbox) {} }
private final class Gearbox { init(motor: Motor) {} }

/// How the factories of a cycle get each other.
enum CycleFactoryKind: String, CaseIterable, Sendable {
    /// `try resolve.tryResolve()`: the cycle is thrown up to the caller.
    case throwing
    /// `resolve()`: a real resolution would trap; `validate()` reports it without crashing.
    case plain
}

@Suite(.timeLimit(.minutes(1))) struct CycleTests {
    @Test func twoNewFactoriesThatNeedEachOtherAreACycleForTryResolve() throws {
        let box = DIContainer()
        box.register {
            New { resolve in try A(b: resolve.tryResolve()) }
            New { resolve in try B(a: resolve.tryResolve()) }
        }
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(A.self) }
        #expect(error.reason == .dependencyCycle(cycle: ["A", "B", "A"]))
        #expect(error.path == ["A", "B", "A"])
        #expect(error.description.hasPrefix("Dependency cycle: A -> B -> A.\nResolution path: A -> B -> A\n"))
        let fromB = try #require(throws: ResolutionError.self) { try box.tryResolve(B.self) }
        #expect(fromB.reason == .dependencyCycle(cycle: ["B", "A", "B"]))
    }

    @Test(arguments: CycleFactoryKind.allCases)
    func twoNewFactoriesThatNeedEachOtherAreReportedByValidate(kind: CycleFactoryKind) throws {
        let box = DIContainer()
        switch kind {
        case .throwing:
            box.register {
                New { resolve in try A(b: resolve.tryResolve()) }
                New { resolve in try B(a: resolve.tryResolve()) }
            }
        case .plain:
            box.register {
                New { resolve in A(b: resolve()) }
                New { resolve in B(a: resolve()) }
            }
        }
        let report = box.validate()
        #expect(!report.isValid)
        #expect(report.validCount == 0)
        #expect(report.problems.map(\.registration) == ["A", "B"])
        // B's check finds A failed already (each factory runs once per validate()): the same cycle.
        #expect(
            report.problems.map(\.error.reason) == [
                .dependencyCycle(cycle: ["A", "B", "A"]), .dependencyCycle(cycle: ["A", "B", "A"]),
            ])
        #expect(report.problems.last?.error.path.first == "B")
        #expect(String(describing: report).contains("✗ A\n    Dependency cycle: A -> B -> A."))
    }

    @Test func aLongerCycleListsEveryStep() throws {
        let box = DIContainer()
        box.register {
            New { resolve in try A(b: resolve.tryResolve()) }
            New { resolve in try B(c: resolve.tryResolve()) }
            New { resolve in try C(a: resolve.tryResolve()) }
        }
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(B.self) }
        #expect(error.reason == .dependencyCycle(cycle: ["B", "C", "A", "B"]))
        #expect(error.path == ["B", "C", "A", "B"])
    }

    @Test func aFactoryThatNeedsItselfThroughAnAliasIsACycle() throws {
        let box = DIContainer()
        box.register { Shared({ resolve in try GreeterImpl(greeter: resolve.tryResolve()) }, as: Greeter.self) }
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(Greeter.self) }
        #expect(error.reason == .dependencyCycle(cycle: ["Greeter", "Greeter"]))
    }

    @Test func aCycleEnteredFromOutsideShowsTheCycleAndThePathToIt() throws {
        let box = DIContainer()
        box.register {
            Shared { resolve in try Ledger(audit: resolve.tryResolve()) }
            Shared { resolve in try Audit(ledger: resolve.tryResolve()) }
            New { resolve in try Archive(ledger: resolve.tryResolve()) }
        }
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(Archive.self) }
        #expect(error.reason == .dependencyCycle(cycle: ["Ledger", "Audit", "Ledger"]))
        #expect(error.path == ["Archive", "Ledger", "Audit", "Ledger"])
        #expect(error.description.contains("Resolution path: Archive -> Ledger -> Audit -> Ledger"))
    }

    @Test func aCycleLeavesNoFactoryMarkedAsRunning() throws {
        let box = DIContainer()
        box.register {
            Shared { resolve in try A(b: resolve.tryResolve()) }
            Shared { resolve in B(c: C(a: try resolve.tryResolve())) }
        }
        #expect(throws: ResolutionError.self) { try box.tryResolve(A.self) }
        // Break the cycle: B no longer needs A. A must resolve now, not report a stale cycle.
        box.register { Shared { _ in B() } }
        #expect(throws: Never.self) { try box.tryResolve(A.self) }
    }

    @Test func postCreationInjectionIsNoCycle() throws {
        let box = DIContainer()
        box.register {
            Shared(Parent.init).onResolve { parent, resolve in parent.child = resolve() }
            Shared { resolve in Child(parent: resolve()) }
        }
        let parent = try box.tryResolve(Parent.self)
        #expect(parent.child?.parent === parent)
        #expect(try box.tryResolve(Child.self) === parent.child)
    }

    @Test func postCreationInjectionWorksWhicheverSideIsResolvedFirst() throws {
        let box = DIContainer()
        box.register {
            Shared(Parent.init).onResolve { parent, resolve in parent.child = try resolve.tryResolve() }
            Shared { resolve in try Child(parent: resolve.tryResolve()) }
        }
        // onResolve runs once the whole top-level resolution is made, so Child is kept by then.
        let child = try box.tryResolve(Child.self)
        #expect(child.parent.child === child)
    }

    @Test func onResolveRunsWhenAFactoryOnTheFastPathMakesTheService() throws {
        final class Holder {
            let parent: Parent
            init(parent: Parent) { self.parent = parent }
        }
        let box = DIContainer()
        box.register {
            Shared(Parent.init).onResolve { parent, resolve in parent.child = resolve() }
            Shared { resolve in Child(parent: resolve()) }
            New { resolve in Holder(parent: resolve()) }  // a New resolved without a name: the fast path
        }
        let holder = try box.tryResolve(Holder.self)
        #expect(holder.parent.child?.parent === holder.parent)
    }

    @Test func onResolveThatNeedsANewInstanceOfItselfIsACycle() {
        let box = DIContainer()
        box.register {
            New(Parent.init).onResolve { parent, resolve in parent.child = try resolve.tryResolve() }
            New { resolve in try Child(parent: resolve.tryResolve()) }
        }
        #expect {
            try box.tryResolve(Parent.self)
        } throws: { error in
            (error as? ResolutionError)?.reason == .dependencyCycle(cycle: ["Parent", "Child", "Parent"])
        }
    }

    @Test func resolvingTheSameTypeTwiceInOneFactoryIsNoCycle() throws {
        let box = DIContainer()
        box.register {
            New(Engine.init)
            New { resolve in Pair(resolve(Engine.self), resolve(Engine.self)) }
        }
        let pair = try box.tryResolve(Pair<Engine, Engine>.self)
        #expect(pair.first !== pair.second)
    }

    // Each side of a cycle is reported with the path a resolve of it takes, which stops at the
    // first repeat (not one that goes around twice).
    @Test func eachSideOfACycleHasThePathAResolveOfItTakes() {
        let box = DIContainer()
        box.register {
            New(Left.init)
            New(Right.init)
        }
        let report = box.validate()
        #expect(
            report.problems.map(\.error.path) == [["Left", "Right", "Left"], ["Right", "Left", "Right"]], "\(report)")
    }

    // Through a property wrapper, the report's fix is a lazy one: an onResolve action cannot set an `@Inject`.
    @Test func aCycleThroughAPropertyWrapperSaysToMakeItLazy() throws {
        let box = DIContainer()
        box.register {
            New(Left.init)
            New(Right.init)
        }
        let report = box.validate()
        let problem = try #require(report.problems.first, "\(report)")
        #expect(
            problem.description.contains("To fix, break the cycle: declare one side's property @LazyInject"),
            "\(report)")
    }

    // The same through an async factory's object: each side's path starts with itself.
    @Test func eachSideOfACycleThroughAnAsyncFactorysObjectHasThePathAResolveOfItTakes() async {
        let box = DIContainer()
        box.register {
            Shared { _ async in AsyncLeft() }
            New(AsyncRight.init)
        }
        let report = await box.validate()
        #expect(
            report.problems.map(\.error.path) == [
                ["AsyncLeft", "AsyncRight", "AsyncLeft"], ["AsyncRight", "AsyncLeft", "AsyncRight"],
            ], "\(report)")
    }

    // A wrapper that reaches a cycle of initializers is not on it: the lazy hint is not the fix.
    @Test func aCycleAWrapperOnlyReachesKeepsTheUsualHint() throws {
        let box = DIContainer()
        box.register {
            New(Dashboard.init)
            Shared(Motor.init)
            Shared(Gearbox.init)
        }
        let report = box.validate()
        let problem = try #require(report.problems.first { $0.registration == "Dashboard" }, "\(report)")
        #expect(!problem.description.contains("@LazyInject"), "\(problem)")
        #expect(problem.description.contains("onResolve"), "\(problem)")
    }

    // A cycle of a wrapper and an initializer's parameter: the wrapper's owner is on it, so making
    // the wrapper lazy breaks it, whichever side is reported.
    @Test func aCycleOfAWrapperAndAnInitializerSaysToMakeTheWrapperLazy() throws {
        let box = DIContainer()
        box.register {
            Shared { Kettle() }
            Shared(Stove.init)
        }
        let report = box.validate()
        #expect(report.problems.count == 2, "\(report)")
        for problem in report.problems { #expect(problem.description.contains("@LazyInject"), "\(problem)") }
    }
}
