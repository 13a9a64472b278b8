import CheckSupport
import DependencyInjection
import MainActorApp

// The patterns the README and the DocC articles show, as they write them, in a module with default
// MainActor isolation. A `static let` (or a global `let`) here is main-actor isolated whatever its
// type, so nonisolated code (a `registerDependencies()`, a `nonisolated` function, a test trait's
// closure) cannot use it: the docs write `nonisolated` on what such code uses, as below. The
// `DependencyRegistering` conformance (`nonisolated extension`) is MainActorApp's and
// IsolatedBootstrap's (one per program). Checked by `checkDocumentedForms()`.

/// A module in a static property, as the Modules sections show it: `nonisolated`, so that
/// `registerDependencies()` and test traits can use it. Main-actor types are registered there with
/// initializer references or `@MainActor` closures.
nonisolated enum AppModules {
    static let core = Module {
        Shared(AppConfigurationImpl.init, as: AppConfiguration.self)
        Shared { @MainActor resolve in try RouterImpl(config: resolve.tryResolve()) as Router }
    }
}

/// The README's global module, `nonisolated` as it writes it for use from nonisolated code.
nonisolated let payments = Module {
    Shared(LivePayments.init, as: Payments.self).named("nonisolated global")
}

/// ConcurrencyAndActors' service that other threads make themselves, in a nonisolated global module.
nonisolated final class ImageDecoder {
    static let madeOffMain = Tally()
    init() { if !isOnMainQueue() { Self.madeOffMain.add() } }
}

nonisolated let decoding = Module { Shared(ImageDecoder.init) }

/// GettingStarted's computed module, as written: main-actor here, used from main-actor code.
enum Features {
    static var routing: Module {
        Module {
            Shared(AppConfigurationImpl() as AppConfiguration)
            Shared { resolve in RouterImpl(config: resolve()) as Router }
        }
    }
}

/// The Scopes article's constants, `nonisolated` as it writes them for such a module.
nonisolated extension DIScope {
    static let session = DIScope("session")
    static let request = DIScope("request")
}

final class UserSession {
    init() { Made.record("UserSession") }
}

protocol Cart: AnyObject {}

final class CartImpl: Cart {
    let session: UserSession
    init(session: UserSession) {
        self.session = session
        Made.record("CartImpl")
    }
}

final class RequestContext {
    static var made = 0
    let number: Int
    init() {
        Made.record("RequestContext")
        Self.made += 1
        number = Self.made
    }
}

final class RequestHandler {
    let context: RequestContext
    init(context: RequestContext) { self.context = context }
    func handle(_ request: String) async throws -> Int { context.number }
}

protocol APIClient: AnyObject { var log: [String] { get } }

final class LiveAPIClient: APIClient {
    let log = ["live"]
    init() { Made.record("LiveAPIClient") }
}

final class LoggingAPIClient: APIClient {
    let client: APIClient
    let logger: Logger
    init(_ client: APIClient, logger: Logger) {
        (self.client, self.logger) = (client, logger)
        Made.record("LoggingAPIClient")
    }
    var log: [String] { client.log + ["logged"] }
}

final class LoggingPayments: Payments {
    let provider: String
    init(_ payments: Payments, logger: Logger) {
        provider = "logged \(payments.provider)"
        Made.record("LoggingPayments")
    }
}

/// A main-actor class (so `Sendable`) that a `@MainActor` decorator marks.
final class Catalog {
    var decorations = 0
    init() { Made.record("Catalog") }
}

/// The quick start's checkable forms and a main-actor service's decorators, in nonisolated code
/// (as in `registerDependencies()`), with the nonisolated constants.
nonisolated func nonisolatedRegistrations() -> Module {
    Module {
        AppModules.core
        payments
        Shared(PrintLogger.init, as: Logger.self)
        Shared { @MainActor in LiveAPIClient() as APIClient }
        Decorate(APIClient.self) { @MainActor client, resolve in LoggingAPIClient(client, logger: resolve()) }
        Shared(Catalog.init)
        Decorate(Catalog.self) { @MainActor catalog, _ in
            catalog.decorations += 1
            return catalog
        }
        Scoped(.request, RequestContext.init).named("nonisolated")
    }
}

/// `Shared(RouterImpl.init, as: Router.self)`, the quick start's other checkable form.
nonisolated func routerByInitializer() -> Module {
    Module { Shared(RouterImpl.init, as: Router.self) }
}

func checkDocumentedForms() async {
    Checks.section("the docs' forms: modules in static properties, scopes, decorators")
    let box = DIContainer()
    box.register { nonisolatedRegistrations() }
    let router = box.resolve(Router.self)
    Checks.expect(
        (router as? RouterImpl) != nil && box.resolve(AppConfiguration.self) is AppConfigurationImpl,
        "AppModules.core (nonisolated enum) registered from nonisolated code")
    let client = box.resolve(APIClient.self)
    _ = box.resolve(APIClient.self)
    Checks.expect(
        client.log == ["live", "logged"] && Made.count("LoggingAPIClient") == 1,
        "Decorate(APIClient.self) { @MainActor client, resolve in … } decorates once: \(client.log)")
    let made = Made.count("Catalog")
    let (offMain, catalog) = await valueInDetachedTask { try box.tryResolve(Catalog.self) }
    Checks.expect(
        (offMain == .resolved && catalog?.decorations == 1) || offMain == .failed(.mainActorRequired),
        "a @MainActor decorator never runs off the main actor (Made.record checks): \(offMain)")
    Checks.expect(
        box.resolve(Catalog.self).decorations == 1 && Made.count("Catalog") <= made + 1,
        "… and on the main actor, decorates once")
    let report = await box.validate()
    Checks.expect(report.isValid, "await validate() of the nonisolated registrations: \(report)")

    Checks.expect(
        box.resolve(Payments.self, name: "nonisolated global").provider == "live",
        "nonisolated let payments = Module { … }, registered from nonisolated code")

    let decoders = DIContainer()
    decoders.register { decoding }
    let decoder = await inDetachedTask { _ = try decoders.tryResolve(ImageDecoder.self) }
    Checks.expect(
        decoder == .resolved && ImageDecoder.madeOffMain.count == 1,
        "nonisolated let decoding = Module { Shared(ImageDecoder.init) }: made in Task.detached: \(decoder)")

    let byInitializer = DIContainer()
    byInitializer.register { routerByInitializer() }
    Checks.expect(byInitializer.resolve(Router.self) is RouterImpl, "Shared(RouterImpl.init, as: Router.self)")

    let routing = DIContainer()
    routing.activate {
        DIContainer.register {
            Features.routing
            Shared(LivePayments() as Payments)
            Decorate(Payments.self) { payments, resolve in LoggingPayments(payments, logger: resolve()) }
            Shared(PrintLogger.init, as: Logger.self)
            Scoped(.session, UserSession.init)
            Scoped(.session) { resolve in CartImpl(session: resolve()) as Cart }
            Scoped(.request, RequestContext.init).named("main")
            Scoped(.request) { resolve in RequestHandler(context: resolve(RequestContext.self, name: "main")) }
        }
    }
    Checks.expect(
        routing.resolve(Router.self) is RouterImpl, "Features.routing (main-actor) registered in main-actor code")
    Checks.expect(
        routing.resolve(Payments.self).provider == "logged live",
        "Decorate(Payments.self) { payments, resolve in LoggingPayments(payments, logger: resolve()) }")

    let cart = routing.resolve(Cart.self) as? CartImpl
    Checks.expect(cart?.session === routing.resolve(UserSession.self), "Scoped(.session): one session, kept")
    routing.releaseInstances(in: .session)
    Checks.expect(cart?.session !== routing.resolve(UserSession.self), "releaseInstances(in: .session) drops it")

    do {
        let (first, second) = try await routing.activate {
            let request = "GET /"
            let first = try await DIContainer.withScope(.request) {
                try await DIContainer.resolve(RequestHandler.self).handle(request)
            }
            let second = DIContainer.withScope(.request) {
                DIContainer.resolve(RequestHandler.self).context.number
            }
            return (first, second)
        }
        Checks.expect(first != second, "withScope(.request) { … }: each run its own instances (\(first), \(second))")
    } catch {
        Checks.expect(false, "withScope(.request) threw \(error)")
    }
}
