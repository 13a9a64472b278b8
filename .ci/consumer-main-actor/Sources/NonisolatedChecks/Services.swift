import CheckSupport
import DependencyInjection

// A module WITHOUT default isolation: these services and the code that registers them are
// nonisolated, so their factories run on whichever thread resolves them (the ConcurrencyAndActors article).

/// How many instances of each service were made, from any thread.
let made = Tallies()

final class Engine {
    init() { made.add("Engine") }
}

protocol Logger: AnyObject {}

final class PrintLogger: Logger {
    init() { made.add("PrintLogger") }
}

protocol Payments: AnyObject {}

final class LivePayments: Payments {
    init() { made.add("LivePayments") }
}

final class Checkout {
    let payments: Payments
    let logger: Logger
    init(payments: Payments, logger: Logger) {
        self.payments = payments
        self.logger = logger
        made.add("Checkout")
    }
}

protocol Printer: AnyObject {}

final class ReceiptPrinter: Printer {
    init(logger: Logger) { made.add("ReceiptPrinter") }
}

protocol ViewModelProtocol: AnyObject { var id: String { get } }

final class DetailViewModel: ViewModelProtocol {
    let id: String
    init(id: String) {
        self.id = id
        made.add("DetailViewModel")
    }
}

protocol Router: AnyObject {}
protocol DeeplinkHandler: AnyObject {}

final class RouterImpl: Router, DeeplinkHandler {
    init() { made.add("RouterImpl") }
}

protocol Store: AnyObject {}

final class PostgresStore: Store {
    init() { made.add("PostgresStore") }
}

final class MemoryStore: Store {
    init() { made.add("MemoryStore") }
}

final class ImageCache {
    init() { made.add("ImageCache") }
}

final class Session {
    init() { made.add("Session") }
}

final class Request {
    let first: Session
    let second: Session
    init(first: Session, second: Session) {
        self.first = first
        self.second = second
        made.add("Request")
    }
}

final class Parent {
    var child: Child?
    var isWired = false
    init() { made.add("Parent") }
}

final class Child {
    let parent: Parent
    init(parent: Parent) {
        self.parent = parent
        made.add("Child")
    }
}

final class Warmup {
    init() { made.add("Warmup") }
}

final class FeatureService {
    init() { made.add("FeatureService") }
}

final class TopLevelService {
    init() { made.add("TopLevelService") }
}

final class HTTPClient: Sendable {
    init() { made.add("HTTPClient") }
}

struct RemoteConfig: Sendable {
    let source: String

    static func load(client: HTTPClient) async throws -> RemoteConfig {
        made.add("RemoteConfig")
        try await Task.sleep(nanoseconds: 1_000_000)
        return RemoteConfig(source: "remote")
    }
}

/// A module as a global, in nonisolated code.
let featureModule = Module {
    Shared(FeatureService())
}

/// Production registrations: every form, written in nonisolated code.
extension DIContainer: @retroactive DependencyRegistering {
    public static func registerDependencies() {
        register {
            Shared(Engine())
            Shared { PrintLogger() as Logger }
            Shared { _ in LivePayments() as Payments }
            Shared(Checkout.init)
            New(ReceiptPrinter.init, as: Printer.self)
            New { _, id in DetailViewModel(id: id) }
            New({ _, id in DetailViewModel(id: id) }, as: ViewModelProtocol.self).named("protocol")
            Shared(RouterImpl.init, as: Router.self, DeeplinkHandler.self)
            Shared(PostgresStore.init, as: Store.self).named("primary")
            Shared(MemoryStore.init, as: Store.self).named("cache")
            Weak(ImageCache.init)
            Graph(Session.init)
            New(Request.init)
            Shared(Parent.init)
                .onResolve { parent, resolve in parent.child = resolve() }
                .onResolve { parent, _ in parent.isWired = true }
            Shared { resolve in Child(parent: resolve()) }
            Shared(Warmup.init).eager()
            featureModule
            Shared(HTTPClient())
            Shared { resolve async throws in try await RemoteConfig.load(client: resolve()) }
        }
    }
}

/// A main-actor type in this module without default isolation.
@MainActor final class ProfileModel {
    init() { MainActor.preconditionIsolated("ProfileModel was made off the main actor") }
}

/// Main-actor globals: their initializers may call main-actor code, yet `#isolation` is `nil` there.
@MainActor let profileModule = Module {
    Shared(ProfileModel())
}

@MainActor enum Modules {
    static let profile = Module {
        Shared(ProfileModel()).named("static")
    }
}
