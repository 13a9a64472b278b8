import CheckSupport
import DependencyInjection
import MainActorApp

// The types the global-actor and async factory lines use, in a module with default MainActor
// isolation: a global actor's service is isolated to it, and an async factory's value is Sendable.

@DatabaseActor final class Database {
    static var made = 0

    init() {
        DatabaseActor.preconditionIsolated("Database was made off DatabaseActor")
        Self.made += 1
    }
}

/// A client any thread may use: `nonisolated`, registered from nonisolated code (`networkModule`).
nonisolated final class HTTPClient: Sendable {
    init() {}
}

nonisolated struct RemoteConfig: Sendable {
    static let loads = Tally()
    let source: String

    static func load(client: HTTPClient) async throws -> RemoteConfig {
        loads.add()
        try await Task.sleep(nanoseconds: 1_000_000)
        return RemoteConfig(source: "remote")
    }
}

/// The network services, registered from nonisolated code: their factories run on any thread.
nonisolated func networkModule() -> Module {
    Module {
        Shared(HTTPClient())
    }
}

/// The same services as an app with default MainActor isolation writes them: both main-actor.
final class AppHTTPClient {
    init() { Made.record("AppHTTPClient") }
}

struct AppRemoteConfig {
    let madeOnMainQueue: Bool

    static func load(client: AppHTTPClient) async throws -> AppRemoteConfig {
        AppRemoteConfig(madeOnMainQueue: isOnMainQueue())
    }
}

/// Conforms, in this module, to MainActorApp's protocol `Greeter`: Swift 6.2 makes this
/// conformance main-actor-isolated ("main actor-isolated conformance of 'SecondGreeter' to
/// 'Greeter' cannot be used in nonisolated context"), unlike `FirstGreeter`'s in MainActorApp.
final class SecondGreeter: Greeter {
    let greeting = "hi"
    init() { Made.record("SecondGreeter") }
}
