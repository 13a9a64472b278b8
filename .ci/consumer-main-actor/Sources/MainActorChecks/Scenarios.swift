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
        // must be main-actor ones, like every other form written in this module: `Counter` (a
        // main-actor class, so Sendable) is then made on the main actor for the caller off it.
        Checks.section("a main-actor global Module's registration, resolved in Task.detached")
        let box = DIContainer()
        box.register { globalForms() }
        let made = Made.total
        let (detached, module) = await valueInDetachedTask { try box.tryResolve(Counter.self, name: "module") }
        Checks.expect(detached == .resolved, "Counter (\"module\") in Task.detached, made on main: \(detached)")
        let (global, made2) = await valueOnDispatchThread { try box.tryResolve(Counter.self, name: "global") }
        Checks.expect(global == .resolved, "Counter (\"global\") on a Dispatch thread, made on main: \(global)")
        Checks.expect(
            module === box.resolve(Counter.self, name: "module") && made2 === box.resolve(Counter.self, name: "global"),
            "… the instances the main actor sees")
        Checks.expect(Made.total == made + 2, "two made, on the main actor (Made.record checks)")
    case "validate-global-module":
        Checks.section("validate() of a main-actor global Module's registrations")
        let box = DIContainer()
        box.register { globalForms() }
        let report = await box.validate()
        Checks.expect(report.isValid, "validate() never runs a main-actor factory off the main actor: \(report)")
    default:
        Checks.expect(false, "unknown scenario \(name)")
    }
    Checks.finish("main-actor consumer, scenario \(name)")
}
