import DependencyInjection
import Testing

// The report's prepare() note follows a child's service through its parent's plain services: what
// those need is looked up where the parent's factory looks it up (the parent), not in the child.

private final class NoteStore: Sendable {
    let origin: String
    init(origin: String) { self.origin = origin }
}
private final class NotePipe: Sendable { init(store: NoteStore) {} }
private final class NoteScreen: Sendable { init(pipe: NotePipe) {} }

@Suite(.timeLimit(.minutes(1))) struct PrepareNoteThroughAParentsServiceTests {
    /// The parent's pipe needs the parent's async store; the child registers a synchronous store of its
    /// own. Without prepare(), the child's screen fails: the note must name the parent's store.
    @Test func theNoteNamesTheParentsAsyncServiceTheParentsFactoryNeeds() async throws {
        let parent = DIContainer()
        parent.register {
            Shared { _ async in NoteStore(origin: "parent") }
            New(NotePipe.init)
        }
        let child = DIContainer(parent: parent)
        child.register {
            Shared { NoteStore(origin: "child") }
            Shared(NoteScreen.init)
        }
        let report = await child.validate()
        #expect(report.isValid, "\(report)")
        // As the app runs without prepare(): the screen is not made.
        #expect(throws: ResolutionError.self) { try child.tryResolve(NoteScreen.self) }
        #expect("\(report)".contains("'NoteStore' (async)"), "\(report)")
    }

    /// The parent's pipe needs the parent's synchronous store; the child registers an async store of
    /// its own, which the screen never uses: the note must not name it.
    @Test func theNoteDoesNotNameTheChildsAsyncServiceTheParentsFactoryDoesNotUse() async throws {
        let parent = DIContainer()
        parent.register {
            Shared { NoteStore(origin: "parent") }
            New(NotePipe.init)
        }
        let child = DIContainer(parent: parent)
        child.register {
            Shared { _ async in NoteStore(origin: "child") }
            Shared(NoteScreen.init)
        }
        let report = await child.validate()
        #expect(report.isValid, "\(report)")
        // As the app runs without prepare(): the screen is made all the same.
        #expect((try? child.tryResolve(NoteScreen.self)) != nil)
        #expect(!"\(report)".contains("'NoteStore' (async)"), "\(report)")
    }
}
