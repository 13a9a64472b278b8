import DependencyInjection
import Testing

// The note after the report's summary (`Checked as after `prepare()`, which makes … first`) names
// the Shared services prepare() makes that a synchronous resolve before it cannot get: not one
// prepare() never makes (a plain factory whose decorator runs on the main actor), and also a global
// actor's closure, which a synchronous resolve on that same actor cannot make either (it is awaited).

@globalActor private actor NoteActor { static let shared = NoteActor() }
private final class NoteLogger: Sendable {}
private final class NoteService: Sendable { init(logger: NoteLogger) {} }
@NoteActor private final class NoteLedger {}
@NoteActor private final class NoteBook { init(ledger: NoteLedger) {} }
private final class NoteDatabase: Sendable {}
private final class NoteRepository: Sendable { init(database: NoteDatabase) {} }
private final class NoteHandler: Sendable { init(repository: NoteRepository) {} }

/// Written in nonisolated code: the logger's factory runs on any thread.
private func registerLoggerAndService(in box: DIContainer) {
    box.register {
        Shared(NoteLogger.init)
        Shared(NoteService.init)
    }
}

/// Written in main-actor code: the decorator runs on the main actor, so the logger's value needs it.
@MainActor private func decorateTheLoggerOnTheMainActor(in box: DIContainer) {
    box.register { Decorate(NoteLogger.self) { logger, _ throws in logger } }
}

/// Written on NoteActor: the book's synchronous factory runs there, and needs the ledger's closure.
@NoteActor private func registerLedgerAndBook(in box: DIContainer) {
    box.register {
        Shared { @NoteActor in NoteLedger() }
        Shared { resolve in try NoteBook(ledger: resolve.tryResolve()) }
    }
}

@NoteActor private func resolvesTheBook(from box: DIContainer) -> Bool { (try? box.tryResolve(NoteBook.self)) != nil }

/// Written in nonisolated code: the database's async factory and the repository's run on any thread.
private func registerDatabaseAndRepository(in box: DIContainer) {
    box.register {
        Shared { _ async in NoteDatabase() }
        Shared(NoteRepository.init)
    }
}

@Suite(.timeLimit(.minutes(1))) struct PrepareNoteNamesWhatPrepareMakesTests {
    @Test func aPlainServiceWithAMainActorDecoratorIsNotNamedAsMadeByPrepare() async throws {
        let box = DIContainer()
        registerLoggerAndService(in: box)
        await decorateTheLoggerOnTheMainActor(in: box)
        let report = await box.validate()
        // What the app does after prepare(): the logger is not made (its factory is not an actor's), and
        // off the main actor the service that needs it fails.
        try await box.prepare()
        let resolvesOffTheMainActor = await onThread { (try? box.tryResolve(NoteService.self)) != nil }
        #expect(resolvesOffTheMainActor == false)
        #expect(!"\(report)".contains("which makes 'NoteLogger'"), "\(report)")
    }

    @Test func aServiceOnTheActorOfAClosureItNeedsIsNamedWithThatClosure() async throws {
        let box = DIContainer()
        await registerLedgerAndBook(in: box)
        let report = await box.validate()
        #expect(report.isValid, "\(report)")
        // Before prepare(), a synchronous resolve of the book fails on its own actor: the ledger's closure is
        // only awaited.
        #expect(await resolvesTheBook(from: box) == false)
        #expect("\(report)".contains("which makes 'NoteLedger' (NoteActor) first"), "\(report)")
        try await box.prepare()
        _ = try await box.resolveAsync(NoteBook.self)
    }

    /// The synchronous validate() on the main actor checks no async factory (it would need await), so
    /// what needs one is not checked either: nothing was checked as after prepare().
    @MainActor @Test func aReportThatCheckedNothingAsAfterPrepareHasNoNote() {
        let box = DIContainer()
        registerDatabaseAndRepository(in: box)
        let report = box.validate()
        #expect(report.validCount == 0 && report.unchecked.count == 2, "\(report)")
        #expect(!"\(report)".contains("Checked as after `prepare()`"), "\(report)")
    }

    /// A child's service that needs its parent's repository, which needs the parent's async database:
    /// valid as after prepare() (which makes the ancestors' too), and before it resolving it fails, so the
    /// child's report has the note.
    @Test func aChildsServiceThatNeedsItsParentsAsyncServiceIsValidWithTheNote() async throws {
        let parent = DIContainer()
        registerDatabaseAndRepository(in: parent)
        let child = DIContainer(parent: parent)
        child.register { Shared(NoteHandler.init) }
        let report = await child.validate()
        #expect(report.isValid, "\(report)")
        #expect(throws: ResolutionError.self) { try child.tryResolve(NoteHandler.self) }
        #expect("\(report)".contains("which makes 'NoteDatabase' (async) first"), "\(report)")
        try await child.prepare()
        _ = try child.tryResolve(NoteHandler.self)
    }
}
