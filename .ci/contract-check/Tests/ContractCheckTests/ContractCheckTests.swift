import DependencyInjection
import DependencyInjectionTesting
import Testing

protocol Payments {}
struct MockPayments: Payments {}
struct LivePayments: Payments {}

@MainActor final class ProfileModel { init() {} }

@MainActor func show() {
    let model = DIContainer.resolve(ProfileModel.self)  // fine on the main actor
    _ = model
}

@Suite(.dependencies)  // every test gets a fresh isolated container
struct CheckoutTests {
    @Test(.dependencies { New(MockPayments() as Payments) })
    func paysWithMock() {
        #expect(DIContainer.resolve(Payments.self) is MockPayments)
    }

    @MainActor @Test func mainActorFactory() {
        DIContainer.register {
            Shared { @MainActor in ProfileModel() }  // a main-actor factory
        }
        show()
    }

    @Test func asyncOverrides() async throws {
        let ok = try await DIContainer.withOverrides {
            New(LivePayments() as Payments)
        } operation: { () async throws -> Bool in
            DIContainer.resolve(Payments.self) is LivePayments
        }
        #expect(ok)
    }
}

/// A container of the test's own (the Testing article).
let box: DIContainer = {
    let box = DIContainer()
    box.register { Shared(LivePayments() as Payments) }
    return box
}()

@Suite struct ContainerOfYourOwnTests {
    // Tests with a container of your own
    @Test(.dependencies(on: box) { New(MockPayments() as Payments) })
    func paysWithMock() {
        #expect(DIContainer.resolve(Payments.self) is MockPayments)
        #expect(box.resolve(Payments.self) is LivePayments)
    }

    @Test(.dependencies(on: box))
    func seesACopyOfBox() {
        #expect(DIContainer.resolve(Payments.self) is LivePayments)
        #expect(DIContainer.current !== box)
    }

    @Test(.dependencies(on: box) { New(MockPayments() as Payments) })
    func overridesAreNonisolatedHere() async {
        // In a module without default isolation, the trait's registrations resolve on any thread.
        let current = DIContainer.current
        let offMain = await Task.detached { (try? current.tryResolve(Payments.self)) is MockPayments }.value
        #expect(offMain)
    }
}

// The API contract's test lines for isolation, validate(), scopes, resolveAll, decorators and
// factory closures, verbatim.

protocol Store {}
struct MemoryStore: Store {}
struct Engine {}

/// 5b: one test guards the whole graph.
@Suite(.dependencies)
struct WholeGraphTests {
    @Test(.dependencies { Shared(LivePayments() as Payments) })
    func theGraphIsValid() {
        let report = DIContainer.validate()
        #expect(report.isValid, "\(report)")  // one test guards the whole graph
    }

    /// The guard can fail: a graph with a problem (the same type twice in one register call) is invalid.
    @Test func theGuardFailsForAGraphWithAProblem() {
        DIContainer.register {
            Shared(MemoryStore() as Store)
            Shared(MemoryStore() as Store)
        }
        let report = DIContainer.validate()
        withKnownIssue {
            #expect(report.isValid, "\(report)")  // one test guards the whole graph
        }
        #expect(report.problems.count == 1, "\(report)")
    }
}

// 5g. Strict tests: resolving a production registration the test did not override records a test
// failure that names it (the test goes on with the production service).
@Suite struct StrictTests {
    @Test(.dependencies(.strict) { New(MockPayments() as Payments) })
    func paysWithMock() {
        #expect(DIContainer.resolve(Payments.self) is MockPayments)
    }

    @Test(.dependencies(.strict, on: box) { New(MockPayments() as Payments) })  // a container of your own
    func paysWithMockToo() {
        #expect(DIContainer.resolve(Payments.self) is MockPayments)
    }

    /// Resolving a production registration the test did not override records an issue naming it;
    /// the test goes on with the production service.
    @Test(.dependencies(.strict, on: box))
    func resolvingProductionRecordsAnIssue() {
        withKnownIssue {
            let payments = DIContainer.resolve(Payments.self)
            #expect(payments is LivePayments)  // the production service
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("'Payments'") }
        }
    }
}

/// 5g on the current container: the registrations it had before the test are production (here a
/// suite binds a copy of `box`; a suite's own `.dependencies { … }` overrides are not production, 6e).
@Suite(.dependencies(on: box))
struct StrictOnTheCurrentContainerTests {
    @Test(.dependencies(.strict) { New(MockPayments() as Payments) })
    func paysWithMock() {
        #expect(DIContainer.resolve(Payments.self) is MockPayments)
    }

    @Test(.dependencies(.strict))
    func resolvingProductionRecordsAnIssue() {
        withKnownIssue {
            #expect(DIContainer.resolve(Payments.self) is LivePayments)  // the production service
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("'Payments'") }
        }
    }

    /// Without strict mode, nothing is recorded (so the issue above comes from strict mode).
    @Test func resolvingProductionIsFineWhenNotStrict() {
        #expect(DIContainer.resolve(Payments.self) is LivePayments)
    }
}

// 6e. Strict tests that say only what matters: production services a test may use (by type, every
// name and alias of it); a suite's overrides are never production.
private protocol Logger {}
private protocol Clock {}

@Suite struct StrictAllowingTests {
    @Test(.dependencies(.strict(allowing: Logger.self, Clock.self)) { New(MockPayments() as Payments) })
    func paysWithMock() {
        #expect(DIContainer.resolve(Payments.self) is MockPayments)
    }

    // Relies on the strict trait recording nothing: production Payments is allowed.
    @Test(.dependencies(.strict(allowing: Payments.self), on: box))
    func resolvesAnAllowedProductionService() {
        #expect(DIContainer.resolve(Payments.self) is LivePayments)
    }
}

@Suite(.dependencies(on: box) { New(MockPayments() as Payments) })
struct StrictInASuiteWithMocksTests {
    // Relies on the strict trait recording nothing: the suite's mock is not production.
    @Test(.dependencies(.strict))
    func theSuitesMockIsNotProduction() {
        #expect(DIContainer.resolve(Payments.self) is MockPayments)
    }
}
