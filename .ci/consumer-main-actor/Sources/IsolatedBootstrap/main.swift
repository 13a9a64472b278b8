import CheckSupport
import DependencyInjection

// `registerDependencies()` in a module with default MainActor isolation. Spelled as in contract
// §1, the conformance would be main-actor-isolated, and `registerDependencies()` main-actor code
// that the first use of `shared` may call from any thread: `DependencyRegistering` refines
// `SendableMetatype`, so that spelling does not compile, and the conformance is `nonisolated`.
// Run with `on-main` (the first use of `shared` is on the main actor) or `off-main` (in a
// detached task).

/// Where `registerDependencies()` ran.
nonisolated let bootstrapsOnMain = Tally()
nonisolated let bootstrapsOffMain = Tally()

final class Service {
    init() { MainActor.preconditionIsolated("Service was made off the main actor") }
}

nonisolated extension DIContainer: @retroactive DependencyRegistering {
    public static func registerDependencies() {
        (isOnMainQueue() ? bootstrapsOnMain : bootstrapsOffMain).add()
        register(Shared(Service.init))
    }
}

let mode = CommandLine.arguments.dropFirst().first ?? "on-main"
Checks.section("nonisolated registerDependencies(), first use of shared \(mode)")
if mode == "off-main" {
    let firstUse = await inDetachedTask { _ = try DIContainer.tryResolve(Service.self) }
    Checks.expect(firstUse == .failed(.mainActorRequired), "first use in Task.detached: \(firstUse)")
    Checks.expect(bootstrapsOffMain.count == 1, "registerDependencies() (nonisolated) ran off the main actor")
} else {
    _ = DIContainer.resolve(Service.self)
    Checks.expect(bootstrapsOnMain.count == 1, "registerDependencies() ran once, on the main actor")
}
_ = DIContainer.resolve(Service.self)
Checks.expect(bootstrapsOnMain.count + bootstrapsOffMain.count == 1, "registerDependencies() ran exactly once")
Checks.finish("nonisolated registerDependencies, \(mode)")
