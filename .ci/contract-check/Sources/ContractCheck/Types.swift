import DependencyInjection

protocol AppConfiguration {}
struct AppConfigurationImpl: AppConfiguration {}
protocol Router: AnyObject {}
protocol DeeplinkHandler: AnyObject {}
final class RouterImpl: Router, DeeplinkHandler {
    init() {}
    init(config: AppConfiguration) {}
}
final class MockRouter: Router {}
protocol FeatureOne {}
struct FeatureOneImplementation: FeatureOne {}
protocol FeatureOneViewModel {}
final class FeatureOneViewModelImplementation: FeatureOneViewModel {}
protocol FeatureTwo {}
struct FeatureTwoImplementation: FeatureTwo {}
protocol ViewModelProtocol {}
final class ConcreteViewModel: ViewModelProtocol { init(id: String) {} }
protocol PresenterProtocol {}
protocol Tracker {}
protocol Cache {}
protocol MediaPlayer {}
protocol Store {}
final class PostgresStore: Store { init() {} }
final class MemoryStore: Store { init() {} }
final class ImageCache { init() {} }
final class Session { init() {} }
final class Database: Sendable { init() {} }
final class Engine { init() {} }
final class Parent {
    var child: Child?
    var isWired = false
    init() {}
}
final class Child { init(parent: Parent) {} }
final class ConfiguredRouter: Router { init(config: AppConfiguration) {} }
func bar(router: Router) {}

extension DIContainer: @retroactive DependencyRegistering {
    public static func registerDependencies() {
        register(Shared(RouterImpl() as Router))
    }
}

// Modules and registrations as globals in an ordinary file (not main.swift) must compile in Swift 6 mode.
let globalFeature = Module {
    Shared(FeatureOneImplementation() as FeatureOne)
}
let globalRegistration = Shared(RouterImpl() as Router)

// The types of the modules, global-actor and async factory lines. Nonisolated (this module has no default isolation), in a file that is not
// main.swift: the registrations below run on any thread.
protocol Payments {}
final class LivePayments: Payments { init() {} }
protocol Logger {}
final class PrintLogger: Logger { init() {} }
protocol Printer {}
final class ReceiptPrinter: Printer { init(logger: Logger) {} }

@globalActor actor DatabaseActor { static let shared = DatabaseActor() }

/// Made on DatabaseActor only (by prepare() or an async resolve); counts how often.
@DatabaseActor final class GlobalActorDatabase {
    static var made = 0
    init() {
        DatabaseActor.preconditionIsolated()
        Self.made += 1
    }
}

final class HTTPClient: Sendable { init() {} }

struct RemoteConfig: Sendable {
    let source: String

    static func load(client: HTTPClient) async throws -> RemoteConfig {
        try await Task.sleep(nanoseconds: 1_000_000)
        return RemoteConfig(source: "remote")
    }
}

/// Their dependencies, registered from nonisolated code (a global module in this file): the async
/// factory resolves `HTTPClient` off the main actor, which a registration in main.swift (main-actor
/// top-level code) would refuse.
let section4Dependencies = Module {
    Shared(AppConfigurationImpl() as AppConfiguration)
    Shared(MemoryStore.init, as: Store.self).named("cache")
    Shared(LivePayments() as Payments)
    Shared(PrintLogger() as Logger)
    Shared(HTTPClient())
    // `parent.child = resolve()` resolves `Child?` (the property's type): nil unless registered.
    Shared { resolve in Child(parent: resolve()) }
}

/// Stops the check with `what` unless `condition` holds; prints what held.
func check(_ condition: Bool, _ what: String) {
    precondition(condition, "contract check failed: \(what)")
    print("ok    \(what)")
}
