import DependencyInjection

// Types used across the test suite. Kept small and named for what they stand for.

protocol AppConfiguration: AnyObject { var environment: String { get } }
final class AppConfigurationImpl: AppConfiguration { let environment = "production" }

protocol Router: AnyObject { var name: String { get } }
protocol DeeplinkHandler: AnyObject {}
final class RouterImpl: Router, DeeplinkHandler {
    let name: String
    init() { name = "RouterImpl" }
    init(config: AppConfiguration) { name = "RouterImpl(\(config.environment))" }
}
final class MockRouter: Router {
    let name = "MockRouter"
}

protocol FeatureOne: AnyObject {}
final class FeatureOneImplementation: FeatureOne {}
protocol FeatureOneViewModel: AnyObject {}
final class FeatureOneViewModelImplementation: FeatureOneViewModel {}
protocol FeatureTwo: AnyObject {}
final class FeatureTwoImplementation: FeatureTwo {}

protocol ViewModelProtocol: AnyObject { var id: String { get } }
final class ConcreteViewModel: ViewModelProtocol {
    let id: String
    init(id: String) { self.id = id }
}

protocol PresenterProtocol: AnyObject { var summary: String { get } }
final class Presenter: PresenterProtocol {
    let summary: String
    init(_ a: String, _ b: Int, _ c: String) { summary = "\(a)|\(b)|\(c)" }
}

protocol Tracker: AnyObject {}
final class TrackerImpl: Tracker {}
protocol Cache: AnyObject {}
final class CacheImpl: Cache {}
protocol MediaPlayer: AnyObject {}

protocol Store: AnyObject { var kind: String { get } }
final class PostgresStore: Store { let kind = "postgres" }
final class MemoryStore: Store { let kind = "memory" }

final class Engine { init() {} }
final class ImageCache { init() {} }
final class Session { init() {} }

/// Runs `onDeinit` (which may resolve) when it goes away.
final class ResolvesInDeinit {
    let onDeinit: () -> Void
    init(onDeinit: @escaping () -> Void) { self.onDeinit = onDeinit }
    deinit { onDeinit() }
}
final class Database { init() {} }

final class Parent {
    var child: Child?
    init() {}
}
final class Child {
    // Unowned: the contract's onResolve example links Parent and Child both ways on purpose;
    // a strong edge back would be a retain cycle that the leak-checking CI run reports.
    unowned let parent: Parent
    init(parent: Parent) { self.parent = parent }
}

struct Offline: Error {}
final class ConfiguredRouter: Router {
    let name = "ConfiguredRouter"
    init(config: AppConfiguration) {}
}

final class Screen {
    @Inject var router: Router
    @LazyInject var config: AppConfiguration
    @MutableInject var tracker: Tracker
    @MutableLazyInject var cache: Cache
    @Inject var player: MediaPlayer?
}

/// Registrations that production code makes through `registerDependencies()`.
protocol Greeting: AnyObject { var text: String { get } }
final class ProductionGreeting: Greeting { let text = "production" }
final class MockGreeting: Greeting { let text = "mock" }

// In this package no `@retroactive` is needed (or allowed); an app in another package writes it.
extension DIContainer: DependencyRegistering {
    public static func registerDependencies() {
        register(Shared(ProductionGreeting() as Greeting))
        if let extra = BootstrapExtra.current.get() { register(extra) }
        if let capture = ValidationCapture.current.get() { capture.report = validate() }
    }
}

/// More registrations for `registerDependencies()` to make, in the task that binds them.
enum BootstrapExtra {
    static let current = TaskLocal<Module?>(wrappedValue: nil)
}

/// Registers what `Screen` needs.
func registerScreenDependencies(in container: DIContainer) {
    container.register {
        Shared(AppConfigurationImpl() as AppConfiguration)
        Shared { resolve in RouterImpl(config: resolve()) as Router }
        New(TrackerImpl() as Tracker)
        Shared(CacheImpl() as Cache)
    }
}
