import DependencyInjection
import Testing

// validate() checks async and actor services as prepare() makes them: one whose factory needed an
// async service not made yet awaits it and runs again, once; a non-throwing resolve() or a property
// wrapper of what is not made yet traps in prepare() (its docs), so awaiting it after does not make it
// valid; and a check that did not finish in time, or a cancellation, leaves what was checked checked.

private struct RoundsConfig: Sendable {}
private final class RoundsPool: Sendable { init(config: RoundsConfig) {} }
private final class RoundsSlowFeed: Sendable {}
@globalActor private actor RoundsActor { static let shared = RoundsActor() }
@RoundsActor private final class RoundsLedger {
    @Inject var config: RoundsConfig
    init() {}
}

/// Written on RoundsActor: the ledger's synchronous factory runs there (prepare()'s first phase).
@RoundsActor private func registerLedger(in box: DIContainer) {
    box.register { Shared(RoundsLedger.init) }
}
private struct RoundsReport: Sendable {
    @Inject var config: RoundsConfig
    init() {}
}

@Suite(.timeLimit(.minutes(1))) struct ValidationOfAsyncChecksThatNeedOthersTests {
    @Test func anAsyncFactoryThatNeededAServiceNotMadeYetRunsOnceMoreAfterIt() async {
        let runs = Tally()
        let box = DIContainer()
        box.register {
            Shared { resolve async throws in
                runs.increment()
                return RoundsPool(config: try resolve.tryResolve())
            }
            Shared { _ async in RoundsConfig() }
        }
        let report = await box.validate()
        #expect(report.isValid, "\(report)")
        #expect(runs.value == 2)
    }

    /// prepare() makes the two concurrently: when the pool's factory runs before the config is made, its
    /// non-throwing resolve() traps (prepare()'s documentation: write try resolve.tryResolve()).
    @Test func anAsyncFactoryWhoseNonThrowingResolveNeedsAServiceNotMadeYetIsAProblem() async {
        let box = DIContainer()
        box.register {
            Shared { resolve async in RoundsPool(config: resolve()) }
            Shared { _ async in RoundsConfig() }
        }
        let report = await box.validate()
        #expect(!report.isValid, "\(report)")
    }

    /// The pool's check awaits the config; the feed's check does not finish within 10 s: it alone is not
    /// checked.
    @Test func aCheckThatDidNotFinishInTimeLeavesWhatWasCheckedChecked() async {
        let (release, releaser) = AsyncStream<Void>.makeStream()
        defer { releaser.finish() }
        let box = DIContainer()
        box.register {
            Shared { resolve async throws in RoundsPool(config: try resolve.tryResolve()) }
            Shared { _ async in RoundsConfig() }
            Shared { _ async -> RoundsSlowFeed in
                for await _ in release { break }
                return RoundsSlowFeed()
            }
        }
        let report = await box.validate()
        #expect(report.problems.isEmpty, "\(report)")
        #expect(report.unchecked.map(\.registration) == ["RoundsSlowFeed"], "\(report)")
        #expect(report.validCount == 2, "\(report)")
    }

    /// Cancelled while the feed's check runs, after the pool's check awaited the config: the pool and the
    /// config were checked. (The feed's factory ends with the cancellation, so it may be checked.)
    @Test func aCancellationLeavesWhatWasCheckedChecked() async {
        let (started, starter) = AsyncStream<Void>.makeStream()
        let (release, releaser) = AsyncStream<Void>.makeStream()
        defer { releaser.finish() }
        let box = DIContainer()
        box.register {
            Shared { resolve async throws in RoundsPool(config: try resolve.tryResolve()) }
            Shared { _ async in RoundsConfig() }
            Shared { _ async -> RoundsSlowFeed in
                starter.yield()
                for await _ in release { break }
                return RoundsSlowFeed()
            }
        }
        let validation = Task { await box.validate() }
        for await _ in started { break }
        validation.cancel()
        let report = await validation.value
        #expect(report.problems.isEmpty, "\(report)")
        #expect(report.validCount >= 2 && !report.unchecked.contains { $0.registration == "RoundsPool" }, "\(report)")
    }

    /// prepare() makes the two concurrently: when the report's factory runs before the config is made,
    /// its property wrapper traps ('RoundsConfig' ... has not been made yet), as a non-throwing resolve()
    /// does (above). Awaiting the config after does not make it valid.
    @Test func anAsyncFactoryWhosePropertyWrapperNeedsAServiceNotMadeYetIsAProblem() async {
        let box = DIContainer()
        box.register {
            Shared { _ async in RoundsReport() }
            Shared { _ async in RoundsConfig() }
        }
        let report = await box.validate()
        #expect(!report.isValid, "\(report)")
    }

    /// prepare() makes a global actor's synchronous factory first, before the async ones: the ledger's
    /// property wrapper traps there, the config not made yet (as a global actor's closure's does).
    @Test func aGlobalActorsFactoryWhosePropertyWrapperNeedsAnAsyncServiceIsAProblem() async {
        let box = DIContainer()
        await registerLedger(in: box)
        box.register { Shared { _ async in RoundsConfig() } }
        let report = await box.validate()
        #expect(!report.isValid, "\(report)")
    }
}
