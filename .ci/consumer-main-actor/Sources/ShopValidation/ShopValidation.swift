// A small shop app with default MainActor isolation (every type here is @MainActor unless it says
// `nonisolated`), with one deliberate wiring mistake of each kind. `await DIContainer.validate()`
// must report each one, end nothing and stall nothing; this prints the report and checks it.
import DependencyInjection

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Mistake 1: a property wrapper's dependency is not registered (the seed's style).
protocol RecommendationEngine: AnyObject {}
final class RecommendationBanner {
    @Inject var engine: RecommendationEngine
    init() {}
}

// Mistake 2: an initializer reference whose parameter is not registered.
protocol Payments: AnyObject {}
protocol Cart: AnyObject {}
final class LivePayments: Payments { init() {} }
final class Checkout { init(payments: Payments, cart: Cart) {} }

// Mistake 3: a longer-lived service keeps a request-scoped one (a captive dependency).
nonisolated extension DIScope {
    static let request = DIScope("request", requiresRun: true)
    static let session = DIScope("session")
}
final class RequestContext { init() {} }
final class UserSession { init(context: RequestContext) {} }

// Mistake 4: a service that runs on any thread needs a main-actor service it cannot get there
// (a `New`: only a `Shared` one could be made first by prepare()).
final class ScreenClock { init() {} }
nonisolated final class SyncWorker: Sendable { init(clock: ScreenClock) {} }
nonisolated func registerWorker() {
    DIContainer.register { Shared { resolve in SyncWorker(clock: try resolve.tryResolve()) } }
}

@main struct ShopValidation {
    static func main() async {
        DIContainer.register {
            Shared(RecommendationBanner())
            Shared(LivePayments() as Payments)
            Shared(Checkout.init)
            Scoped(.request, RequestContext.init)
            Scoped(.session, UserSession.init)
            New(ScreenClock.init)
        }
        registerWorker()

        let report = await DIContainer.validate()
        print(report)
        print()
        var failed = 0
        func check(_ condition: Bool, _ what: String) {
            print(condition ? "ok   \(what)" : "FAIL \(what)")
            if !condition { failed += 1 }
        }
        let text = report.description
        check(!report.isValid && report.problems.count == 4, "four problems, one of each kind")
        check(
            text.contains("No registration for 'RecommendationEngine'")
                && text.contains("Property wrapper declared at"),
            "the missing @Inject dependency, with its declaration")
        check(text.contains("No registration for 'Cart'"), "the missing initializer parameter")
        check(text.contains("'UserSession' (Scoped") && text.contains("lives shorter"), "the captive request service")
        check(
            text.contains("runs on any thread but depends on 'ScreenClock' (New, on MainActor"),
            "the main-actor New needed anywhere")
        exit(failed == 0 ? 0 : 1)
    }
}
