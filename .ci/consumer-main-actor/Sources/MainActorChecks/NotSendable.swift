import CheckSupport
import DependencyInjection
import MainActorApp

// Isolation follows the value (the ConcurrencyAndActors article): a value that is not `Sendable`, made by main-actor code, never leaves the main
// actor through the container; a main-actor service needed by a factory that runs off the main
// actor is an error naming both (no hop inside a resolution).

/// Not `Sendable`: `nonisolated` (any code may make it) with mutable state. Registered in
/// main-actor code, its factory is main-actor code.
nonisolated final class ScreenState {
    static let madeOnMain = Tally()
    static let madeOffMain = Tally()
    var taps = 0

    init() { (isOnMainQueue() ? Self.madeOnMain : Self.madeOffMain).add() }
}

/// `Sendable`, made by a factory written in nonisolated code (it runs on any thread), and needs
/// the main-actor `Counter`.
nonisolated final class Dashboard: Sendable {
    let counter: Counter
    init(counter: Counter) { self.counter = counter }
}

nonisolated func dashboardModule() -> Module {
    Module {
        // `try resolve.tryResolve()` for `resolve()`, which traps with the same message.
        Shared { resolve in try Dashboard(counter: resolve.tryResolve()) }
    }
}

func checkNotSendableServices() async {
    Checks.section("values that are not Sendable, registered in main-actor code: main actor only")
    let box = DIContainer()
    box.register {
        Shared(ScreenState())
        New(ScreenState()).named("new")
        // An existential of a protocol that does not refine Sendable is not Sendable either, even
        // for a main-actor class (`any AppConfiguration`).
        Shared(AppConfigurationImpl() as AppConfiguration)
    }
    Checks.expect(box.registrations.allSatisfy(\.isMainActor), "every registration is @MainActor")
    let made = (ScreenState.madeOnMain.count, Made.count("AppConfigurationImpl"))
    let forms: [(String, @Sendable () throws -> Void, @Sendable () async throws -> Void)] = [
        (
            "Shared(ScreenState())", { _ = try box.tryResolve(ScreenState.self) },
            { _ = try await box.resolveAsync(ScreenState.self) }
        ),
        (
            "New(ScreenState()).named(\"new\")", { _ = try box.tryResolve(ScreenState.self, name: "new") },
            { _ = try await box.resolveAsync(ScreenState.self, name: "new") }
        ),
        (
            "Shared(AppConfigurationImpl() as AppConfiguration)", { _ = try box.tryResolve(AppConfiguration.self) },
            { _ = try await box.resolveAsync(AppConfiguration.self) }
        ),
    ]
    for (state, expectMade) in [("not made yet", false), ("made already (on main)", true)] {
        if expectMade {
            let screen = box.resolve(ScreenState.self)
            screen.taps += 1
            Checks.expect(box.resolve(ScreenState.self) === screen, "on main: resolve works, one Shared instance")
            let fresh = box.resolve(ScreenState.self, name: "new")
            Checks.expect(fresh !== box.resolve(ScreenState.self, name: "new"), "on main: New makes one each time")
            _ = box.resolve(AppConfiguration.self)
            let async = try? await box.resolveAsync(ScreenState.self)
            Checks.expect(async === screen, "on main: resolveAsync returns the Shared instance")
        }
        for (form, resolve, resolveAsync) in forms {
            let detached = await inDetachedTask(resolve)
            Checks.expect(detached == .failed(.mainActorRequired), "\(form), \(state): in Task.detached: \(detached)")
            let thread = await onDispatchThread(resolve)
            Checks.expect(thread == .failed(.mainActorRequired), "\(form), \(state): on a Dispatch thread: \(thread)")
            let (async, _) = await asyncInDetachedTask(resolveAsync)
            Checks.expect(
                async == .failed(.mainActorRequired), "\(form), \(state): resolveAsync in Task.detached: \(async)")
        }
    }
    let message = await messageInDetachedTask { _ = try box.tryResolve(ScreenState.self) }
    Checks.expect(
        message.contains("'ScreenState'") && message.contains("not Sendable") && message.contains("main actor"),
        "the error says it is not Sendable and main-actor: \(message)")
    Checks.expect(ScreenState.madeOffMain.count == 0, "no ScreenState was made off the main actor")
    Checks.expect(
        ScreenState.madeOnMain.count == made.0 + 3 && Made.count("AppConfigurationImpl") == made.1 + 1,
        "only the main actor's resolves made instances (\(ScreenState.madeOnMain.count - made.0) ScreenState)")

    Checks.section("a main-actor service needed by a factory that runs off the main actor")
    let nested = DIContainer()
    nested.register {
        dashboardModule()
        Shared(Counter())
    }
    let dashboardInfo = nested.registrations.first { $0.typeName == "Dashboard" }
    Checks.expect(dashboardInfo?.isMainActor == false, "Dashboard's factory (nonisolated code) runs on any thread")
    let counters = Made.count("Counter")
    let detached = await inDetachedTask { _ = try nested.tryResolve(Dashboard.self) }
    Checks.expect(detached == .failed(.mainActorRequired), "Dashboard in Task.detached, Counter not made: \(detached)")
    let thread = await onDispatchThread { _ = try nested.tryResolve(Dashboard.self) }
    Checks.expect(thread == .failed(.mainActorRequired), "… on a Dispatch thread: \(thread)")
    let nestedMessage = await messageInDetachedTask { _ = try nested.tryResolve(Dashboard.self) }
    Checks.expect(
        nestedMessage.contains("'Counter'") && nestedMessage.contains("'Dashboard'")
            && nestedMessage.contains("prepare()") && nestedMessage.contains("resolveAsync")
            && nestedMessage.contains("@MainActor"),
        "the error names both services and the fixes: \(nestedMessage)")
    Checks.expect(Made.count("Counter") == counters, "… and nothing was made")

    // The fixes the message names: an async resolve, or prepare() first. The async resolve runs
    // Dashboard's synchronous nonisolated factory on the main actor, where Counter is made.
    let (async, dashboard) = await asyncInDetachedTask { try await nested.resolveAsync(Dashboard.self) }
    Checks.expect(
        async == .resolved && dashboard?.counter === nested.resolve(Counter.self)
            && Made.count("Counter") == counters + 1,
        "resolveAsync(Dashboard.self) in Task.detached, as the error advises, makes its Counter on the main "
            + "actor: \(async)")
    // Made on the main actor by the check above (now or then): the count below is relative.
    let countersBeforePrepare = Made.count("Counter")
    let prepared = DIContainer()
    prepared.register {
        dashboardModule()
        Shared(Counter())
    }
    let preparing = await Outcome.of { try await prepared.prepare() }
    Checks.expect(preparing == .resolved, "prepare(): \(preparing)")
    let (afterPrepare, preparedDashboard) = await valueInDetachedTask { try prepared.tryResolve(Dashboard.self) }
    Checks.expect(afterPrepare == .resolved, "after prepare(), Dashboard in Task.detached: \(afterPrepare)")
    Checks.expect(
        preparedDashboard?.counter === prepared.resolve(Counter.self)
            && Made.count("Counter") == countersBeforePrepare + 1,
        "… with the Counter prepare() made on the main actor")
}
