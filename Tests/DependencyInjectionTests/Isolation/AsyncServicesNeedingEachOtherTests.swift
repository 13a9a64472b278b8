import DependencyInjection
import Testing

// Async services that need each other, registered in any order: prepare() makes them in rounds,
// validate() checks them as prepare() makes them, resolveAsync awaits what a synchronous factory
// needs, and when one's factory throws, what needed it says why it was not made.

private struct ChainConfig: Sendable { let dsn: String }
private final class ChainPool: Sendable { init(config: ChainConfig) {} }
private final class ChainReporter: Sendable { init(pool: ChainPool) {} }
private struct ChainOffline: Error {}
private final class ChainSession: Sendable {}
private final class ChainNeedsSession: Sendable { init(session: ChainSession) {} }

@Suite(.timeLimit(.minutes(1))) struct AsyncServicesNeedingEachOtherTests {
    /// The pool's factory comes first and needs the config, made by an async factory after it.
    private func register(in box: DIContainer, config: @escaping @Sendable () throws -> ChainConfig) {
        box.register {
            Shared { resolve async throws in ChainPool(config: try resolve.tryResolve()) }
            Shared { _ async throws in try config() }
            Shared(ChainReporter.init)
        }
    }

    @Test func validateChecksAnAsyncServiceThatNeedsOneRegisteredAfterIt() async throws {
        let box = DIContainer()
        register(in: box) { ChainConfig(dsn: "a") }
        let report = await box.validate()
        #expect(report.isValid, "\(report)")
        // As prepare() makes them.
        try await box.prepare()
        #expect((try? box.tryResolve(ChainReporter.self)) != nil)
    }

    @Test func validateChecksATestsOverrideOfAnAsyncServiceOthersNeed() async throws {
        let box = DIContainer()
        register(in: box) { ChainConfig(dsn: "production") }
        let report = await box.withOverrides {
            Shared { _ async in ChainConfig(dsn: "test") }
        } operation: {
            await DIContainer.validate()
        }
        #expect(report.isValid, "\(report)")
    }

    @Test func whatNeededAServiceWhoseFactoryThrewInPrepareSaysWhatItThrew() async throws {
        let box = DIContainer()
        register(in: box) { throw ChainOffline() }
        await #expect(throws: ResolutionError.self) { try await box.prepare() }
        do {
            _ = try box.tryResolve(ChainReporter.self)
            Issue.record("resolved what prepare() could not make")
        } catch {
            #expect(
                "\(error)".contains(
                    "'ChainPool' is made by an async factory and has not been made yet. prepare() failed to make it:"
                        + " The factory for 'ChainConfig' threw an error: ChainOffline()"), "\(error)")
        }
    }

    @Test func resolveAsyncAwaitsTheAsyncServicesASynchronousFactoryNeeds() async throws {
        let box = DIContainer()
        register(in: box) { ChainConfig(dsn: "a") }
        // No prepare(): the reporter's synchronous factory needs the pool, which needs the config.
        _ = try await box.resolveAsync(ChainReporter.self)
        #expect((try? box.tryResolve(ChainPool.self)) != nil)
    }

    @Test func resolveAsyncOfWhatNeedsAThrowingAsyncServiceSaysWhatItThrewOnItsPath() async {
        let box = DIContainer()
        register(in: box) { throw ChainOffline() }
        do {
            _ = try await box.resolveAsync(ChainReporter.self)
            Issue.record("resolved what needs a factory that throws")
        } catch {
            #expect("\(error)".contains("threw an error: ChainOffline()"), "\(error)")
            #expect((error as? ResolutionError)?.path == ["ChainReporter", "ChainPool", "ChainConfig"], "\(error)")
        }
    }

    /// An async `New` is made anew for each resolve: a synchronous factory never gets one, awaited or not.
    @Test func resolveAsyncOfWhatNeedsAnAsyncNewStillFails() async {
        let box = DIContainer()
        box.register {
            New { _ async in ChainSession() }
            New(ChainNeedsSession.init)
        }
        await #expect(throws: ResolutionError.self) { try await box.resolveAsync(ChainNeedsSession.self) }
    }
}
