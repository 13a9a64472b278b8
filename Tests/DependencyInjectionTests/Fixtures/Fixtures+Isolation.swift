import DependencyInjection

// Types for the isolation tests (withOverrides, the test traits, parallel cases, XCTest recipes).

protocol Payments: AnyObject { var provider: String { get } }
final class LivePayments: Payments { let provider = "live" }
final class MockPayments: Payments { let provider = "mock" }

/// A `Shared` service that depends on `Payments`: overrides must reach it.
final class Checkout {
    let payments: Payments
    init(payments: Payments) { self.payments = payments }
}

/// Remembers which container made it (inside a factory, `current` is the container running it).
final class Witness {
    let maker = ObjectIdentifier(DIContainer.current)
    init() {}
}

/// A greeting that carries the index of the parallel test case that registered it.
final class CaseGreeting: Greeting {
    let index: Int
    init(index: Int) { self.index = index }
    var text: String { "case \(index)" }
}

/// A `Shared` service built from whatever `Greeting` its container serves.
final class Welcome {
    let greeting: Greeting
    init(greeting: Greeting) { self.greeting = greeting }
}

/// Reaches the greeting through every kind of property wrapper and a nested factory.
final class WelcomeScreen {
    @Inject var greeting: Greeting
    @LazyInject var lazyGreeting: Greeting
    @MutableInject var mutableGreeting: Greeting
    @MutableLazyInject var mutableLazyGreeting: Greeting
    @LazyInject var welcome: Welcome
}

/// The case index each route to `Greeting` sees, or `nil` where a route finds no `CaseGreeting`.
func greetingIndices(in screen: WelcomeScreen) -> [Int?] {
    [screen.greeting, screen.lazyGreeting, screen.mutableGreeting, screen.mutableLazyGreeting, screen.welcome.greeting]
        .map { ($0 as? CaseGreeting)?.index }
}
