import CheckSupport
import DependencyInjection

// Contract §1's `registerDependencies()`, spelled as written there, in a module with default
// MainActor isolation: the conformance is then main-actor-isolated (Swift 6.2 infers an isolated
// conformance), so `registerDependencies()` is main-actor code. Run with `on-main` (the first use
// of `shared` is on the main actor) or `off-main` (in a detached task).

/// Where `registerDependencies()` ran.
nonisolated let bootstrapsOnMain = Tally()
nonisolated let bootstrapsOffMain = Tally()

final class Service {
    init() { MainActor.preconditionIsolated("Service was made off the main actor") }
}

extension DIContainer: @retroactive DependencyRegistering {
    public static func registerDependencies() {
        (isOnMainQueue() ? bootstrapsOnMain : bootstrapsOffMain).add()
        register(Shared(Service()))
    }
}

let mode = CommandLine.arguments.dropFirst().first ?? "on-main"
Checks.section("registerDependencies() of an isolated conformance, first use of shared \(mode)")
if mode == "off-main" {
    let firstUse = await inDetachedTask { _ = try DIContainer.tryResolve(Service.self) }
    Checks.expect(firstUse == .failed(.mainActorRequired), "first use in Task.detached: \(firstUse)")
    Checks.expectKnownIssue(
        bootstrapsOffMain.count == 0,
        "registerDependencies() (main-actor here) never runs off the main actor: ran \(bootstrapsOffMain.count)x off it"
    )
} else {
    _ = DIContainer.resolve(Service.self)
    Checks.expect(bootstrapsOnMain.count == 1, "registerDependencies() ran once, on the main actor")
}
_ = DIContainer.resolve(Service.self)
Checks.expect(bootstrapsOnMain.count + bootstrapsOffMain.count == 1, "registerDependencies() ran exactly once")
Checks.finish("isolated registerDependencies, \(mode)")
