import CheckSupport
import DependencyInjection
import MainActorApp

/// Scenarios that end the process when the library gets them wrong (a main-actor initializer
/// run off the main actor traps in `Made.record`): `.ci/steps/consumer-main-actor.sh` runs each
/// in a process of its own (`MainActorChecks <scenario>`).
func runScenario(_ name: String) async -> Never {
    switch name {
    case "global-module-off-main":
        // `featureModule` and `globalRegistration` are main-actor globals: their registrations
        // must be main-actor-only, like every other form written in this module.
        Checks.section("a main-actor global Module's registration, resolved in Task.detached")
        let box = DIContainer()
        box.register { globalForms() }
        let made = Made.total
        let detached = await inDetachedTask { _ = try box.tryResolve(Counter.self, name: "module") }
        Checks.expect(detached == .failed(.mainActorRequired), "Counter (\"module\") in Task.detached: \(detached)")
        let global = await onDispatchThread { _ = try box.tryResolve(Counter.self, name: "global") }
        Checks.expect(global == .failed(.mainActorRequired), "Counter (\"global\") on a Dispatch thread: \(global)")
        Checks.expect(Made.total == made, "nothing was made off the main actor")
    case "validate-global-module":
        Checks.section("validate() of a main-actor global Module's registrations")
        let box = DIContainer()
        box.register { globalForms() }
        let report = box.validate()
        Checks.expect(report.isValid, "validate() never runs a main-actor factory off the main actor: \(report)")
    default:
        Checks.expect(false, "unknown scenario \(name)")
    }
    Checks.finish("main-actor consumer, scenario \(name)")
}
