import DependencyInjection
import Testing

/// Counts its live instances.
private final class ValidatedThing: Sendable {
    static let live = Locked(0)
    init() { Self.live.withLock { $0 += 1 } }
    deinit { Self.live.withLock { $0 -= 1 } }
}

/// The synchronous `validate()` (in an async function, `validate()` is the async one).
/// A main-actor service that counts how often its factory ran.
@MainActor private final class PreparedScreen {
    static var made = 0
    init() { Self.made += 1 }
}

private func validatedSynchronously(_ container: DIContainer) -> ValidationReport { container.validate() }

@Suite(.serialized, .timeLimit(.minutes(1))) struct ValidationKeepsNothingTests {
    /// What `validate()`'s checks made is gone when it returns, released on the caller's thread: not
    /// a moment later, on a probe thread or task, beside the caller's own code.
    @Test(arguments: ["New", "Shared", "child", "async"])
    func whatValidateMadeIsGoneWhenItReturns(form: String) async {
        var aliveAfterReturn: [Int] = []
        for _ in 0..<20 {
            let parent = DIContainer()
            let container = form == "child" ? DIContainer(parent: parent) : parent
            switch form {
            case "New": container.register { New(ValidatedThing.init) }
            case "async": container.register { Shared { _ async in ValidatedThing() } }
            default: parent.register { Shared(ValidatedThing.init) }
            }
            let report = form == "async" ? await container.validate() : validatedSynchronously(container)
            #expect(report.isValid, "\(report)")
            aliveAfterReturn.append(ValidatedThing.live.withLock { $0 })
        }
        #expect(aliveAfterReturn.allSatisfy { $0 == 0 }, "alive right after validate() returned: \(aliveAfterReturn)")
    }

    /// Released while its copy still exists, an object whose `deinit` reads a lazy wrapper finds what
    /// it needs there (an async `Shared` that `prepare()` made): nothing traps.
    @Test func aDeinitThatReadsALazyWrapperDoesNotTrap() async throws {
        let run = try await TrapRun.run("validateReleasesWhatADeinitsLazyReadNeeds", timeout: 30)
        #expect(!run.trapped, "\(run.stderr)")
        #expect(run.stdout.contains("auditor's deinit read its tenant"), "\(run.stdout)")
        #expect(run.stdout.contains("valid: true") && run.stdout.contains("did-not-trap"), "\(run.stdout)")
    }

    /// What prepare() made on an actor, validate()'s copy takes as made (as the app has it), and
    /// never makes again: its factory ran once. (Lets go of nothing the container keeps, either.)
    @MainActor @Test func anActorsServicePrepareMadeIsNotMadeAgain() async throws {
        let box = DIContainer()
        box.register { Shared { @MainActor in PreparedScreen() } }
        try await box.prepare()
        let report = await box.validate()
        #expect(report.isValid && report.validCount == 1, "\(report)")
        #expect(PreparedScreen.made == 1)
        _ = try box.tryResolve(PreparedScreen.self)
        #expect(PreparedScreen.made == 1)
    }
}
