import DependencyInjection
import Dispatch
import Testing

@globalActor actor DatabaseActor {
    static let shared = DatabaseActor()
}

@DatabaseActor final class ActorDatabase {
    let id: Int
    init(id: Int) {
        DatabaseActor.shared.preconditionIsolated("ActorDatabase must be made on DatabaseActor")
        self.id = id
    }
}

final class RemoteConfig: Sendable {
    let version: Int
    init(version: Int) { self.version = version }

    static func load(client: HTTPClient) async throws -> RemoteConfig {
        await Task.yield()
        return RemoteConfig(version: client.version)
    }
}

protocol RemoteSettings: Sendable {}
extension RemoteConfig: RemoteSettings {}

final class HTTPClient: Sendable {
    let version: Int
    init() { version = 3 }
    init(version: Int) { self.version = version }
}

@MainActor final class MainActorService {
    init() { MainActor.preconditionIsolated("MainActorService must be made on the main actor") }
}

/// Counts factory runs across tasks.
final class RunCount: @unchecked Sendable {
    // Unchecked: `value` is guarded by `lock`.
    private let lock = DispatchSemaphore(value: 1)
    private var value = 0

    func increment() -> Int {
        lock.wait()
        defer { lock.signal() }
        value += 1
        return value
    }

    var count: Int {
        lock.wait()
        defer { lock.signal() }
        return value
    }
}

struct Flaky: Error {}

/// The `ResolutionError` that `body` throws in a detached task (off the main actor), if any.
func errorInDetachedTask(_ body: @escaping @Sendable () throws -> Void) async -> ResolutionError? {
    await Task.detached { () -> ResolutionError? in
        do {
            try body()
            return nil
        } catch {
            return error as? ResolutionError
        }
    }.value
}

@Suite(.timeLimit(.minutes(1)))
struct AsyncFactoryTests {
    @Test func anAsyncSharedIsMadeOnceAcrossConcurrentTasks() async throws {
        let box = DIContainer()
        let runs = RunCount()
        box.register {
            Shared(HTTPClient.init)
            Shared { resolve async throws in
                _ = runs.increment()
                return try await RemoteConfig.load(client: resolve())
            }
        }
        let configs = try await withThrowingTaskGroup(of: RemoteConfig.self) { group in
            for _ in 0..<50 { group.addTask { try await box.resolveAsync(RemoteConfig.self) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(runs.count == 1)
        #expect(configs.count == 50)
        #expect(configs.allSatisfy { $0 === configs[0] })
        #expect(configs[0].version == 3)
        #expect(box.resolve(RemoteConfig.self) === configs[0])
    }

    @Test func aSynchronousResolveBeforeItIsMadeSaysToAwaitIt() throws {
        let box = DIContainer()
        box.register { Shared { _ async throws in RemoteConfig(version: 1) } }
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(RemoteConfig.self) }
        #expect(error.reason == .notYetMade(actor: nil))
        #expect(
            error.description == """
                'RemoteConfig' is made by an async factory and has not been made yet.
                To fix, await it first: call try await DIContainer.prepare() at startup, or resolve it with \
                try await DIContainer.resolveAsync(RemoteConfig.self).
                """)
    }

    @Test func prepareMakesAsyncEagerAndActorIsolatedSharedServices() async throws {
        let box = DIContainer()
        let runs = RunCount()
        box.register {
            Shared { _ async throws in RemoteConfig(version: runs.increment()) }
            Shared { @DatabaseActor in ActorDatabase(id: 7) }
            New { _ async throws in HTTPClient(version: 9) }
        }
        try await box.prepare()
        let config = try box.tryResolve(RemoteConfig.self)
        #expect(config.version == 1)
        #expect(try box.tryResolve(ActorDatabase.self).id == 7)
        try await box.prepare()
        #expect(runs.count == 1)
        #expect(try box.tryResolve(RemoteConfig.self) === config)
        // A New async factory is not prepared: each async resolve makes one.
        #expect(throws: ResolutionError.self) { try box.tryResolve(HTTPClient.self) }
        #expect(try await box.resolveAsync(HTTPClient.self).version == 9)
    }

    @Test func aGlobalActorFactoryRunsOnItsActorAndIsReportedBeforeThat() async throws {
        let box = DIContainer()
        box.register { Shared { @DatabaseActor in ActorDatabase(id: 1) } }
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(ActorDatabase.self) }
        #expect(error.reason == .notYetMade(actor: "DatabaseActor"))
        #expect(error.description.hasPrefix("'ActorDatabase' is made by a factory isolated to DatabaseActor"))
        let database = try await box.resolveAsync(ActorDatabase.self)
        #expect(try box.tryResolve(ActorDatabase.self) === database)
    }

    @Test func aFailingAsyncFactoryKeepsNothingAndTheNextResolveTriesAgain() async throws {
        let box = DIContainer()
        let runs = RunCount()
        box.register {
            Shared { _ async throws -> RemoteConfig in
                if runs.increment() == 1 { throw Flaky() }
                return RemoteConfig(version: 2)
            }
        }
        await #expect(throws: ResolutionError.self) { try await box.resolveAsync(RemoteConfig.self) }
        #expect(throws: ResolutionError.self) { try box.tryResolve(RemoteConfig.self) }
        #expect(try await box.resolveAsync(RemoteConfig.self).version == 2)
        #expect(runs.count == 2)
    }

    @Test func aCancelledAsyncFactoryKeepsNothing() async throws {
        let box = DIContainer()
        box.register {
            Shared { _ async throws -> RemoteConfig in
                try Task.checkCancellation()
                return RemoteConfig(version: 5)
            }
        }
        let task = Task { try await box.resolveAsync(RemoteConfig.self) }
        task.cancel()
        _ = await task.result
        #expect(try await box.resolveAsync(RemoteConfig.self).version == 5)
    }

    @Test func aMainActorFactoryResolvedAsynchronouslyRunsOnTheMainActor() async throws {
        let box = DIContainer()
        box.register { Shared { @MainActor in MainActorService() } }
        let model = try await Task.detached { try await box.resolveAsync(MainActorService.self) }.value
        let again = try await Task.detached { try await box.resolveAsync(MainActorService.self) }.value
        #expect(model === again)
        let offMain = await errorInDetachedTask { _ = try box.tryResolve(MainActorService.self) }
        #expect(offMain?.reason == .mainActorRequired)
    }

    @MainActor @Test func anAsyncFactoryWrittenInMainActorCodeRunsOnTheMainActor() async throws {
        let box = DIContainer()
        box.register {
            Shared { @MainActor in MainActorService() }
            // Written here, on the main actor: its synchronous resolve() of a main-actor service works.
            Shared { resolve async throws -> RemoteConfig in
                MainActor.preconditionIsolated("an async factory written on the main actor runs there")
                _ = resolve(MainActorService.self)
                return RemoteConfig(version: 4)
            }
            // With aliases too (another initializer).
            Shared(
                { _ async throws -> RemoteConfig in
                    MainActor.preconditionIsolated("an async factory with aliases written on the main actor runs there")
                    return RemoteConfig(version: 8)
                }, as: RemoteSettings.self
            ).named("aliased")
        }
        let notYet = await errorInDetachedTask { _ = try box.tryResolve(RemoteConfig.self) }
        #expect(notYet?.reason == .notYetMade(actor: nil))
        let config = try await Task.detached { try await box.resolveAsync(RemoteConfig.self) }.value
        #expect(config.version == 4)
        // Made, its Sendable instance is returned off the main actor too.
        #expect(try await Task.detached { try box.tryResolve(RemoteConfig.self) }.value === config)
        let aliased = try await Task.detached { try await box.resolveAsync(RemoteSettings.self, name: "aliased") }.value
        #expect((aliased as? RemoteConfig)?.version == 8)
    }

    @Test func anAsyncFactoryWrittenInNonisolatedCodeRunsOffTheMainActor() async throws {
        let box = DIContainer()
        box.register {
            Shared { @MainActor in MainActorService() }
            // Written here, in nonisolated code: off the main actor, a main-actor service is refused.
            Shared { resolve async throws -> RemoteConfig in
                _ = try resolve.tryResolve(MainActorService.self)
                return RemoteConfig(version: 6)
            }
        }
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(RemoteConfig.self) }
        #expect(error.reason == .notYetMade(actor: nil))
        let offMain = await #expect(throws: ResolutionError.self) { try await box.resolveAsync(RemoteConfig.self) }
        #expect(offMain?.reason == .mainActorRequired)
    }

    @Test func resolveAsyncOfASynchronousServiceResolvesIt() async throws {
        let box = DIContainer()
        box.register { Shared(HTTPClient.init) }
        let client = try await box.resolveAsync(HTTPClient.self)
        #expect(client === box.resolve(HTTPClient.self))
        let missing = await #expect(throws: ResolutionError.self) { try await box.resolveAsync(RemoteConfig.self) }
        #expect(missing?.reason == .missingRegistration)
    }
}
