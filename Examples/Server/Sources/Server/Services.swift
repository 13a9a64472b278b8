import Logging

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Settings the service needs before it serves: loaded once, asynchronously, at startup.
///
/// A deployment would fetch them from a settings service; this example reads the environment
/// behind the same `async` interface, so the container has an async factory to `prepare()`.
struct ServerSettings: Sendable {
    /// The first word of every greeting (`GREETING`, default `Hello`).
    let greeting: String
    /// How long `GET /slow` takes (`SLOW_RESPONSE_MS`, default 2000): long enough for a client
    /// to hang up while its request is still running.
    let slowResponseDelay: Duration

    /// Loads the settings (see the type's comment for why this is `async`).
    static func load() async throws -> ServerSettings {
        try Task.checkCancellation()
        let milliseconds = environment("SLOW_RESPONSE_MS").flatMap { Int($0) } ?? 2000
        return ServerSettings(
            greeting: environment("GREETING") ?? "Hello", slowResponseDelay: .milliseconds(milliseconds))
    }

    private static func environment(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
}

/// How many times each caller has been greeted: state shared by every request, kept by an actor.
actor VisitLog {
    private var visits: [String: Int] = [:]

    /// Counts one more visit of `caller` and returns how many there were so far.
    func record(_ caller: String) -> Int {
        visits[caller, default: 0] += 1
        return visits[caller]!
    }
}

/// Makes greetings.
protocol Greeter: Sendable {
    /// The greeting for `caller`.
    func greeting(for caller: String) -> String
}

/// Greets with the word from the settings.
struct SettingsGreeter: Greeter {
    let settings: ServerSettings

    func greeting(for caller: String) -> String { "\(settings.greeting), \(caller)!" }
}

/// A ``Greeter`` that logs each greeting it makes (at debug level) and forwards to another one.
///
/// The container version adds it with `Decorate(Greeter.self)`, so nothing that uses a `Greeter`
/// knows it is there; the hand-wired version wraps the greeter itself.
struct LoggingGreeter: Greeter {
    let wrapped: any Greeter
    let logger: Logger

    init(_ wrapped: any Greeter, logger: Logger) { (self.wrapped, self.logger) = (wrapped, logger) }

    func greeting(for caller: String) -> String {
        let greeting = wrapped.greeting(for: caller)
        logger.debug("Greeted", metadata: ["caller": "\(caller)"])
        return greeting
    }
}
