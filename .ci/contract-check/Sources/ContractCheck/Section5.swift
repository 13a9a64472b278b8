import DependencyInjection
import Foundation

// The API contract's lines for isolation, validate(), scopes, resolveAll, decorators and factory
// closures, verbatim: every line of that code block but the `@Test` ones (in the test target),
// with the declarations of the types it mentions. Statements are in functions (this is not
// main.swift); `checkSection5()` runs them and checks what their comments promise.

// MARK: 5a. Isolation follows the value: a Sendable service registered in main-actor code resolves anywhere.

// 5a. Where a registration is written does not decide, silently, where its Sendable service may
// be resolved; a non-Sendable value made by main-actor (or other actor-isolated) code never leaves
// that actor through the container.
protocol SecureStore: AnyObject, Sendable {}
final class KeychainStore: SecureStore { init() {} }
final class Presenter: Sendable {
    let id: String
    init(id: String) { self.id = id }
}
/// Not Sendable (mutable state, nonisolated class).
final class ScreenState {
    var title = ""
    init() {}
}

@MainActor func applicationDidLaunch() {  // an app delegate's init, main.swift, a @MainActor test
    DIContainer.register {
        Shared(KeychainStore() as SecureStore)  // Sendable: resolvable anywhere
        New { _, id in Presenter(id: id) }  // Presenter: Sendable
        Shared(ScreenState())  // not Sendable: main actor only, as today
    }
}

/// The isolation lines' three resolutions, run in a detached task.
func resolveOnAnyThread() throws -> (store: SecureStore, presenter: Presenter) {
    // ... later, on any thread or actor:
    let store = DIContainer.resolve(SecureStore.self)  // works
    let presenter = DIContainer.resolve(Presenter.self, arguments: { "42" })  // works
    do {
        let state = try DIContainer.tryResolve(ScreenState.self)  // off the main actor: throws, naming the fix
        _ = state
        check(false, "isolation: ScreenState (not Sendable, registered on the main actor) resolved off the main actor")
    } catch let error as ResolutionError {
        check(
            error.description.contains("'ScreenState'") && error.description.contains("To fix, "),
            "isolation: tryResolve(ScreenState.self) off the main actor throws, naming it and the fix:\n\(error)")
    }
    return (store, presenter)
    // A main-actor type (explicit @MainActor, or any type of a module with default MainActor
    // isolation) is still never *made* off the main actor.
}

// MARK: 5b. validate() reports wiring problems.

// 5b. validate() checks every registration, wherever it is called from: plain ones, main-actor
// ones, global-actor ones and async ones; only registrations that need arguments stay unchecked.
// (`let report = DIContainer.validate()` and `#expect(report.isValid, "\(report)")` are in the test target.)
// Besides missing dependencies, cycles and failing factories, report.problems lists:
// - lifetime mismatches: a Shared (or Weak, or Scoped) service that depends on a Graph or
//   Scoped service it would outlive, naming both and both lifetimes;
// - isolation conflicts: a registration that runs on any thread and needs a main-actor or
//   global-actor service, naming both;
// - the same type and name registered twice in one register call or Module.
// A trap from resolve() or a property wrapper names the caller's file and line.
// (Not checked here: a trap ends the process.)

/// Plain, global-actor, async and argument-taking registrations, from nonisolated code.
func registerEveryKind(in container: DIContainer) {
    container.register {
        Shared(HTTPClient())
        Shared { @DatabaseActor in Database() }
        Shared { resolve async throws in try await RemoteConfig.load(client: resolve()) }
        New { _, id in Presenter(id: id) }
    }
}

/// Kept by a Shared service, it would outlive the session it holds (a lifetime mismatch).
final class SignOutObserver { init(session: UserSession) {} }
/// Kept by a Weak or a Scoped service, it would outlive the one resolution (Graph) it belongs to.
final class SessionHolder { init(session: Session) {} }
final class ScopedSessionHolder { init(session: Session) {} }
/// Registered in nonisolated code (runs on any thread) but needs the main actor's ScreenState.
final class StateObserver { init(state: ScreenState) {} }

@MainActor func registerScreenState(in container: DIContainer) {
    container.register { Shared(ScreenState()) }
}

func registerStateObserver(in container: DIContainer) {
    container.register { Shared { resolve in StateObserver(state: resolve()) } }
}

// MARK: 5c. Custom scopes.

// 5c. Custom scopes: instances kept until their scope is released (a signed-in user's session).
extension DIScope { static let session = DIScope("session") }
final class UserSession { init() {} }
protocol Cart: AnyObject { var session: UserSession { get } }
final class CartImpl: Cart {
    let session: UserSession
    init(session: UserSession) { self.session = session }
}

// A scope per unit of work, bound to the task (a server's request): inside, Scoped(.request)
// services are made once per run and released when it returns; concurrent runs never share them.
extension DIScope { static let request = DIScope("request") }
struct Request: Sendable { let path: String }
struct Response: Sendable {
    let handler: UUID
    let context: UUID
    /// Whether what the run resolved inside `handle` (the handler, its context) is the run's own.
    let sameInstancesInside: Bool
}
final class RequestContext: Sendable {
    let id = UUID()
    init() {}
}
final class RequestHandler: Sendable {
    let id = UUID()
    let context: RequestContext
    init(context: RequestContext) { self.context = context }

    func handle(_ request: Request) async throws -> Response {
        try await Task.sleep(nanoseconds: 2_000_000)  // let concurrent runs overlap
        let sameInside =
            DIContainer.resolve(RequestHandler.self) === self && DIContainer.resolve(RequestContext.self) === context
        return Response(handler: id, context: context.id, sameInstancesInside: sameInside)
    }
}

// MARK: 5d. resolveAll and @InjectAll.

final class ConsoleTracker: Tracker { init() {} }
final class RemoteTracker: Tracker { init() {} }
final class DefaultTracker: Tracker { init() {} }
final class ChildRemoteTracker: Tracker { init() {} }
final class Analytics { @InjectAll var trackers: [Tracker] }

// MARK: 5e. Decorators.

final class LoggingPayments: Payments {
    let wrapped: Payments
    let logger: Logger
    init(_ payments: Payments, logger: Logger) { (wrapped, self.logger) = (payments, logger) }
}

// MARK: 5f. Factories as dependencies.

final class DetailViewModel: Sendable {
    let id: String
    init(id: String) { self.id = id }
}
final class ListViewModel {
    let makeDetail: @Sendable (String) -> DetailViewModel
    init(makeDetail: @escaping @Sendable (String) -> DetailViewModel) { self.makeDetail = makeDetail }
}

// MARK: - Running the lines

/// Runs these lines and checks what their comments promise; `DIContainer.shared` is reset first.
@MainActor func checkSection5() async throws {
    try await checkIsolation()
    try await checkValidate()
    checkSessionScope()
    try await checkRequestScope()
    checkResolveAll()
    checkDecorate()
    checkFactory()
}

@MainActor func checkIsolation() async throws {
    DIContainer.reset()
    applicationDidLaunch()
    let offMain = try await Task.detached { try resolveOnAnyThread() }.value
    check(offMain.presenter.id == "42", "isolation: Presenter (Sendable) resolved off the main actor with its argument")
    check(
        DIContainer.resolve(SecureStore.self) === offMain.store,
        "isolation: SecureStore (Sendable, Shared) resolved off the main actor is the one instance")
    check(DIContainer.resolve(ScreenState.self).title == "", "isolation: ScreenState still resolves on the main actor")
    DIContainer.reset()
}

@MainActor func checkValidate() async throws {
    // A healthy graph: valid, from the main actor and from elsewhere.
    let healthy = DIContainer()
    registerScreenState(in: healthy)
    healthy.register {
        Shared(KeychainStore() as SecureStore)
        Scoped(.session, UserSession.init)
        Scoped(.session) { resolve in CartImpl(session: resolve()) as Cart }
    }
    let healthyReport = await healthy.validate()
    check(
        healthyReport.isValid && healthyReport.validCount == 4, "validate: a healthy graph is valid:\n\(healthyReport)")
    let healthyOffMain = await Task.detached { healthy.validate() }.value
    check(
        healthyOffMain.isValid && healthyOffMain.validCount == 4,
        "validate: validate() off the main actor checks the main-actor registration too:\n\(healthyOffMain)")

    // Every kind of registration is checked, from the main actor and from elsewhere; only the one
    // that needs arguments stays unchecked.
    let everyKind = DIContainer()
    registerEveryKind(in: everyKind)
    registerScreenState(in: everyKind)  // main-actor, not Sendable
    for (report, caller) in [
        (await everyKind.validate(), "the main actor"),
        (await Task.detached { everyKind.validate() }.value, "elsewhere"),
    ] {
        check(
            report.isValid && report.validCount == 4 && report.unchecked.count == 1
                && report.unchecked[0].registration.contains("Presenter"),
            "validate: validate() from \(caller) checks plain, main-actor, global-actor and async registrations:\n\(report)"
        )
    }

    // A lifetime mismatch: a Shared service keeps a Scoped one (the sign-out case).
    let lifetimes = DIContainer()
    lifetimes.register {
        Scoped(.session, UserSession.init)
        Shared(SignOutObserver.init)
        Graph(Session.init)
        Weak(SessionHolder.init)
        Scoped(.session, ScopedSessionHolder.init)
    }
    let lifetimesReport = await lifetimes.validate()
    let mismatches = lifetimesReport.problems.filter {
        if case .lifetimeMismatch = $0.error.reason { true } else { false }
    }
    let mismatch = mismatches.first { $0.registration.contains("SignOutObserver") }
    check(!lifetimesReport.isValid, "validate: a lifetime mismatch makes the report invalid:\n\(lifetimesReport)")
    check(
        mismatch.map {
            let text = $0.error.description
            return text.contains("SignOutObserver") && text.contains("UserSession") && text.contains("Shared")
                && text.contains("Scoped")
        } ?? false,
        "validate: report.problems lists the lifetime mismatch, naming both and both lifetimes:\n\(lifetimesReport)")
    let holders = ["SessionHolder", "ScopedSessionHolder"].map { holder in
        mismatches.contains {
            $0.registration == holder && $0.error.description.contains("'Session' (Graph")
        }
    }
    check(
        mismatches.count == 3 && holders == [true, true],
        "validate: a Weak and a Scoped service that keep a Graph one are lifetime mismatches too:\n\(lifetimesReport)")

    // An isolation conflict: a registration that runs on any thread needs the main actor's ScreenState.
    let isolation = DIContainer()
    registerScreenState(in: isolation)
    registerStateObserver(in: isolation)
    let isolationReport = await Task.detached { isolation.validate() }.value
    let conflict = isolationReport.problems.first {
        if case .isolationConflict = $0.error.reason { true } else { false }
    }
    check(!isolationReport.isValid, "validate: an isolation conflict makes the report invalid:\n\(isolationReport)")
    check(
        conflict.map {
            $0.error.description.contains("StateObserver") && $0.error.description.contains("ScreenState")
        } ?? false,
        "validate: report.problems lists the isolation conflict, naming both:\n\(isolationReport)")
    let isolationOnMain = await isolation.validate()
    check(
        isolationOnMain.problems.contains {
            if case .isolationConflict = $0.error.reason { true } else { false }
        },
        "validate: validate() on the main actor reports the isolation conflict too:\n\(isolationOnMain)")

    // The same type and name twice in one register call, and in one Module.
    let duplicates = DIContainer()
    duplicates.register {
        Shared(Engine.init)
        Shared(Engine.init)
    }
    duplicates.register(
        Module {
            Shared(MemoryStore.init, as: Store.self).named("cache")
            Shared(PostgresStore.init, as: Store.self).named("cache")
        })
    let duplicatesReport = await duplicates.validate()
    let duplicated = duplicatesReport.problems.filter {
        if case .duplicateRegistration = $0.error.reason { true } else { false }
    }
    check(
        !duplicatesReport.isValid && duplicated.count == 2
            && duplicated.contains { $0.registration.contains("Engine") }
            && duplicated.contains { $0.registration.contains("Store") && $0.registration.contains("cache") },
        "validate: report.problems lists both duplicates (in a register call and in a Module):\n\(duplicatesReport)")
}

@MainActor func checkSessionScope() {
    DIContainer().activate {
        DIContainer.register {
            Scoped(.session, UserSession.init)
            Scoped(.session) { resolve in CartImpl(session: resolve()) as Cart }
        }
        let session = DIContainer.resolve(UserSession.self)
        let cart = DIContainer.resolve(Cart.self)
        // (Booleans computed first: Swift 6.3's region analysis rejects a non-Sendable value in `&&`'s autoclosure.)
        let sameSession = DIContainer.resolve(UserSession.self) === session
        let sameCart = DIContainer.resolve(Cart.self) === cart
        check(sameSession && sameCart, "scopes: Scoped(.session) instances are kept until the scope is released")
        check(cart.session === session, "scopes: the Cart got the session's UserSession")
        DIContainer.releaseInstances(in: .session)  // sign-out: the next resolve makes new ones
        let nextSession = DIContainer.resolve(UserSession.self)
        let nextCart = DIContainer.resolve(Cart.self)
        let newSession = nextSession !== session
        let newCart = nextCart !== cart
        let newCartHasNewSession = nextCart.session === nextSession
        check(
            newSession && newCart && newCartHasNewSession,
            "scopes: after releaseInstances(in: .session) the next resolve makes new ones")
        DIContainer.releaseInstances(in: .request)
        check(
            DIContainer.resolve(UserSession.self) === nextSession,
            "scopes: releaseInstances(in:) of another scope keeps the session's instances")
    }
}

func checkRequestScope() async throws {
    let server = DIContainer()
    server.register {
        Scoped(.request, RequestContext.init)
        Scoped(.request, RequestHandler.init)
    }
    try await server.activate {
        let request = Request(path: "/checkout")
        let outside = DIContainer.resolve(RequestHandler.self)
        let response = try await DIContainer.withScope(.request) {
            try await DIContainer.resolve(RequestHandler.self).handle(request)
        }
        check(response.sameInstancesInside, "scopes: inside withScope(.request), a run sees its own instances")
        check(response.handler != outside.id, "scopes: a run's RequestHandler is its own, not the container's")
        check(
            DIContainer.resolve(RequestHandler.self) === outside,
            "scopes: outside any withScope, the container keeps its Scoped(.request) instance")
        let second = try await DIContainer.withScope(.request) {
            try await DIContainer.resolve(RequestHandler.self).handle(request)
        }
        check(
            second.handler != response.handler && second.context != response.context,
            "scopes: each withScope(.request) run has its own instances")
        let concurrent = try await withThrowingTaskGroup(of: Response.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    try await DIContainer.withScope(.request) {
                        try await DIContainer.resolve(RequestHandler.self).handle(request)
                    }
                }
            }
            var responses: [Response] = []
            for try await response in group { responses.append(response) }
            return responses
        }
        check(
            concurrent.allSatisfy(\.sameInstancesInside) && Set(concurrent.map(\.handler)).count == 8
                && Set(concurrent.map(\.context)).count == 8,
            "scopes: 8 concurrent withScope(.request) runs never share an instance")
    }
    // Released when the run returns (a synchronous run, on a container of our own).
    weak var released: RequestHandler?
    server.withScope(.request) {
        let handler = server.resolve(RequestHandler.self)
        released = handler
        check(released != nil && DIContainer.resolve(RequestHandler.self) === handler, "scopes: a sync run works too")
    }
    check(released == nil, "scopes: a run's instances are released when withScope returns")
}

/// The trackers' class names, in order.
func trackerKinds(_ trackers: [Tracker]) -> [String] { trackers.map { "\(type(of: $0))" } }

@MainActor func checkResolveAll() {
    let plugins = DIContainer()
    plugins.activate {
        check(DIContainer.resolveAll(Tracker.self).isEmpty, "resolveAll: resolveAll with nothing registered is []")
        // 5d. Every registration of a type, in registration order (plugins, trackers, middleware).
        DIContainer.register {
            Shared(ConsoleTracker.init, as: Tracker.self).named("console")
            Shared(RemoteTracker.init, as: Tracker.self).named("remote")
        }
        DIContainer.register(Shared(DefaultTracker() as Tracker))  // unnamed, registered last
        let trackers: [Tracker] = DIContainer.resolveAll(Tracker.self)
        check(
            trackerKinds(trackers) == ["DefaultTracker", "ConsoleTracker", "RemoteTracker"],
            "resolveAll: resolveAll gives the unnamed registration first, then the named in registration order: \(trackers)"
        )
        let injected = Analytics().trackers
        check(
            trackerKinds(injected) == ["DefaultTracker", "ConsoleTracker", "RemoteTracker"],
            "resolveAll: @InjectAll var trackers: [Tracker] gets the same, in the same order: \(injected)")
        check(
            (injected[1] as? ConsoleTracker) === (trackers[1] as? ConsoleTracker),
            "resolveAll: resolveAll serves the Shared instances")
    }
    let child = DIContainer(parent: plugins)
    child.register(Shared(ChildRemoteTracker() as Tracker).named("remote"))
    let childTrackers = child.resolveAll(Tracker.self)
    check(
        trackerKinds(childTrackers).sorted() == ["ChildRemoteTracker", "ConsoleTracker", "DefaultTracker"],
        "resolveAll: a child's registration shadows its parent's of the same name: \(childTrackers)")
}

@MainActor func checkDecorate() {
    DIContainer().activate {
        DIContainer.register {
            Shared(LivePayments() as Payments)
            Shared(LivePayments() as Payments).named("backup")
            Shared(PrintLogger() as Logger)
        }
        // 5e. Decorators: wrap what a registration makes, from any module.
        DIContainer.register {
            Decorate(Payments.self) { payments, resolve in LoggingPayments(payments, logger: resolve()) }
        }
        let payments = DIContainer.resolve(Payments.self)
        check(
            (payments as? LoggingPayments)?.wrapped is LivePayments,
            "Decorate: Decorate(Payments.self) wraps the registration's instance, once: \(payments)")
        check(
            (DIContainer.resolve(Payments.self) as? LoggingPayments) === (payments as? LoggingPayments),
            "Decorate: a Shared is decorated once, when made")
        check(
            (DIContainer.resolve(Payments.self, name: "backup") as? LoggingPayments)?.wrapped is LivePayments,
            "Decorate: the decorator applies to every name")
    }
}

@MainActor func checkFactory() {
    DIContainer.reset()
    DIContainer.register(New { _, id in DetailViewModel(id: id) })
    // 5f. Factories as dependencies (assisted injection): a closure that resolves with arguments,
    // from the container it came from.
    let makeDetail = DIContainer.factory(DetailViewModel.self, arguments: String.self)
    let detail = makeDetail("42")  // resolves DetailViewModel with the argument "42"
    DIContainer.register {
        Shared { resolve in ListViewModel(makeDetail: resolve.factory(DetailViewModel.self, arguments: String.self)) }
    }
    check(detail.id == "42", "factories: makeDetail(\"42\") resolves DetailViewModel with the argument \"42\"")
    check(makeDetail("42") !== detail, "factories: the closure resolves anew on each call (a New registration)")
    let list = DIContainer.resolve(ListViewModel.self)
    check(
        list.makeDetail("7").id == "7", "factories: resolve.factory(_:arguments:) in a factory gives a working closure")

    // From the container it came from: made while `app` is current, it resolves from `app` afterwards.
    let app = DIContainer()
    app.register(New { _, id in DetailViewModel(id: "app " + id) })
    let makeInApp = app.activate { DIContainer.factory(DetailViewModel.self, arguments: String.self) }
    let appList = app.activate {
        DIContainer.register {
            Shared { resolve in ListViewModel(makeDetail: resolve.factory(DetailViewModel.self, arguments: String.self))
            }
        }
        return DIContainer.resolve(ListViewModel.self)
    }
    check(makeInApp("1").id == "app 1", "factories: DIContainer.factory resolves from the container it came from")
    check(appList.makeDetail("2").id == "app 2", "factories: resolve.factory resolves from the container it came from")
    DIContainer.reset()
}
