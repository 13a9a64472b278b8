import CheckSupport
import DependencyInjection
import MainActorApp

// A module with default MainActor isolation (see Package.swift): top-level code and every type
// here are @MainActor unless marked otherwise. Exits non-zero if any check fails.

if let scenario = CommandLine.arguments.dropFirst().first {
    await runScenario(scenario)
}

Checks.section("registerDependencies() (nonisolated extension), first use of shared off the main actor")
// ProductionService is a main-actor class (Sendable): made on the main actor for the detached task.
let (firstUse, production) = await valueInDetachedTask { try DIContainer.tryResolve(ProductionService.self) }
Checks.expect(firstUse == .resolved, "first use in Task.detached: \(firstUse)")
Checks.expect(Made.count("ProductionService") == 1, "ProductionService was made once, on the main actor")
Checks.expect(production === DIContainer.resolve(ProductionService.self), "… the instance the main actor sees")
_ = DIContainer.resolve(Counter.self, name: "production")
Checks.expect(Made.count("ProductionService") == 1, "ProductionService is made once")

// The README's quick start at main.swift's top level (main-actor code), verbatim.
DIContainer.register {
    Shared(QuickConfigurationImpl() as QuickConfiguration)
    Shared { resolve in QuickRouterImpl(config: resolve()) as QuickRouter }
}
await checkQuickStart(registeredAtTopLevel: DIContainer.shared)

await checkMainActorServices()
await checkDocumentedForms()
await checkNotSendableServices()
await checkOverridesAndHousekeeping()

// The ConcurrencyAndActors article's global-actor line, verbatim.
@globalActor actor DatabaseActor { static let shared = DatabaseActor() }
DIContainer.register {
    Shared { @DatabaseActor in Database() }  // made on DatabaseActor (by prepare() or an async resolve)
}

Checks.section("global actor and async factories, then prepare()")
DIContainer.register(networkModule())
let notYet = Outcome.of { _ = try DIContainer.tryResolve(Database.self) }
Checks.expect(notYet == .failed(.notYetMade(actor: "DatabaseActor")), "Database before prepare(): \(notYet)")

// Async factories, made exactly once across tasks
DIContainer.register {
    Shared { resolve async throws in try await RemoteConfig.load(client: resolve()) }
}
let notLoaded = Outcome.of { _ = try DIContainer.tryResolve(RemoteConfig.self) }
Checks.expect(notLoaded == .failed(.notYetMade(actor: nil)), "RemoteConfig before prepare(): \(notLoaded)")
try await DIContainer.prepare()  // makes every async, eager and global-actor Shared (any container too)
let config = DIContainer.resolve(RemoteConfig.self)  // synchronous access once it is made

Checks.expect(config.source == "remote", "RemoteConfig is made by prepare()")
Checks.expect(RemoteConfig.loads.count == 1, "RemoteConfig.load ran once")
Checks.expect(await Database.made == 1, "Database was made once, on DatabaseActor")
let database = DIContainer.resolve(Database.self)
let databaseOffMain = await inDetachedTask { _ = try DIContainer.tryResolve(Database.self) }
Checks.expect(databaseOffMain == .resolved, "Database, once made, resolves off the main actor too")
_ = database

await checkAsyncFactories()
await checkAsyncFactoryOfMainActorDependency()

Checks.finish("main-actor consumer")
