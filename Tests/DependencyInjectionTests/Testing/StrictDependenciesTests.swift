@_spi(Testing) import DependencyInjection
import DependencyInjectionTesting
import Foundation
import Testing
import XCTest

// Strict tests: resolving a production registration the test did not override is reported.

/// Production registrations of a container of our own: Checkout needs Payments.
private let production: DIContainer = {
    let box = DIContainer()
    box.register {
        Shared(LivePayments() as Payments)
        Shared { resolve in Checkout(payments: resolve()) }
        Shared(Engine.init)
    }
    return box
}()

/// The strict-mode reports of one container, as the core hands them to the testing product.
private final class Reports: @unchecked Sendable {
    // Unchecked: `items` is read and written only with `lock` held.
    private let lock = NSLock()
    private var items: [String] = []
    func append(_ resolve: StrictResolve) {
        lock.withLock { items.append("\(resolve.typeName): \(resolve.path.joined(separator: " -> "))") }
    }
    var all: [String] { lock.withLock { items } }
}

private final class AsyncConfig: Sendable {}
private final class AsyncToken: Sendable {}

@Suite(.timeLimit(.minutes(1))) struct StrictDependenciesTests {
    /// A production async service that `resolveAsync` makes is reported, as one it finds made is
    /// (Testing: "the test's line for one that names no place, such as `resolveAsync`").
    @Test func anAsyncServiceThatResolveAsyncMakesIsReported() async throws {
        let box = DIContainer()
        box.register {
            Shared { _ async in AsyncConfig() }
            New { _ async in AsyncToken() }
        }
        let reports = Reports()
        try await box.withOverrides {
        } operation: { () async throws -> Void in
            DIContainer.current.reportResolvesOfCurrentRegistrations(reports.append)
            _ = try await DIContainer.resolveAsync(AsyncConfig.self)
            _ = try await DIContainer.resolveAsync(AsyncToken.self)
            _ = try await DIContainer.resolveAsync(AsyncConfig.self)
        }
        #expect(reports.all == ["AsyncConfig: AsyncConfig", "AsyncToken: AsyncToken", "AsyncConfig: AsyncConfig"])
    }

    /// What an override's async factory resolves of production is reported with its path, awaited
    /// or not, as what a synchronous factory resolves is.
    @Test func aProductionServiceAnAsyncFactoryResolvesHasItsPath() async throws {
        let box = DIContainer()
        box.register {
            Shared { _ async in AsyncConfig() }
            Shared(LivePayments() as Payments)
        }
        let reports = Reports()
        try await box.withOverrides {
            New { _ async throws in
                _ = try await DIContainer.resolveAsync(AsyncConfig.self)
                _ = try DIContainer.current.tryResolve(Payments.self)
                return AsyncToken()
            }
        } operation: { () async throws -> Void in
            DIContainer.current.reportResolvesOfCurrentRegistrations(reports.append)
            _ = try await DIContainer.resolveAsync(AsyncToken.self)
        }
        #expect(
            reports.all == [
                "AsyncToken: AsyncToken", "AsyncConfig: AsyncToken -> AsyncConfig", "Payments: AsyncToken -> Payments",
            ])
    }
    @Test(.dependencies(.strict, on: production) { New(MockPayments() as Payments) })
    func anOverriddenServiceIsNotReported() {
        #expect(DIContainer.resolve(Payments.self).provider == "mock")
    }

    @Test(.dependencies(.strict, on: production))
    func resolvingAProductionRegistrationRecordsAnIssueNamingItAndItsPathAndTheTestGoesOn() {
        withKnownIssue {
            _ = DIContainer.resolve(Checkout.self)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("'Payments' was resolved from its production registration") }
                && issue.comments.contains { $0.rawValue.contains("Resolution path: Checkout -> Payments") }
                || issue.comments.contains { $0.rawValue.hasPrefix("Strict dependencies: 'Checkout'") }
        }
        // The test goes on with the production service, and each registration is reported once.
        #expect(DIContainer.resolve(Checkout.self).payments.provider == "live")
    }

    /// Relies on the strict trait recording nothing: a recorded issue fails this test.
    @Test(.dependencies(.strict, on: production) { Shared(Engine.init) })
    func aServiceTheTestRegistersAgainIsAllowed() {
        _ = DIContainer.resolve(Engine.self)
        DIContainer.register(Shared(Session.init))
        _ = DIContainer.resolve(Session.self)
    }

    @Test(.dependencies(.strict) { New(MockGreeting() as Greeting) })
    func theStrictTraitOnTheCurrentContainerSeesTheOverride() {
        #expect(DIContainer.resolve(Greeting.self).text == "mock")
    }

    @Test(.dependencies(.strict))
    func theStrictTraitOnTheCurrentContainerReportsProduction() {
        withKnownIssue {
            #expect(DIContainer.resolve(Greeting.self).text == "production")
        }
    }

    @Test func theCoreReportsEveryResolveOfARegistrationMadeBeforeStrictModeAndItsCopiesDoToo() {
        let box = DIContainer()
        box.register {
            Shared(LivePayments() as Payments)
            Shared { resolve in Checkout(payments: resolve()) }
        }
        let reports = Reports()
        box.withOverrides {
        } operation: {
            DIContainer.current.reportResolvesOfCurrentRegistrations(reports.append)
            DIContainer.register(New(MockPayments() as Payments))
            _ = DIContainer.resolve(Checkout.self)
            _ = DIContainer.resolveAll(Payments.self)
            DIContainer.withOverrides {
                Shared(Engine.init)
            } operation: {
                _ = DIContainer.resolve(Engine.self)
                _ = DIContainer.resolve(Checkout.self)
            }
        }
        #expect(reports.all == ["Checkout: Checkout", "Checkout: Checkout"])
        _ = box.resolve(Checkout.self)
        #expect(reports.all.count == 2)
    }

    @Test func aParentsRegistrationsAreProductionToo() {
        let parent = DIContainer()
        parent.register(Shared(LivePayments() as Payments))
        let child = DIContainer(parent: parent)
        child.register { Shared { resolve in Checkout(payments: resolve()) } }
        let reports = Reports()
        child.reportResolvesOfCurrentRegistrations(reports.append)
        _ = child.resolve(Checkout.self)
        #expect(reports.all == ["Checkout: Checkout", "Payments: Checkout -> Payments"])
    }
}

/// Production with a named registration, for the fix hint.
private let namedProduction: DIContainer = {
    let box = DIContainer()
    box.register { Shared(LivePayments() as Payments).named("paypal") }
    return box
}()

/// Production of a protocol composition, for the fix hint's spelling of a type of more than one word.
private protocol PageReader: Sendable {}
private protocol PageWriter: Sendable {}
private final class Pages: PageReader, PageWriter {}
private let compositionProduction: DIContainer = {
    let box = DIContainer()
    box.register { Shared(Pages() as any PageReader & PageWriter) }
    return box
}()

@Suite(.timeLimit(.minutes(1))) struct StrictFixHintTests {
    @Test(.dependencies(.strict, on: namedProduction))
    func theFixHintIsSwiftAndNamesTheWayToAllowAHarmlessService() {
        withKnownIssue {
            _ = DIContainer.resolve(Payments.self, name: "paypal")
        } matching: { issue in
            issue.comments.contains {
                $0.rawValue.contains("New(<#mock#> as Payments).named(\"paypal\")")
                    && $0.rawValue.contains(".strict(allowing: Payments.self)")
            }
        }
    }

    @Test(.dependencies(.strict, on: compositionProduction))
    func theFixHintOfACompositionCompiles() {
        withKnownIssue {
            _ = DIContainer.resolve((any PageReader & PageWriter).self)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains(".strict(allowing: (PageReader & PageWriter).self)") }
        }
    }

    // The hint as written: it compiles, and allows the service (the trait records nothing).
    @Test(.dependencies(.strict(allowing: (PageReader & PageWriter).self), on: compositionProduction))
    func theFixHintOfACompositionAllowsIt() {
        _ = DIContainer.resolve((any PageReader & PageWriter).self)
    }
}

/// A strict test that resets its container: what `registerDependencies()` registers again is
/// production too.
@Suite(.timeLimit(.minutes(1))) struct StrictTestsThatResetTests {
    @Test(.dependencies(.strict))
    func productionRegisteredAgainAfterAResetIsStillReported() {
        DIContainer.reset()
        withKnownIssue { _ = DIContainer.resolve(Greeting.self) }
    }
}

/// In a strict suite, a test on a container of its own (`on:`) is strict too.
@Suite(.dependencies(.strict), .timeLimit(.minutes(1)))
struct StrictSuiteTests {
    @Test(.dependencies(on: production))
    func aTestOnAContainerOfItsOwnIsStrict() {
        withKnownIssue { _ = DIContainer.resolve(Payments.self) }
    }
}

/// A suite's overrides are the suite's, never production, in a strict test of that suite.
@Suite(.dependencies { New(MockPayments() as Payments) }, .timeLimit(.minutes(1)))
struct StrictTestsInASuiteWithOverridesTests {
    // Relies on the strict trait recording nothing: the suite's mock is not production.
    @Test(.dependencies(.strict))
    func aSuitesOverridesAreNotReported() {
        #expect(DIContainer.resolve(Payments.self).provider == "mock")
    }

    @Test(.dependencies(.strict))
    func productionIsStillReported() {
        withKnownIssue {
            #expect(DIContainer.resolve(Greeting.self).text == "production")
        }
    }
}

/// The XCTest counterpart: `DIContainer.withStrictDependencies`.
final class StrictDependenciesXCTests: XCTestCase {
    func testOverriddenServicesAreNotReported() {
        production.activate {
            DIContainer.withStrictDependencies {
                New(MockPayments() as Payments)
                Shared(Engine.init)
            } operation: {
                XCTAssertEqual(DIContainer.resolve(Payments.self).provider, "mock")
                _ = DIContainer.resolve(Engine.self)
            }
        }
    }

    func testAsyncOperationsWork() async throws {
        let provider = try await production.activate {
            try await DIContainer.withStrictDependencies {
                New(MockPayments() as Payments)
            } operation: { () async throws -> String in
                try DIContainer.tryResolve(Payments.self).provider
            }
        }
        XCTAssertEqual(provider, "mock")
    }
}
