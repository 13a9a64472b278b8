import HTTPTypes
import Synchronization

/// Who is calling and which request this is: made once per request, from its headers.
///
/// In the container version it is `Scoped(.request)`: the request-scope middleware makes it when
/// the request's run begins, and everything the request resolves afterwards gets that same
/// instance. Its `id` comes from a process-wide counter, not from its address, so two requests
/// that got the same instance would show the same id even if the memory were reused.
final class CallContext: Sendable {
    /// This instance's number, unique in the process (the first context is 1).
    let id: Int
    /// The caller's `X-Request-ID`, echoed back so a client can match responses to requests.
    let requestID: String
    /// The caller's `X-Caller`, or `anonymous`.
    let caller: String

    /// How many contexts exist now: after the requests end, this must be zero again.
    static var liveCount: Int { live.load(ordering: .relaxed) }
    /// How many contexts were made since the process started.
    static var madeCount: Int { made.load(ordering: .relaxed) }

    private static let made = Atomic<Int>(0)
    private static let live = Atomic<Int>(0)

    /// A context for the request with these headers.
    init(headers: HTTPFields) {
        id = Self.made.add(1, ordering: .relaxed).newValue
        Self.live.add(1, ordering: .relaxed)
        requestID = headers[.requestID] ?? "none"
        caller = headers[.caller] ?? "anonymous"
    }

    deinit { Self.live.subtract(1, ordering: .relaxed) }
}

extension HTTPField.Name {
    /// The client's id for its request, echoed in the response body.
    static let requestID = Self("X-Request-ID")!
    /// Who calls (a client's name).
    static let caller = Self("X-Caller")!
    /// The id of the request-scoped ``CallContext`` that the request-scope middleware made.
    static let contextID = Self("X-Context-ID")!
}
