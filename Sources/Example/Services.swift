import DependencyInjection

// The app's services: protocols the code depends on, and the implementations the container makes.
// Nothing here knows about the container except `CheckoutScreen`, which uses property wrappers.

/// Where the app finds its backend.
struct AppConfiguration {
    let baseURL: String
}

/// Talks to the backend. The example answers locally instead of using the network.
protocol APIClient: AnyObject {
    func post(_ path: String) -> String
}

final class HTTPAPIClient: APIClient {
    private let configuration: AppConfiguration

    init(configuration: AppConfiguration) {
        self.configuration = configuration
    }

    func post(_ path: String) -> String {
        "200 OK from \(configuration.baseURL)\(path)"
    }
}

/// Switches the backend hands out when the app starts: made once, by an async factory.
final class FeatureFlags: Sendable {
    let expressCheckout: Bool

    init(expressCheckout: Bool) {
        self.expressCheckout = expressCheckout
    }

    static func load(from api: APIClient) async throws -> FeatureFlags {
        let response = api.post("/feature-flags")
        try await Task.sleep(nanoseconds: 1_000_000)  // stands in for the network round trip
        return FeatureFlags(expressCheckout: response.hasPrefix("200"))
    }
}

/// Writes one line of the app's log.
protocol Logger: AnyObject {
    func log(_ message: String)
}

final class ConsoleLogger: Logger {
    func log(_ message: String) {
        print("      [log] \(message)")
    }
}

final class AuditLogger: Logger {
    func log(_ message: String) {
        print("      [audit] \(message)")
    }
}

/// Facts about one user action; every service that takes part in it shares one (`Graph`).
final class RequestContext {
    let startedBy: String

    init(startedBy: String) {
        self.startedBy = startedBy
    }
}

/// Buys products through the backend.
protocol PurchaseService: AnyObject {
    var context: RequestContext { get }
    func buy(_ productID: String) -> String
}

final class StorePurchaseService: PurchaseService {
    let context: RequestContext
    private let api: APIClient
    private let logger: Logger

    init(api: APIClient, logger: Logger, context: RequestContext) {
        self.api = api
        self.logger = logger
        self.context = context
    }

    func buy(_ productID: String) -> String {
        logger.log("buying \(productID)")
        return api.post("/purchases/\(productID)")
    }
}

/// Thumbnails kept in memory while some screen shows them (`Weak`).
final class ImageCache {
    init() {}
}

/// Shows one product; made with the product's identifier (a registration with arguments).
protocol ProductViewModel: AnyObject {
    var title: String { get }
}

final class DefaultProductViewModel: ProductViewModel {
    let title: String

    init(productID: String, api: APIClient) {
        title = "Product \(productID) (\(api.post("/products/\(productID)")))"
    }
}

/// Something the app could use but does not register: optional dependencies resolve to nil.
protocol Analytics: AnyObject {}

/// A screen object: its dependencies come from property wrappers, not from its initializer.
final class CheckoutScreen {
    @Inject var purchases: PurchaseService  // resolved when the screen is made
    @Inject(name: "audit") var audit: Logger  // the registration named "audit"
    @Inject var context: RequestContext  // Graph: the same one the purchase service got
    @LazyInject var images: ImageCache  // resolved on first access
    @Inject var analytics: Analytics?  // nil: nothing is registered

    init() {}

    func buyButtonTapped(productID: String) -> String {
        audit.log("checkout of \(productID) started by \(context.startedBy)")
        return purchases.buy(productID)
    }
}

// Issue 23's tour: a signed-in user's session, trackers, an @Observable view model.

extension DIScope {
    /// Everything that belongs to the signed-in user; released on sign-out.
    static let session = DIScope("session")
}

/// The signed-in user's session: one per sign-in (`Scoped(.session, …)`).
final class UserSession {
    let api: APIClient
    init(api: APIClient) { self.api = api }
}

/// Where analytics events go; several are registered, and `resolveAll` finds them all.
protocol EventTracker: AnyObject {
    func send(_ event: String) -> String
}
final class ConsoleTracker: EventTracker {
    func send(_ event: String) -> String { "console: \(event)" }
}
final class RemoteTracker: EventTracker {
    func send(_ event: String) -> String { "remote: \(event)" }
}

#if canImport(Observation)
    import Observation

    /// A SwiftUI-era view model: `@Observable`, with injected services. Inside an `@Observable`
    /// class, `@Inject` and `@LazyInject` need `@ObservationIgnored` (the macro would otherwise turn
    /// them into computed properties, which a property wrapper cannot be applied to).
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Observable final class AccountViewModel {
        @ObservationIgnored @Inject var session: UserSession
        @ObservationIgnored @InjectAll var trackers: [EventTracker]
        var status = "signed in"

        func signOut() -> [String] {
            status = "signed out"
            return trackers.map { $0.send("sign-out (session held: \(session.api is HTTPAPIClient))") }
        }
    }
#endif
