import CheckSupport
import DependencyInjection

// The no-regression rule the other way round: in a module without default isolation,
// nonisolated services registered from nonisolated code (`registerDependencies()`) resolve
// from any thread and task, each Shared made once.

Checks.section("first use of shared on a Dispatch thread runs registerDependencies() there")
let firstUse = await onDispatchThread { _ = try DIContainer.tryResolve(Checkout.self) }
Checks.expect(firstUse == .resolved, "Checkout (autowired) on a Dispatch thread: \(firstUse)")
Checks.expect(made.count("Warmup") == 1, "the eager Warmup was made when registerDependencies() registered it")
for info in DIContainer.shared.registrations {
    Checks.expect(!info.isMainActor, "\(info.typeName)\(info.name.map { " (\"\($0)\")" } ?? "") is not @MainActor")
}

/// Resolves every synchronous registration once, and checks what it got.
@Sendable func resolveEverything() throws {
    let checkout = try DIContainer.tryResolve(Checkout.self)
    guard checkout.logger === (try DIContainer.tryResolve(Logger.self)) else { throw Mismatch.sharedLogger }
    _ = try DIContainer.tryResolve(Engine.self)
    _ = try DIContainer.tryResolve(Printer.self)
    let model = try DIContainer.tryResolve(DetailViewModel.self, arguments: { "id" })
    let named = try DIContainer.tryResolve(ViewModelProtocol.self, name: "protocol", arguments: { "p" })
    guard model.id == "id", named.id == "p" else { throw Mismatch.arguments }
    guard try DIContainer.tryResolve(Router.self) === (try DIContainer.tryResolve(DeeplinkHandler.self)) else {
        throw Mismatch.aliases
    }
    _ = try DIContainer.tryResolve(Store.self, name: "primary")
    _ = try DIContainer.tryResolve(Store.self, name: "cache")
    _ = try DIContainer.tryResolve(ImageCache.self)
    let request = try DIContainer.tryResolve(Request.self)
    guard request.first === request.second else { throw Mismatch.graph }
    let parent = try DIContainer.tryResolve(Parent.self)
    guard parent.child?.parent === parent, parent.isWired else { throw Mismatch.onResolve }
    _ = try DIContainer.tryResolve(FeatureService.self)
    _ = try DIContainer.tryResolve(Warmup.self)
}

enum Mismatch: Error { case sharedLogger, arguments, aliases, graph, onResolve }

Checks.section("every form resolves on main, in detached tasks and on Dispatch threads, at once")
Checks.expect(Outcome.of(resolveEverything) == .resolved, "on the main actor")
let outcomes = await withTaskGroup(of: Outcome.self) { group in
    for index in 0..<16 {
        group.addTask {
            index.isMultiple(of: 2)
                ? await inDetachedTask(resolveEverything) : await onDispatchThread(resolveEverything)
        }
    }
    var outcomes: [Outcome] = []
    for await outcome in group { outcomes.append(outcome) }
    return outcomes
}
Checks.expect(
    outcomes.allSatisfy { $0 == .resolved }, "16 tasks and threads at once: \(Set(outcomes.map(\.description)))")
for shared in ["Engine", "PrintLogger", "LivePayments", "Checkout", "RouterImpl", "PostgresStore", "Parent", "Child"] {
    Checks.expect(made.count(shared) == 1, "\(shared) (Shared) was made exactly once")
}
Checks.expect(made.count("ReceiptPrinter") == 17, "New(ReceiptPrinter.init, as:) made one per resolve")

Checks.section("async factory (ConcurrencyAndActors article) from detached tasks")
let notYet = await inDetachedTask { _ = try DIContainer.tryResolve(RemoteConfig.self) }
Checks.expect(notYet == .failed(.notYetMade(actor: nil)), "before it is made: \(notYet)")
let (prepared, _) = await asyncInDetachedTask { try await DIContainer.prepare() }
Checks.expect(prepared == .resolved, "prepare() in a detached task: \(prepared)")
let config = await onDispatchThread { _ = try DIContainer.tryResolve(RemoteConfig.self) }
Checks.expect(config == .resolved, "synchronous resolve on a Dispatch thread once made: \(config)")
Checks.expect(made.count("RemoteConfig") == 1, "RemoteConfig.load ran once")

// A closure written in main-actor code (main.swift's top level) is main-actor code, whatever the
// type. Isolation follows the value (the ConcurrencyAndActors article): a value that is not Sendable made there never
// leaves the main actor (sync or async); a Sendable one is made on the main actor for a caller
// off it, and then handed out anywhere.
Checks.section("a nonisolated service registered in main-actor code (main.swift's top level)")
DIContainer.register {
    Shared(TopLevelService())
    Shared(HTTPClient()).named("topLevel")
}
let topLevel = DIContainer.shared.registrations.filter { $0.typeName == "TopLevelService" || $0.name == "topLevel" }
Checks.expect(
    topLevel.count == 2 && topLevel.allSatisfy(\.isMainActor),
    "main.swift's top level is main-actor code: the factories are @MainActor")
let offMain = await onDispatchThread { _ = try DIContainer.tryResolve(TopLevelService.self) }
Checks.expect(offMain == .failed(.mainActorRequired), "TopLevelService (not Sendable) on a Dispatch thread: \(offMain)")
let (async, _) = await asyncInDetachedTask { _ = try await DIContainer.resolveAsync(TopLevelService.self) }
Checks.expect(async == .failed(.mainActorRequired), "… resolveAsync in Task.detached: \(async)")
Checks.expect(made.count("TopLevelService") == 0, "… nothing was made")
_ = DIContainer.resolve(TopLevelService.self)
let madeAlready = await onDispatchThread { _ = try DIContainer.tryResolve(TopLevelService.self) }
Checks.expect(
    madeAlready == .failed(.mainActorRequired) && made.count("TopLevelService") == 1,
    "… made on main, it still does not leave the main actor: \(madeAlready)")
let clients = made.count("HTTPClient")
let (sendableOffMain, client) = await valueOnDispatchThread {
    try DIContainer.tryResolve(HTTPClient.self, name: "topLevel")
}
Checks.expect(sendableOffMain == .resolved, "Shared(HTTPClient()) (Sendable) on a Dispatch thread: \(sendableOffMain)")
Checks.expect(
    client === DIContainer.resolve(HTTPClient.self, name: "topLevel") && made.count("HTTPClient") == clients + 1,
    "… made once, the instance the main actor sees")

Checks.section("main.swift's top level: spellings, and the async factory line")
let spellings = DIContainer()
spellings.register {
    Shared { @Sendable in Engine() }.named("sendable")
    Shared(Engine(), isolation: nil).named("isolation: nil")
}
for info in spellings.registrations {
    Checks.emit("info  Shared(…).named(\"\(info.name ?? "")\") in main-actor code: isMainActor \(info.isMainActor)")
}
let anyThread = spellings.registrations.first { $0.name == "isolation: nil" }
Checks.expect(anyThread?.isMainActor == false, "Shared(Engine(), isolation: nil) runs on any thread")
let sendable = await onDispatchThread { _ = try spellings.tryResolve(Engine.self, name: "sendable") }
Checks.emit("info  Shared { @Sendable in Engine() } (main-actor code) on a Dispatch thread: \(sendable)")

let asyncBox = DIContainer()
asyncBox.register {
    Shared(HTTPClient())
    // The ConcurrencyAndActors article's async factory line, with `try resolve.tryResolve()` for `resolve()`, which traps with the same message.
    Shared { resolve async throws in try await RemoteConfig.load(client: resolve.tryResolve()) }
}
let mainActorClient = await Outcome.of { try await asyncBox.prepare() }
Checks.expect(
    mainActorClient == .resolved,
    "the async factory with its HTTPClient registered in main.swift (main-actor code): prepare() \(mainActorClient)")
let escape = DIContainer()
escape.register {
    Shared(HTTPClient(), isolation: nil)
    Shared { resolve async throws in try await RemoteConfig.load(client: resolve()) }
}
let escaped = await Outcome.of { try await escape.prepare() }
Checks.expect(escaped == .resolved, "… with Shared(HTTPClient(), isolation: nil): prepare() \(escaped)")

Checks.section("a main-actor type in a @MainActor global's initializer")
let globals = DIContainer()
globals.register {
    profileModule
    Modules.profile
}
for info in globals.registrations {
    let written = info.name == nil ? "@MainActor let profileModule" : "static let in a @MainActor enum"
    Checks.expectKnownIssue(info.isMainActor, "Shared(ProfileModel()) in \(written) is @MainActor")
}

Checks.finish("nonisolated consumer")
