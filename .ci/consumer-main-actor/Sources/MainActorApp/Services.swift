import CheckSupport
import DependencyInjection

// This module is built with `.defaultIsolation(MainActor.self)`: every type, global and function
// below is @MainActor unless it says `nonisolated`. Each initializer records that it ran, and
// traps if it runs anywhere but the main actor.

/// How many instances of each service were made; every initializer records itself here.
public enum Made {
    public private(set) static var counts: [String: Int] = [:]

    /// Records one instance of `name`; ends the process if it is being made off the main actor.
    public static func record(_ name: String) {
        MainActor.assertIsolated("\(name) was made off the main actor")
        MainActor.preconditionIsolated("\(name) was made off the main actor")
        precondition(isOnMainQueue(), "\(name) was made off the main queue")
        counts[name, default: 0] += 1
    }

    public static func count(_ name: String) -> Int { counts[name] ?? 0 }

    /// The number of instances made of every service, for a check that nothing was made.
    public static var total: Int { counts.values.reduce(0, +) }
}

public final class Counter {
    public init() { Made.record("Counter") }
}

public final class Clock {
    public init() { Made.record("Clock") }
}

public final class Ticker {
    public let clock: Clock
    public init(clock: Clock) {
        self.clock = clock
        Made.record("Ticker")
    }
}

public protocol Payments: AnyObject { var provider: String { get } }

public final class LivePayments: Payments {
    public let provider = "live"
    public init() { Made.record("LivePayments") }
}

public protocol Logger: AnyObject {}

public final class PrintLogger: Logger {
    public init() { Made.record("PrintLogger") }
}

/// Autowired: `Shared(Checkout.init)` resolves both parameters.
public final class Checkout {
    public let payments: Payments
    public let logger: Logger
    public init(payments: Payments, logger: Logger) {
        self.payments = payments
        self.logger = logger
        Made.record("Checkout")
    }
}

public protocol Printer: AnyObject {}

public final class ReceiptPrinter: Printer {
    public init(logger: Logger) { Made.record("ReceiptPrinter") }
}

public protocol ViewModelProtocol: AnyObject { var id: String { get } }

public final class DetailViewModel: ViewModelProtocol {
    public let id: String
    public init(id: String) {
        self.id = id
        Made.record("DetailViewModel")
    }
}

public protocol AppConfiguration: AnyObject {}

public final class AppConfigurationImpl: AppConfiguration {
    public init() { Made.record("AppConfigurationImpl") }
}

public protocol Router: AnyObject {}
public protocol DeeplinkHandler: AnyObject {}

public final class RouterImpl: Router, DeeplinkHandler {
    public init() { Made.record("RouterImpl") }
    public init(config: AppConfiguration) { Made.record("RouterImpl") }
}

public final class ConfiguredRouter: Router {
    public init(config: AppConfiguration) { Made.record("ConfiguredRouter") }
}

public protocol Store: AnyObject { var kind: String { get } }

public final class PostgresStore: Store {
    public let kind = "postgres"
    public init() { Made.record("PostgresStore") }
}

public final class MemoryStore: Store {
    public let kind = "memory"
    public init() { Made.record("MemoryStore") }
}

public final class ImageCache {
    public init() { Made.record("ImageCache") }
}

public final class Session {
    public init() { Made.record("Session") }
}

public final class Request {
    public let first: Session
    public let second: Session
    public init(first: Session, second: Session) {
        self.first = first
        self.second = second
        Made.record("Request")
    }
}

public final class Parent {
    public var child: Child?
    public var isWired = false
    public init() { Made.record("Parent") }
}

public final class Child {
    public let parent: Parent
    public init(parent: Parent) {
        self.parent = parent
        Made.record("Child")
    }
}

public final class Warmup {
    public init() { Made.record("Warmup") }
}

public final class ProfileModel {
    public init() { Made.record("ProfileModel") }
}

public final class FeatureScreen {
    public init() { Made.record("FeatureScreen") }
}

public final class ProductionService {
    public init() { Made.record("ProductionService") }
}

/// Property wrappers in a main-actor class.
public final class Screen {
    @Inject public var router: Router
    @LazyInject public var config: AppConfiguration
    @MutableInject public var logger: Logger
    @MutableLazyInject public var payments: Payments
    @Inject public var player: MediaPlayer?
    @Inject(name: "primary") public var store: Store
    public init() {}
}

public protocol MediaPlayer: AnyObject {}

public protocol Greeter: AnyObject { var greeting: String { get } }

/// Registered only with `as: Greeter.self`, first off the main actor (its conformance to the
/// main-actor protocol `Greeter` is main-actor-isolated).
public final class FirstGreeter: Greeter {
    public let greeting = "hello"
    public init() { Made.record("FirstGreeter") }
}
