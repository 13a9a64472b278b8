import DependencyInjection
import Hummingbird
import Logging

/// The two ways the server gets its handlers: from the container, or built by hand. The routes,
/// the handler and the services are the same; only the wiring differs, so the cost of the
/// container can be measured.
enum Wiring: CustomStringConvertible {
    /// Services registered once, `prepare()`d before serving, and a request scope per request.
    case container
    /// The same objects constructed directly by the routes (`--hand-wired`).
    case handWired

    var description: String {
        switch self {
        case .container: "container"
        case .handWired: "hand-wired"
        }
    }

    /// The greeting routes, wired this way.
    func addGreetingRoutes(to router: Router<BasicRequestContext>, logger: Logger) async throws {
        switch self {
        case .container:
            Self.registerServices(logger: logger)
            // The async settings (and every Shared service) are made now, not by the first request.
            try await DIContainer.prepare()
            let scoped = router.group().add(middleware: RequestScopeMiddleware())
            scoped.get("greet") { _, _ in await DIContainer.resolve(GreetingHandler.self).greet() }
            scoped.get("slow") { _, _ in try await DIContainer.resolve(GreetingHandler.self).greetSlowly() }
        case .handWired:
            let settings = try await ServerSettings.load()
            let greeter = LoggingGreeter(SettingsGreeter(settings: settings), logger: logger)
            let visits = VisitLog()
            let handler: @Sendable (Request) -> GreetingHandler = { request in
                GreetingHandler(
                    context: CallContext(headers: request.headers), greeter: greeter, visits: visits,
                    settings: settings)
            }
            router.get("greet") { request, _ in await handler(request).greet() }
            router.get("slow") { request, _ in try await handler(request).greetSlowly() }
        }
    }

    /// Registers the services, once, at startup.
    private static func registerServices(logger: Logger) {
        DIContainer.register {
            Shared(logger)
            Shared { _ async throws in try await ServerSettings.load() }
            Shared(VisitLog())
            Shared { resolve in SettingsGreeter(settings: resolve()) as Greeter }
            Decorate(Greeter.self) { greeter, resolve in LoggingGreeter(greeter, logger: resolve()) }
            // Made by RequestScopeMiddleware from the request's headers; later resolves in the
            // same request get that instance.
            Scoped(.request) { (_, headers: HTTPFields) in CallContext(headers: headers) }
            New(GreetingHandler.init)
        }
    }
}
