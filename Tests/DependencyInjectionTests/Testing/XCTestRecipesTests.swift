import DependencyInjection
import XCTest

// XCTest recipes. XCTest runs the methods of a test class one at a time, and
// `swift test --parallel` runs each XCTest test in a process of its own, so in an app's XCTest
// target resetting `DIContainer.shared` between tests is safe. Swift Testing, however, runs
// tests in parallel inside one process: this package's own Swift Testing tests resolve from
// `shared` while these run, so the recipes below never touch `shared` itself.

/// Recipe 1: start every test from a clean container with `DIContainer.reset()` in `setUp`.
///
/// In an app's XCTest target the recipe is just:
///
///     override func setUp() {
///         super.setUp()
///         DIContainer.reset()   // forgets every registration and instance of `shared`;
///                               // registerDependencies() runs again before the next use
///     }
///
/// and a test then registers its mocks: `DIContainer.register(New(MockPayments() as Payments))`.
/// Here the class activates a container of its own around each test (`invokeTest`), so the
/// very same static calls (`reset`, `register`, `resolve`) act on it instead of on `shared`.
final class ResetInSetUpRecipeTests: XCTestCase {
    /// One container for every test of the class, as `shared` is for an app's tests.
    private static let container = DIContainer()

    override func invokeTest() {
        Self.container.activate { super.invokeTest() }
    }

    override func setUp() {
        super.setUp()
        DIContainer.reset()
        DIContainer.register {
            Shared(LivePayments() as Payments)
            Shared { resolve in Checkout(payments: resolve()) }
        }
    }

    /// What earlier tests of this class made: strong references, so no identity is ever reused.
    nonisolated(unsafe) private static var madeByEarlierTests: [Payments] = []

    /// Not part of the recipe: every test leaves a registration and a Shared instance behind, so
    /// the tests below check `reset()` in `setUp` against what the test before them left.
    override func tearDown() {
        DIContainer.register(Shared(Engine.init))
        Self.madeByEarlierTests.append(DIContainer.resolve(Payments.self))
        super.tearDown()
    }

    func testEachTestStartsWithoutWhatAnotherRegistered() {
        XCTAssertTrue(DIContainer.current === Self.container)
        XCTAssertNil(DIContainer.resolve(Engine?.self), "an Engine registered by an earlier test survived setUp")
    }

    func testEachTestStartsWithoutWhatAnotherMade() {
        let payments = DIContainer.resolve(Payments.self)
        XCTAssertTrue(payments is LivePayments)
        XCTAssertFalse(
            Self.madeByEarlierTests.contains { $0 === payments },
            "a Shared instance an earlier test made survived setUp")
    }

    func testAMockRegisteredByTheTestReplacesProduction() {
        DIContainer.register(New(MockPayments() as Payments))
        XCTAssertTrue(DIContainer.resolve(Checkout.self).payments is MockPayments)
    }

    func testAsyncTestsSeeTheActivatedContainer() async {
        await Task.yield()
        XCTAssertTrue(DIContainer.current === Self.container)
        XCTAssertTrue(DIContainer.resolve(Payments.self) is LivePayments)
    }
}

/// Recipe 2: wrap a test body in `withOverrides`; `shared` is never modified.
final class WithOverridesRecipeTests: XCTestCase {
    func testSyncBodyRunsWithTheOverrides() {
        let provider = DIContainer.withOverrides {
            New(MockPayments() as Payments)
            Shared { resolve in Checkout(payments: resolve()) }
        } operation: {
            XCTAssertTrue(DIContainer.resolve(Greeting.self) is ProductionGreeting, "production is still there")
            return DIContainer.resolve(Checkout.self).payments.provider
        }
        XCTAssertEqual(provider, "mock")
        XCTAssertNil(DIContainer.resolve(Payments?.self), "the overrides end with the body")
    }

    func testAsyncBodyRunsWithTheOverrides() async throws {
        try await DIContainer.withOverrides {
            Shared(MockGreeting() as Greeting)
        } operation: {
            try await Task.sleep(nanoseconds: 1_000)
            XCTAssertTrue(DIContainer.resolve(Greeting.self) is MockGreeting)
        }
        XCTAssertTrue(DIContainer.resolve(Greeting.self) is ProductionGreeting)
    }
}

/// Recipe 3: the XCTest counterpart of the `.dependencies` trait, an isolated copy per test.
///
///     override func invokeTest() {
///         DIContainer.withOverrides { } operation: { super.invokeTest() }
///     }
///
/// Everything a test (or its `setUp`) registers stays in its copy of `shared`.
final class IsolatedCopyPerTestRecipeTests: XCTestCase {
    override func invokeTest() {
        DIContainer.withOverrides {
        } operation: {
            super.invokeTest()
        }
    }

    override func setUp() {
        super.setUp()
        DIContainer.register(Shared(MockGreeting() as Greeting))
    }

    func testSetUpRegistersIntoTheCopy() {
        XCTAssertFalse(DIContainer.current === DIContainer.shared)
        XCTAssertTrue(DIContainer.resolve(Greeting.self) is MockGreeting)
        XCTAssertTrue(DIContainer.shared.resolve(Greeting.self) is ProductionGreeting)
    }

    func testAsyncTestsSeeTheCopy() async {
        await Task.yield()
        XCTAssertTrue(DIContainer.resolve(Greeting.self) is MockGreeting)
    }
}
