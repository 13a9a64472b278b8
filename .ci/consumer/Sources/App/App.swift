import DependencyInjection

// An app module as users write one: production registrations on first use of `shared`.

public protocol Payments: AnyObject { var provider: String { get } }

public final class LivePayments: Payments {
    public let provider = "live"
    public init() {}
}

public final class Checkout {
    @Inject public var payments: Payments
    public init() {}
}

extension DIContainer: @retroactive DependencyRegistering {
    public static func registerDependencies() {
        register(Shared(LivePayments() as Payments))
    }
}
