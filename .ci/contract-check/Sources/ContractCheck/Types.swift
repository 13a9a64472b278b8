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
final class Database { init() {} }
final class Engine { init() {} }
final class Parent {
    var child: Child?
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
