import CheckSupport
import DependencyInjection
import MainActorApp

// The README's quick start in a module with default MainActor isolation:
// registering at launch in main-actor code, an `init()` of a main-actor type (an app delegate's,
// an App's) and main.swift's top level (`registerAtTopLevel` in main.swift). Written as the
// README shows it; built with warnings as errors. (The `DependencyRegistering` form is in
// IsolatedBootstrap: one conformance per program, and MainActorApp has this one's.)

protocol QuickConfiguration: AnyObject {}

final class QuickConfigurationImpl: QuickConfiguration {
    init() { Made.record("QuickConfigurationImpl") }
}

protocol QuickRouter: AnyObject {}

final class QuickRouterImpl: QuickRouter {
    let config: QuickConfiguration
    init(config: QuickConfiguration) {
        self.config = config
        Made.record("QuickRouterImpl")
    }
}

/// An app delegate: registers at launch, in its (main-actor) `init()`.
final class QuickAppDelegate {
    init() {
        DIContainer.register {
            Shared(QuickConfigurationImpl() as QuickConfiguration)
            Shared { resolve in QuickRouterImpl(config: resolve()) as QuickRouter }
        }
    }
}

func checkQuickStart(registeredAtTopLevel: DIContainer) async {
    Checks.section("README quick start: registered at launch in main-actor code")
    let box = DIContainer()
    box.activate { _ = QuickAppDelegate() }
    for (written, container) in [
        ("an init() of a main-actor type", box), ("main.swift's top level", registeredAtTopLevel),
    ] {
        let router = container.resolve(QuickRouter.self)
        Checks.expect(
            (router as? QuickRouterImpl)?.config === container.resolve(QuickConfiguration.self),
            "\(written): resolves on main, Router got the shared configuration")
        // `as QuickRouter`: an existential of a protocol that does not refine Sendable, so the
        // instance never leaves the main actor.
        let offMain = await inDetachedTask { _ = try container.tryResolve(QuickRouter.self) }
        Checks.expect(offMain == .failed(.mainActorRequired), "\(written): Router in Task.detached: \(offMain)")
    }
}
