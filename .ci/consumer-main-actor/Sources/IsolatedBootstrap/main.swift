import CheckSupport
import DependencyInjection

// `registerDependencies()` in a module with default MainActor isolation, as the README shows it
// (the README's Quick start). Spelled as in the GettingStarted article (`extension DIContainer: @retroactive
// DependencyRegistering`), the conformance crosses into main-actor code ("conformance of
// 'DIContainer' to protocol 'DependencyRegistering' crosses into main actor-isolated code");
// `@MainActor` on it cannot form a main-actor-isolated conformance to a `SendableMetatype`-
// inheriting protocol: the conformance is `nonisolated`, and so is `registerDependencies()`, which
// the first use of `shared` may call from any thread. In it, a main-actor type is registered
// through its initializer (`AppConfigurationImpl.init`) or an explicit `@MainActor` closure (a
// plain closure calling a main-actor initializer does not compile there).
// Run with `on-main` (the first use of `shared` is on the main actor) or `off-main` (in a
// detached task). The other quick-start form, registering in main-actor code at launch, is
// compiled and run in MainActorChecks (QuickStart.swift).

/// Where `registerDependencies()` ran.
nonisolated let bootstrapsOnMain = Tally()
nonisolated let bootstrapsOffMain = Tally()
nonisolated let madeOffMain = Tally()

final class Service {
    init() { MainActor.preconditionIsolated("Service was made off the main actor") }
}

protocol AppConfiguration: AnyObject {}

final class AppConfigurationImpl: AppConfiguration {
    static var made = 0
    init() {
        if !isOnMainQueue() { madeOffMain.add() }
        MainActor.preconditionIsolated("AppConfigurationImpl was made off the main actor")
        Self.made += 1
    }
}

protocol Router: AnyObject {}

final class RouterImpl: Router {
    static var made = 0
    let config: AppConfiguration
    init(config: AppConfiguration) {
        if !isOnMainQueue() { madeOffMain.add() }
        MainActor.preconditionIsolated("RouterImpl was made off the main actor")
        self.config = config
        Self.made += 1
    }
}

// The README's form, verbatim (but the first line, which counts where it runs).
nonisolated extension DIContainer: @retroactive DependencyRegistering {
    public static func registerDependencies() {
        (isOnMainQueue() ? bootstrapsOnMain : bootstrapsOffMain).add()
        register {
            Shared(AppConfigurationImpl.init, as: AppConfiguration.self)
            Shared { @MainActor resolve in try RouterImpl(config: resolve.tryResolve()) as Router }
            Shared(Service.init)
        }
    }
}

let mode = CommandLine.arguments.dropFirst().first ?? "on-main"
Checks.section("nonisolated registerDependencies() (the README's form), first use of shared \(mode)")
if mode == "off-main" {
    // Service and AppConfigurationImpl are main-actor classes (Sendable): made on the main actor
    // for the detached task. `any Router` is not Sendable (Router does not refine Sendable): the
    // instance `Shared { … as Router }` makes never leaves the main actor.
    let (firstUse, service) = await valueInDetachedTask { try DIContainer.tryResolve(Service.self) }
    Checks.expect(firstUse == .resolved, "first use in Task.detached: \(firstUse)")
    Checks.expect(bootstrapsOffMain.count == 1, "registerDependencies() (nonisolated) ran off the main actor")
    Checks.expect(service === DIContainer.resolve(Service.self), "… Service made on main, the main actor's instance")
    let (config, configuration) = await valueOnDispatchThread {
        Identity(try DIContainer.tryResolve(AppConfiguration.self))
    }
    // Through its `as:` alias the value stays on the main actor: AppConfigurationImpl's conformance to
    // AppConfiguration is isolated to the main actor in this module.
    Checks.expect(
        config == .failed(.mainActorRequired) && configuration == nil,
        "Shared(AppConfigurationImpl.init, as: AppConfiguration.self) on a thread, through the alias: \(config)")
    let router = await inDetachedTask { _ = try DIContainer.tryResolve(Router.self) }
    Checks.expect(
        router == .failed(.mainActorRequired),
        "Shared { @MainActor resolve in try RouterImpl(config: resolve.tryResolve()) as Router } in Task.detached "
            + "(any Router is not Sendable): \(router)")
} else {
    _ = DIContainer.resolve(Service.self)
    Checks.expect(bootstrapsOnMain.count == 1, "registerDependencies() ran once, on the main actor")
}
let router = DIContainer.resolve(Router.self)
Checks.expect(
    (router as? RouterImpl)?.config === DIContainer.resolve(AppConfiguration.self),
    "on main: Router got the shared AppConfiguration")
Checks.expect(
    AppConfigurationImpl.made == 1 && RouterImpl.made == 1 && madeOffMain.count == 0,
    "each made once, on the main actor")
_ = DIContainer.resolve(Service.self)
Checks.expect(bootstrapsOnMain.count + bootstrapsOffMain.count == 1, "registerDependencies() ran exactly once")
Checks.finish("nonisolated registerDependencies, \(mode)")
