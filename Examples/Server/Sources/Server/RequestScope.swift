import DependencyInjection
import Hummingbird

extension DIScope {
    /// One HTTP request: `Scoped(.request)` services are made once per request and released when
    /// it has been answered. Run-only: resolving one outside a request (a task that outlives its
    /// request, say) is an error naming the scope, never an instance shared by every request.
    static let request = DIScope("request", requiresRun: true)
}

/// Runs each request in a run of the ``DependencyInjection/DIScope/request`` scope of its own,
/// and makes the request's ``CallContext`` from its headers as the run begins.
///
/// The context is `Scoped(.request)` with an argument (the headers): the first resolve, here,
/// makes it; every later resolve in the same run, without arguments, gets that instance. The
/// response carries its id in `X-Context-ID`, so a client can check that the handler saw the
/// very context the middleware made.
struct RequestScopeMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        try await DIContainer.withScope(.request) {
            let callContext = DIContainer.resolve(CallContext.self, arguments: { request.headers })
            var response = try await next(request, context)
            response.headers[.contextID] = String(callContext.id)
            return response
        }
    }
}
