import Hummingbird

/// The JSON body of `GET /greet` and `GET /slow`.
struct GreetingResponse: ResponseEncodable {
    /// The request's `X-Request-ID`, as the handler's ``CallContext`` saw it.
    let requestID: String
    /// The ``CallContext/id`` of the context the handler got.
    let contextID: Int
    let caller: String
    let greeting: String
    /// How many times this caller has been greeted, this one included.
    let visits: Int
}

/// Answers the greeting endpoints. The same type serves both versions of the server: the
/// container makes it (`New(GreetingHandler.init)`, every parameter resolved), and the hand-wired
/// version calls its initializer itself.
struct GreetingHandler {
    let context: CallContext
    let greeter: any Greeter
    let visits: VisitLog
    let settings: ServerSettings

    /// Greets the caller of this request.
    func greet() async -> GreetingResponse {
        GreetingResponse(
            requestID: context.requestID, contextID: context.id, caller: context.caller,
            greeting: greeter.greeting(for: context.caller), visits: await visits.record(context.caller))
    }

    /// Greets after ``ServerSettings/slowResponseDelay``: a request a client may abandon midway.
    /// The context stays alive while it waits.
    func greetSlowly() async throws -> GreetingResponse {
        try await Task.sleep(for: settings.slowResponseDelay)
        return await greet()
    }
}
