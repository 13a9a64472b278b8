import DependencyInjectionTesting
import Testing

// This file imports only Testing and DependencyInjectionTesting, as an app's test would:
// DependencyInjectionTesting re-exports DependencyInjection.

// The Testing article's first example ("A fresh container per test"), verbatim apart from the test
// bodies and the time limit every suite of this package has.
@Suite(.dependencies, .timeLimit(.minutes(1)))  // every test gets a fresh isolated container
struct CheckoutTests {
    @Test(.dependencies { New(MockPayments() as Payments) })
    func paysWithMock() {
        #expect(DIContainer.resolve(Payments.self) is MockPayments)
        #expect(DIContainer.resolve(Payments.self) !== DIContainer.resolve(Payments.self), "New stays New")
    }

    @Test func seesProductionRegistrationsInAFreshContainer() {
        #expect(DIContainer.current !== DIContainer.shared)
        let greeting = DIContainer.resolve(Greeting.self)
        #expect(greeting is ProductionGreeting)
        #expect(greeting !== DIContainer.shared.resolve(Greeting.self), "instances are not shared with `shared`")
    }

    @Test func registrationsOfOneTestDoNotLeakIntoAnother() {
        // Both tests of this pair register a Payments; each must start without one.
        #expect(DIContainer.resolve(Payments?.self) == nil)
        DIContainer.register(Shared(LivePayments() as Payments))
        #expect(DIContainer.resolve(Payments.self) is LivePayments)
    }

    @Test func registrationsOfAnotherTestDoNotLeakIntoThisOne() {
        #expect(DIContainer.resolve(Payments?.self) == nil)
        DIContainer.register(Shared(MockPayments() as Payments))
        #expect(DIContainer.resolve(Payments.self) is MockPayments)
    }
}

@Suite(.timeLimit(.minutes(1))) struct TestTraitTests {
    @Test(.dependencies { Shared(MockPayments() as Payments) })
    func asyncTestSeesItsOverridesAcrossSuspensions() async {
        let first = DIContainer.resolve(Payments.self)
        #expect(first is MockPayments)
        await Task.yield()
        let firstID = ObjectIdentifier(first)
        let inChildTask = await Task { ObjectIdentifier(DIContainer.resolve(Payments.self)) }.value
        #expect(inChildTask == firstID)
        #expect(DIContainer.resolve(Payments.self) === first)
    }

    @Test(
        .dependencies {
            New(MockPayments() as Payments)
            Shared { resolve in Checkout(payments: resolve()) }
        })
    func overridesReachNestedDependencies() {
        #expect(DIContainer.resolve(Checkout.self).payments is MockPayments)
    }

    @Test(.dependencies { Shared(Witness.init) }, arguments: 0..<8)
    func eachParameterizedCaseGetsItsOwnContainer(index: Int) {
        // Had the cases shared one container, all but the first would find another case's Engine.
        #expect(DIContainer.resolve(Engine?.self) == nil)
        DIContainer.register(Shared(Engine.init))
        let witness = DIContainer.resolve(Witness.self)
        #expect(witness.maker == ObjectIdentifier(DIContainer.current))
    }

    @Test func aFailingOverrideIsAThrownErrorNotACrash() async throws {
        let trait: DependenciesTrait = .dependencies { Shared(Engine(), as: Router.self) }
        let test = try #require(Test.current)
        await #expect(throws: ResolutionError.self) {
            try await trait.provideScope(for: test, testCase: Test.Case.current) {
                Issue.record("the test body must not run when its overrides cannot be registered")
            }
        }
    }

    @Test func theTraitScopesTestCasesButNotSuites() throws {
        let test = try #require(Test.current)
        let trait: DependenciesTrait = .dependencies
        #expect(trait.isRecursive)
        #expect(trait.scopeProvider(for: test, testCase: nil) == nil)
        #expect(trait.scopeProvider(for: test, testCase: Test.Case.current) != nil)
    }
}

/// A suite's overrides apply to each of its tests; a test's own overrides are registered on top.
@Suite(
    .dependencies {
        Shared(LivePayments() as Payments)
        Shared(Engine.init)
    }, .timeLimit(.minutes(1)))
struct SuiteAndTestTraitTests {
    @Test func aTestWithoutItsOwnTraitGetsTheSuitesOverrides() {
        #expect(DIContainer.resolve(Payments.self) is LivePayments)
        #expect(DIContainer.resolve(Engine?.self) != nil)
    }

    @Test(.dependencies { New(MockPayments() as Payments) })
    func theTestsOverridesWinAndTheSuitesStillApply() {
        #expect(DIContainer.resolve(Payments.self) is MockPayments)
        #expect(DIContainer.resolve(Engine?.self) != nil)
        #expect(DIContainer.resolve(Greeting.self) is ProductionGreeting)
    }

    @Suite struct Nested {
        @Test(.dependencies { Shared(MockRouter() as Router) })
        func nestedSuitesInheritTheTrait() {
            #expect(DIContainer.resolve(Payments.self) is LivePayments)
            #expect(DIContainer.resolve(Router.self) is MockRouter)
        }
    }
}

/// The suite's instance is made inside the test's scope, so its property wrappers resolve there.
@Suite(.dependencies { New(MockPayments() as Payments) }, .timeLimit(.minutes(1)))
struct SuiteInstanceTests {
    @Inject var payments: Payments
    @LazyInject var checkout: Checkout

    init() {
        DIContainer.register { Shared { resolve in Checkout(payments: resolve()) } }
    }

    @Test func suitePropertiesResolveFromTheTestsContainer() {
        #expect(payments is MockPayments)
        #expect(checkout.payments is MockPayments)
    }
}

/// A container of one's own, copied for each test case by `.dependencies(on:)`.
let traitBox: DIContainer = {
    let box = DIContainer()
    box.register { Shared(LivePayments() as Payments) }
    return box
}()

@Suite(.timeLimit(.minutes(1)))
struct ContainerOfYourOwnTraitTests {
    @Test(.dependencies(on: traitBox))
    func eachCaseGetsACopyOfTheContainer() throws {
        #expect(DIContainer.current !== traitBox)
        #expect(try DIContainer.tryResolve(Payments.self) is LivePayments)
        // The copy has its own instances and keeps what the test registers to itself.
        #expect(try DIContainer.tryResolve(Payments.self) !== (try traitBox.tryResolve(Payments.self)))
        DIContainer.register(Shared(Engine.init))
        #expect((try? traitBox.tryResolve(Engine.self)) == nil)
    }

    @Test(.dependencies(on: traitBox) { Shared(MockPayments() as Payments) })
    func overridesApplyToTheCopyOnly() throws {
        #expect(try DIContainer.tryResolve(Payments.self) is MockPayments)
        #expect(try traitBox.tryResolve(Payments.self) is LivePayments)
    }
}

/// A suite's overrides apply to a test that copies a container of its own (the Testing article:
/// the suite's scope encloses the test's); the test's own overrides win.
@Suite(.timeLimit(.minutes(1)), .dependencies { Shared(Engine.init) })
struct SuiteOverridesWithAContainerOfYourOwnTests {
    @Test(.dependencies(on: traitBox))
    func suiteOverridesApplyToTheCopyOfTheTestsContainer() throws {
        _ = try DIContainer.tryResolve(Engine.self)
        #expect(try DIContainer.tryResolve(Payments.self) is LivePayments)
        #expect((try? traitBox.tryResolve(Engine.self)) == nil)
    }

    @Test(.dependencies(on: traitBox) { Shared(MockPayments() as Payments) })
    func theTestsOverridesWin() throws {
        _ = try DIContainer.tryResolve(Engine.self)
        #expect(try DIContainer.tryResolve(Payments.self) is MockPayments)
    }
}
