import DependencyInjection
import Testing

// validate() checks as the app runs after prepare(). When that is why a synchronous service
// resolved (it needs an async service, or another actor's, that prepare() makes first), the report
// says so: an app that never calls prepare() fails where the report said valid.

private final class PrepDatabase: Sendable {}
@globalActor private actor PrepActor { static let shared = PrepActor() }
@PrepActor private final class PrepLedger {}
private final class PrepService: Sendable { init(database: PrepDatabase, ledger: PrepLedger) {} }
private final class PrepPlain: Sendable {}
private final class PrepNeedsPlain: Sendable { init(plain: PrepPlain) {} }
@MainActor private final class PrepSession {}
private final class PrepUsesSession: Sendable { init(session: PrepSession) {} }
@MainActor private final class PrepScreen { init(session: PrepSession) {} }
private final class PrepReport {
    @Inject var database: PrepDatabase
    init() {}
}

@Suite(.timeLimit(.minutes(1))) struct ReportNamesWhatPrepareMakesTests {
    @Test func aServiceValidOnlyAfterPrepareIsNamedWithWhatPrepareMakes() async throws {
        let box = DIContainer()
        box.register {
            Shared { _ async in PrepDatabase() }
            Shared { @PrepActor in PrepLedger() }
            Shared(PrepService.init)
        }
        let report = await box.validate()
        #expect(report.isValid, "\(report)")
        let text = "\(report)"
        #expect(
            text.contains(
                "Checked as after `prepare()`, which makes 'PrepDatabase' (async), 'PrepLedger' (PrepActor) first:"
                    + " before it, a synchronous resolve of what needs them fails."), "\(text)")
        // What the note says, the app does.
        #expect(throws: ResolutionError.self) { try box.tryResolve(PrepService.self) }
        try await box.prepare()
        #expect((try? box.tryResolve(PrepService.self)) != nil)
        let afterPrepare = "\(await box.validate())"
        #expect(afterPrepare == "Container is valid: 3 registration(s) resolved, 0 not checked.")
    }

    @Test func aGraphThatNeedsNothingPrepareMakesHasNoNote() async {
        let box = DIContainer()
        box.register {
            Shared(PrepPlain.init)
            Shared(PrepNeedsPlain.init)
            Shared { _ async in PrepDatabase() }
        }
        let text = "\(await box.validate())"
        #expect(!text.contains("prepare()"), "\(text)")
    }

    @Test func aMainActorServiceIsNamedForWhatNeedsItOffTheMainActor() async throws {
        let box = DIContainer()
        box.register {
            Shared { @MainActor in PrepSession() }
            Shared(PrepUsesSession.init)
        }
        let text = "\(await box.validate())"
        #expect(
            text.contains(
                "Checked as after `prepare()`, which makes 'PrepSession' (MainActor) first: before it, a"
                    + " synchronous resolve of what needs them fails (off the main actor, for a main-actor one)."),
            "\(text)")
        let offMain = await onThread { (try? box.tryResolve(PrepUsesSession.self)) != nil }
        #expect(offMain == false)
    }

    @Test func aServiceOnTheActorOfWhatItNeedsIsNotNamed() async {
        let box = DIContainer()
        box.register {
            Shared { @MainActor in PrepSession() }
            New { @MainActor resolve in try PrepScreen(session: resolve.tryResolve()) }
        }
        let text = "\(await box.validate())"
        #expect(!text.contains("prepare()"), "\(text)")
    }

    @Test func whatAPropertyWrapperNeedsIsNamedToo() async {
        let box = DIContainer()
        box.register {
            Shared { _ async in PrepDatabase() }
            New(PrepReport.init)
        }
        let text = "\(await box.validate())"
        #expect(text.contains("which makes 'PrepDatabase' (async) first"), "\(text)")
    }
}
