import App
import DependencyInjectionTesting
import Testing

// The Testing article's example verbatim, in a package of its own, beside parallel cases that override the same
// dependency and a test without the trait that must keep seeing production.

final class MockPayments: Payments { let provider = "mock" }
final class CasePayments: Payments {
    let provider: String
    init(_ index: Int) { provider = "case \(index)" }
}

@Suite(.dependencies)  // every test gets a fresh isolated container
struct CheckoutTests {
    @Test(.dependencies { New(MockPayments() as Payments) })
    func paysWithMock() {
        #expect(Checkout().payments is MockPayments)
    }

    @Test func seesProductionRegistrations() {
        #expect(Checkout().payments is LivePayments)
    }

    @Test(arguments: 0..<200)
    func eachCaseSeesOnlyItsOwnPayments(index: Int) async throws {
        DIContainer.register(Shared(CasePayments(index) as Payments))
        for _ in 0..<3 {
            try await Task.sleep(nanoseconds: UInt64.random(in: 0...100_000))  // perturbation only
            #expect(Checkout().payments.provider == "case \(index)")
        }
    }
}

@Test func aTestWithoutTheTraitSeesProduction() async throws {
    for _ in 0..<20 {
        try await Task.sleep(nanoseconds: UInt64.random(in: 0...100_000))  // perturbation only
        #expect(Checkout().payments is LivePayments)
    }
}
