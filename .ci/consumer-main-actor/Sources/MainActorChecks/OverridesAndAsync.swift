import CheckSupport
import DependencyInjection
import MainActorApp

/// Overrides, registration off the main actor, validation and housekeeping of main-actor services.
func checkOverridesAndHousekeeping() async {
    Checks.section("withOverrides, tryRegister, validate, unregister")
    let production = DIContainer.resolve(Counter.self, name: "production")
    let overridden = DIContainer.withOverrides {
        Shared(Counter()).named("production")
    } operation: {
        DIContainer.resolve(Counter.self, name: "production")
    }
    Checks.expect(overridden !== production, "withOverrides (sync) makes the override on main")
    let (overrideOnMain, detachedGot, childGot) = await DIContainer.withOverrides {
        Shared(Counter()).named("production")
    } operation: { () async -> (Counter, Counter?, Counter?) in
        // A detached task does not inherit the task-local binding: it sees `shared`. A child of
        // this task does: the main actor makes the override's Counter for it, in the override.
        let (_, detached) = await valueInDetachedTask { try DIContainer.tryResolve(Counter.self, name: "production") }
        let (_, child) = await resolveOffMainInChildTask {
            try DIContainer.tryResolve(Counter.self, name: "production")
        }
        return (DIContainer.resolve(Counter.self, name: "production"), detached, child)
    }
    Checks.expect(overrideOnMain !== production, "withOverrides (async) makes the override on main")
    Checks.expect(detachedGot === production, "withOverrides (async): a detached task sees shared, not the override")
    Checks.expect(
        childGot === overrideOnMain,
        "withOverrides (async): a child task off main gets the override's instance (the hop keeps the binding)")
    Checks.expect(DIContainer.resolve(Counter.self, name: "production") === production, "overrides undo themselves")

    // An eager main-actor Shared registered off the main actor is left to prepare().
    let eagerBox = DIContainer()
    let warmups = Made.count("Warmup")
    let eager = await inDetachedTask { try eagerBox.tryRegister(Shared(Warmup.init).eager()) }
    Checks.expect(eager == .resolved, "tryRegister of an eager main-actor Shared off main: \(eager)")
    Checks.expect(
        eagerBox.registrations.count == 1 && Made.count("Warmup") == warmups,
        "… registered, and not made off the main actor")
    let prepared = await Outcome.of { try await eagerBox.prepare() }
    Checks.expect(prepared == .resolved && Made.count("Warmup") == warmups + 1, "… prepare() made it: \(prepared)")
    let (eagerOffMain, warmup) = await valueInDetachedTask { try eagerBox.tryResolve(Warmup.self) }
    Checks.expect(
        eagerOffMain == .resolved && warmup === eagerBox.resolve(Warmup.self) && Made.count("Warmup") == warmups + 1,
        "… and it is the one instance, off main too: \(eagerOffMain)")

    let aliases = DIContainer()
    let first = await inDetachedTask { try aliases.tryRegister(Shared(FirstGreeter.init, as: Greeter.self)) }
    Checks.expect(first == .resolved, "tryRegister(Shared(FirstGreeter.init, as: Greeter.self)) off main: \(first)")
    let second = await inDetachedTask { try aliases.tryRegister(Shared(SecondGreeter.init, as: Greeter.self)) }
    Checks.expect(
        second == .resolved,
        "tryRegister(Shared(SecondGreeter.init, as: Greeter.self)) off main (a main-actor-isolated conformance): \(second)"
    )
    let secondOnMain = Outcome.of { try aliases.tryRegister(Shared(SecondGreeter.init, as: Greeter.self)) }
    Checks.expect(secondOnMain == .resolved, "… the same registration on main: \(secondOnMain)")
    Checks.expect(aliases.resolve(Greeter.self).greeting == "hi", "… resolves as Greeter on main")
    let wrong = DIContainer()
    let wrongOffMain = await inDetachedTask { try wrong.tryRegister(Shared(Warmup.init, as: Greeter.self)) }
    let wrongOnMain = Outcome.of { _ = try wrong.tryResolve(Greeter.self) }
    Checks.expect(
        wrongOffMain == .resolved && wrongOnMain == .failed(.aliasNotConforming(implementation: "Warmup")),
        "a main-actor Shared(Warmup.init, as: Greeter.self) registered off main is refused when resolved on main: "
            + "\(wrongOffMain), \(wrongOnMain)")

    let box = DIContainer()
    box.register { everyForm() }
    let report = await box.validate()
    Checks.expect(report.isValid, "validate() of main-actor registrations is valid")
    Checks.expect(
        report.validCount > 0 && report.validCount + report.unchecked.count == box.registrations.count,
        "validate() checks main-actor registrations on the main actor: \(report.validCount) resolved, "
            + "\(report.unchecked.count) not checked (arguments, or closures that cannot unwind)")
    Checks.expect(box.dependencyGraph().contains("digraph"), "dependencyGraph() renders")

    let removed: Bool = box.unregister(Clock.self)
    Checks.expect(removed && !box.unregister(Clock.self), "unregister returns true, then false")
    box.releaseInstances()
    box.reset()
    Checks.expect(box.registrations.isEmpty, "reset() forgets every registration")
}

/// Runs `body` in a child task of the caller's (it inherits the task-local bindings) off the
/// main actor; returns how it ended and what it returned.
@concurrent nonisolated func resolveOffMainInChildTask<Value: Sendable>(
    _ body: @escaping @Sendable () throws -> Value
) async -> (Outcome, Value?) {
    async let result = { () async -> (Outcome, Value?) in
        isOnMainQueue() ? (.ranOnMainActor, nil) : Outcome.value(of: body)
    }()
    return await result
}

/// Async and global-actor factories in containers of their own.
func checkAsyncFactories() async {
    Checks.section("async and global-actor factories")
    let box = DIContainer()
    box.register {
        networkModule()
        Shared { resolve async throws in try await RemoteConfig.load(client: resolve()) }
        Shared { @DatabaseActor in Database() }
    }
    let loadsBefore = RemoteConfig.loads.count
    let databasesBefore = await Database.made
    let outcomes = await withTaskGroup(of: Outcome.self) { group in
        for index in 0..<20 {
            group.addTask {
                let (configOutcome, _) = await asyncInDetachedTask { try await box.resolveAsync(RemoteConfig.self) }
                let (databaseOutcome, _) = await asyncInDetachedTask { try await box.resolveAsync(Database.self) }
                return index.isMultiple(of: 2) ? configOutcome : databaseOutcome
            }
        }
        var outcomes: [Outcome] = []
        for await outcome in group { outcomes.append(outcome) }
        return outcomes
    }
    Checks.expect(outcomes.allSatisfy { $0 == .resolved }, "20 concurrent resolveAsync calls resolved")
    Checks.expect(RemoteConfig.loads.count == loadsBefore + 1, "the async Shared was made exactly once across tasks")
    Checks.expect(await Database.made == databasesBefore + 1, "the DatabaseActor Shared was made exactly once")

    let prepared = DIContainer()
    prepared.register {
        networkModule()
        Shared { resolve async throws in try await RemoteConfig.load(client: resolve()) }
        Shared { @DatabaseActor in Database() }
        Shared(Warmup.init)
    }
    do {
        try await prepared.prepare()
        Checks.expect(prepared.resolve(RemoteConfig.self).source == "remote", "box.prepare() made the async Shared")
        let database = await inDetachedTask { _ = try prepared.tryResolve(Database.self) }
        Checks.expect(database == .resolved, "box.prepare() made the DatabaseActor Shared")
    } catch {
        Checks.expect(false, "box.prepare() threw \(error)")
    }
}

/// The ConcurrencyAndActors article's async factory line in an app whose client is registered in main-actor code.
func checkAsyncFactoryOfMainActorDependency() async {
    Checks.section("an async factory whose dependency is registered in main-actor code")
    let box = DIContainer()
    box.register {
        Shared(AppHTTPClient())
        // The article's line, with `try resolve.tryResolve()` for `resolve()` so that a failure throws
        // (`resolve()` traps with the same message).
        Shared { resolve async throws in try await AppRemoteConfig.load(client: resolve.tryResolve()) }
    }
    let onMain = await Outcome.of { _ = try await box.resolveAsync(AppRemoteConfig.self) }
    Checks.expect(onMain == .resolved, "resolveAsync on main of the async factory: \(onMain)")
    let prepared = await Outcome.of { try await box.prepare() }
    Checks.expect(prepared == .resolved, "prepare() of the async factory: \(prepared)")

    let explicit = DIContainer()
    explicit.register {
        Shared(AppHTTPClient())
        Shared { @MainActor resolve async throws in try await AppRemoteConfig.load(client: resolve()) }
    }
    let fromDetached = await asyncInDetachedTask { try await explicit.resolveAsync(AppRemoteConfig.self) }
    Checks.expect(fromDetached.0 == .resolved, "{ @MainActor resolve async throws in … }: resolveAsync off main")
    Checks.expect(explicit.resolve(AppRemoteConfig.self).madeOnMainQueue, "… made on the main actor")
}
