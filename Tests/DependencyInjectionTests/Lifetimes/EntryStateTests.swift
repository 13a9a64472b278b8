import DependencyInjection
import Foundation
import Testing

// What an entry keeps out of line and shares between copies: what few entries keep out of line (a `Weak` instance,
// an async run, failures kept for later), what few registrations keep out of line (Weak's handling,
// a scope, onResolve actions), a global actor's name read from its type, and a table that keeps no
// keys (a slot's key is its alias's type or its entry's, with its entry's name).

// MARK: - Fixtures

@globalActor actor EntryStateActor {
    static let shared = EntryStateActor()
}

/// An actor instance (not a global actor) whose method registers: its name is the actor's type's.
actor EntryStateRegistrar {
    func register(in box: DIContainer) { box.register { Shared(EntryStatePlain()) } }
}

/// Not Sendable: a value made on an actor stays there.
final class EntryStatePlain {
    var count = 0
}

/// Decorated by a decorator written on the review's global actor.
final class EntryStateDecorated: Sendable {}

private protocol ReviewStore: AnyObject { var tag: String { get } }
private final class ReviewSQL: ReviewStore {
    let tag: String
    init(tag: String) { self.tag = tag }
}
private final class ReviewMemory: ReviewStore {
    let tag: String
    init(tag: String) { self.tag = tag }
}
private protocol ReviewLog: AnyObject { var tag: String { get } }
private final class ReviewFileLog: ReviewLog {
    let tag: String
    init(tag: String) { self.tag = tag }
}

/// A `Weak` instance that counts itself and tells when it goes away.
private final class ReviewWeakThing {
    let number: Int
    let onDeinit: @Sendable () -> Void
    init(number: Int, onDeinit: @escaping @Sendable () -> Void = {}) {
        self.number = number
        self.onDeinit = onDeinit
    }
    deinit { onDeinit() }
}

private struct ReviewValue {}

final class ReviewAsyncConfig: Sendable {
    let run: Int
    init(run: Int) { self.run = run }
}
protocol ReviewAsyncSettings: Sendable {}
extension ReviewAsyncConfig: ReviewAsyncSettings {}

private final class ReviewFlaky {}
private final class ReviewNeedsFlaky {
    let flaky: ReviewFlaky
    init(flaky: ReviewFlaky) { self.flaky = flaky }
}

/// A thread-safe log of strings.
private final class ReviewLogBook: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    func take() -> [String] {
        lock.withLock {
            defer { lines = [] }
            return lines
        }
    }
}

/// Async factories wait here until the test opens it; the test can wait until `count` runs arrived.
private actor ReviewGate {
    private var isOpen = false
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var watchers: [Int: (count: Int, continuation: CheckedContinuation<Bool, Never>)] = [:]
    private var nextWatcher = 0
    private(set) var arrived = 0

    /// Counts this run, then waits for the gate to open; returns the run's number (from 1).
    func pass() async -> Int {
        arrived += 1
        let number = arrived
        for (id, watcher) in watchers where watcher.count <= arrived {
            watchers[id] = nil
            watcher.continuation.resume(returning: true)
        }
        if !isOpen { await withCheckedContinuation { waiting.append($0) } }
        return number
    }

    /// Whether `count` runs arrived within `seconds` (a bound, so that a run that never comes fails
    /// the test instead of hanging it; the runs that do come end the wait at once).
    func arrivals(_ count: Int, within seconds: Int = 20) async -> Bool {
        if arrived >= count { return true }
        let id = nextWatcher
        nextWatcher += 1
        Task {
            try? await Task.sleep(for: .seconds(seconds))
            self.expire(id)
        }
        return await withCheckedContinuation { watchers[id] = (count, $0) }
    }

    private func expire(_ id: Int) {
        watchers.removeValue(forKey: id)?.continuation.resume(returning: false)
    }

    func open() {
        isOpen = true
        for run in waiting { run.resume() }
        waiting = []
    }
}

private func reviewError(_ body: () throws -> Void) -> ResolutionError? {
    do {
        try body()
        return nil
    } catch {
        return error as? ResolutionError
    }
}

@EntryStateActor private func registerPlainOnTheStateActor(in box: DIContainer) {
    box.register { Shared(EntryStatePlain()) }
}

@EntryStateActor private func registerFailingOnTheStateActor(in box: DIContainer) {
    box.register { Shared { _ throws -> EntryStatePlain in throw Offline() } }
}

@EntryStateActor private func registerDecoratorOnTheStateActor(in box: DIContainer) {
    box.register { Decorate(EntryStateDecorated.self) { value, _ in value } }
}

@EntryStateActor private func registerTwiceOnTheStateActor(in box: DIContainer) {
    box.register {
        Shared(EntryStatePlain())
        Shared(EntryStatePlain())
    }
}

/// On the actor, an async resolve hands the value out (it knows where it runs).
@EntryStateActor private func countOnTheStateActor(in box: DIContainer) async throws -> Int {
    try await box.resolveAsync(EntryStatePlain.self).count
}

// MARK: - Weak

@Suite(.timeLimit(.minutes(1))) struct EntryStateWeakTests {
    @Test func aWeakInstanceGoesWithItsLastOutsideReferenceAndIsMadeAgain() throws {
        let made = Tally()
        let gone = Tally()
        let box = DIContainer()
        box.register {
            Weak { () -> ReviewWeakThing in
                made.increment()
                return ReviewWeakThing(number: made.value) { gone.increment() }
            }
        }
        weak var first: ReviewWeakThing?
        do {
            let held = try box.tryResolve(ReviewWeakThing.self)
            first = held
            #expect(try box.tryResolve(ReviewWeakThing.self) === held)
            #expect(made.value == 1)
        }
        #expect(first == nil)
        #expect(gone.value == 1)
        let second = try box.tryResolve(ReviewWeakThing.self)
        #expect(second.number == 2)
        #expect(try box.tryResolve(ReviewWeakThing.self) === second)
        #expect(made.value == 2)
    }

    @Test func releaseInstancesOnAWeakEntryLetsGoWithoutDroppingWhatOthersHold() throws {
        let made = Tally()
        let box = DIContainer()
        box.register {
            Weak { () -> ReviewWeakThing in
                made.increment()
                return ReviewWeakThing(number: made.value)
            }
        }
        // Never made, and made but gone: nothing to release, no harm.
        box.releaseInstances()
        _ = try box.tryResolve(ReviewWeakThing.self)
        box.releaseInstances()
        #expect(made.value == 1)
        weak var released: ReviewWeakThing?
        do {
            let held = try box.tryResolve(ReviewWeakThing.self)
            released = held
            #expect(made.value == 2)
            box.releaseInstances()
            // What the test holds lives on; the container makes a new one.
            #expect(held.number == 2)
            let next = try box.tryResolve(ReviewWeakThing.self)
            #expect(next !== held)
            #expect(next.number == 3)
        }
        // The container kept no strong reference to either.
        #expect(released == nil)
        #expect(try box.tryResolve(ReviewWeakThing.self).number == 4)
    }

    @Test func aWeakRegistrationWithActionsANameAndAliasesStaysWeak() throws {
        let made = Tally()
        let ran = Tally()
        let box = DIContainer()
        box.register {
            Weak(
                { () -> ReviewSQL in
                    made.increment()
                    return ReviewSQL(tag: "weak\(made.value)")
                }, as: ReviewStore.self
            )
            .onResolve { _, _ in ran.increment() }
            .named("w")
            .onResolve { _, _ in ran.increment() }
        }
        weak var first: ReviewSQL?
        do {
            let held = try box.tryResolve(ReviewStore.self, name: "w")
            first = held as? ReviewSQL
            #expect(try box.tryResolve(ReviewSQL.self, name: "w") === held)
            #expect(ran.value == 2)
        }
        #expect(first == nil)
        #expect(try box.tryResolve(ReviewSQL.self, name: "w").tag == "weak2")
        #expect(ran.value == 4)
    }

    @Test func aWeakValueThatIsNoClassInstanceIsStillRefusedWithActionsAdded() {
        let box = DIContainer()
        box.register {
            Weak(ReviewValue())
            Weak(ReviewValue()).onResolve { _, _ in }.named("acting")
        }
        #expect(
            reviewError { _ = try box.tryResolve(ReviewValue.self) }?.reason
                == .weakRequiresClass(instanceType: "ReviewValue"))
        let acting = reviewError { _ = try box.tryResolve(ReviewValue.self, name: "acting") }
        #expect(acting?.reason == .weakRequiresClass(instanceType: "ReviewValue"))
    }

    @Test func aWeakInstanceMadeByAFailedResolutionIsNotKept() throws {
        let made = Tally()
        let attempts = Tally()
        let box = DIContainer()
        box.register {
            Weak { () -> ReviewWeakThing in
                made.increment()
                return ReviewWeakThing(number: made.value)
            }
            .onResolve { _, _ in
                attempts.increment()
                if attempts.value == 1 { throw Offline() }
            }
        }
        #expect(reviewError { _ = try box.tryResolve(ReviewWeakThing.self) } != nil)
        let kept = try box.tryResolve(ReviewWeakThing.self)
        #expect(kept.number == 2)
        #expect(try box.tryResolve(ReviewWeakThing.self) === kept)
    }

    @Test func aWeakInstanceWhoseDeinitResolvesGoesOutsideTheLock() throws {
        let box = DIContainer()
        let resolved = Tally()
        box.register {
            Shared(Engine.init)
            Weak { [weak box] in
                ResolvesInDeinit {
                    _ = box?.resolve(Engine.self)
                    resolved.increment()
                }
            }
        }
        do { _ = try box.tryResolve(ResolvesInDeinit.self) }
        #expect(resolved.value == 1)
        do {
            let held = try box.tryResolve(ResolvesInDeinit.self)
            box.releaseInstances()
            _ = held
        }
        #expect(resolved.value == 2)
    }

    @Test func eachContainerAndEachCopyKeepsItsOwnWeakInstance() throws {
        let module = Module { Weak { ReviewWeakThing(number: 0) } }
        let one = DIContainer()
        let two = DIContainer()
        one.register(module)
        two.register(module)
        let held = try one.tryResolve(ReviewWeakThing.self)
        #expect(try two.tryResolve(ReviewWeakThing.self) !== held)
        try one.withOverrides {
            New(Engine.init)
        } operation: {
            let inCopy = try DIContainer.current.tryResolve(ReviewWeakThing.self)
            #expect(inCopy !== held)
            #expect(try DIContainer.current.tryResolve(ReviewWeakThing.self) === inCopy)
        }
        #expect(try one.tryResolve(ReviewWeakThing.self) === held)
        #expect(one.validate().isValid)
        #expect(try one.tryResolve(ReviewWeakThing.self) === held)
    }
}

// MARK: - Async runs

@Suite(.timeLimit(.minutes(1))) struct EntryStateAsyncTests {
    @Test func twoConcurrentAsyncResolvesShareOneRun() async throws {
        let gate = ReviewGate()
        let box = DIContainer()
        box.register { Shared { _ async -> ReviewAsyncConfig in ReviewAsyncConfig(run: await gate.pass()) } }
        let first = Task { try await box.resolveAsync(ReviewAsyncConfig.self) }
        #expect(await gate.arrivals(1))
        // While it runs it is not made: a synchronous resolve says to await it.
        #expect(reviewError { _ = try box.tryResolve(ReviewAsyncConfig.self) }?.reason == .notYetMade(actor: nil))
        let second = Task { try await box.resolveAsync(ReviewAsyncConfig.self) }
        // Room for the second resolve to reach the run (not needed for the outcome, only to test it).
        for _ in 0..<200 { await Task.yield() }
        await gate.open()
        let (a, b) = try await (first.value, second.value)
        #expect(a === b)
        #expect(await gate.arrived == 1)
        #expect(try box.tryResolve(ReviewAsyncConfig.self) === a)
        // The run is over: releasing and resolving again makes a new one (no stale run to wait for).
        box.releaseInstances()
        let again = try await box.resolveAsync(ReviewAsyncConfig.self)
        #expect(again.run == 2)
    }

    @Test func aReleaseDuringARunLetsTheNextResolveStartItsOwnAndKeepsOnlyThat() async throws {
        let gate = ReviewGate()
        let box = DIContainer()
        box.register { Shared { _ async -> ReviewAsyncConfig in ReviewAsyncConfig(run: await gate.pass()) } }
        let first = Task { try await box.resolveAsync(ReviewAsyncConfig.self) }
        #expect(await gate.arrivals(1))
        box.releaseInstances()
        let second = Task { try await box.resolveAsync(ReviewAsyncConfig.self) }
        #expect(await gate.arrivals(2))
        await gate.open()
        let (a, b) = try await (first.value, second.value)
        #expect(a.run == 1)
        #expect(b.run == 2)
        #expect(try box.tryResolve(ReviewAsyncConfig.self) === b)
        #expect(try await box.resolveAsync(ReviewAsyncConfig.self) === b)
        #expect(await gate.arrived == 2)
    }

    @Test func aRunInTheOriginalIsNotOneAnOverridesCopyWaitsFor() async throws {
        let gate = ReviewGate()
        let box = DIContainer()
        box.register { Shared { _ async -> ReviewAsyncConfig in ReviewAsyncConfig(run: await gate.pass()) } }
        let original = Task { try await box.resolveAsync(ReviewAsyncConfig.self) }
        #expect(await gate.arrivals(1))
        let copied = Task {
            try await box.withOverrides({ New(Engine.init) }) {
                try await DIContainer.resolveAsync(ReviewAsyncConfig.self)
            }
        }
        // The copy runs its own factory (it does not wait for the original's run).
        #expect(await gate.arrivals(2))
        await gate.open()
        let (a, b) = try await (original.value, copied.value)
        #expect(a !== b)
        #expect(try box.tryResolve(ReviewAsyncConfig.self) === a)
    }

    @Test func anAsyncWeakIsMadeOnceForTwoResolvesAndAgainOnceItIsGone() async throws {
        let gate = ReviewGate()
        let box = DIContainer()
        box.register { Weak { _ async -> ReviewAsyncConfig in ReviewAsyncConfig(run: await gate.pass()) } }
        weak var made: ReviewAsyncConfig?
        do {
            // The tasks keep their values: they go at the end of this block.
            let first = Task { try await box.resolveAsync(ReviewAsyncConfig.self) }
            #expect(await gate.arrivals(1))
            let second = Task { try await box.resolveAsync(ReviewAsyncConfig.self) }
            // Room for the second resolve to reach the run (not needed for the outcome, only to test it).
            for _ in 0..<200 { await Task.yield() }
            await gate.open()
            let (a, b) = try await (first.value, second.value)
            #expect(a === b)
            made = a
        }
        #expect(made == nil)
        #expect(try await box.resolveAsync(ReviewAsyncConfig.self).run == 2)
    }

    @Test func aFailedPrepareIsInTheMessageOfEveryLaterResolveUntilItIsMade() async throws {
        let runs = Tally()
        let box = DIContainer()
        box.register {
            Shared { _ async throws -> ReviewAsyncConfig in
                runs.increment()
                if runs.value == 1 { throw Offline() }
                return ReviewAsyncConfig(run: runs.value)
            }
        }
        await #expect(throws: ResolutionError.self) { try await box.prepare() }
        for _ in 0..<2 {
            let error = reviewError { _ = try box.tryResolve(ReviewAsyncConfig.self) }
            #expect(error?.reason == .notYetMade(actor: nil))
            #expect(
                error?.description.contains("prepare() failed to make it: The factory for 'ReviewAsyncConfig' threw")
                    == true, "\(String(describing: error))")
        }
        try await box.prepare()
        #expect(try box.tryResolve(ReviewAsyncConfig.self).run == 2)
    }

    @Test func aFailedPrepareOfANamedAliasedServiceIsKeptForItAfterTheTableMovedIt() async throws {
        let box = DIContainer()
        box.register {
            Shared({ _ async throws in ReviewAsyncConfig(run: 1) }, as: (any ReviewAsyncSettings).self).named("a")
            Shared({ _ async throws in ReviewAsyncConfig(run: 2) }, as: (any ReviewAsyncSettings).self).named("b")
            Shared({ _ async throws -> ReviewAsyncConfig in throw Offline() }, as: (any ReviewAsyncSettings).self)
                .named("c")
        }
        // Removing early slots moves the last ones into their places.
        #expect(box.unregister(ReviewAsyncConfig.self, name: "a"))
        #expect(box.unregister((any ReviewAsyncSettings).self, name: "a"))
        await #expect(throws: ResolutionError.self) { try await box.prepare() }
        for error in [
            reviewError { _ = try box.tryResolve(ReviewAsyncConfig.self, name: "c") },
            reviewError { _ = try box.tryResolve((any ReviewAsyncSettings).self, name: "c") },
        ] {
            #expect(error?.reason == .notYetMade(actor: nil))
            #expect(
                error?.description.contains(
                    "prepare() failed to make it: The factory for 'ReviewAsyncConfig' (name: \"c\") threw") == true,
                "\(String(describing: error))")
        }
        #expect(try await box.resolveAsync(ReviewAsyncConfig.self, name: "b").run == 2)
        let error = reviewError { _ = try box.tryResolve(ReviewAsyncConfig.self, name: "b") }
        #expect(error == nil)
    }

    @Test func aFailedPrepareOfAGlobalActorServiceNamesTheActorAndWhy() async throws {
        let box = DIContainer()
        await registerFailingOnTheStateActor(in: box)
        await #expect(throws: ResolutionError.self) { try await box.prepare() }
        for _ in 0..<2 {
            let error = await errorInDetachedTask(awaiting: { _ = try box.tryResolve(EntryStatePlain.self) })
            #expect(error?.reason == .notYetMade(actor: "EntryStateActor"))
            #expect(error?.description.contains("EntryStateActor") == true, "\(String(describing: error))")
            #expect(error?.description.contains("prepare() failed to make it") == true, "\(String(describing: error))")
        }
    }
}

// MARK: - A global actor's name

@Suite(.timeLimit(.minutes(1))) struct EntryStateActorNameTests {
    @Test func notYetMadeAndNotSendableNameTheGlobalActor() async throws {
        let box = DIContainer()
        await registerPlainOnTheStateActor(in: box)
        let notYet = await errorInDetachedTask(awaiting: { _ = try box.tryResolve(EntryStatePlain.self) })
        #expect(notYet?.reason == .notYetMade(actor: "EntryStateActor"))
        #expect(
            notYet?.description.hasPrefix(
                "'EntryStatePlain' is made by a factory isolated to EntryStateActor")
                == true, "\(String(describing: notYet))")
        let notSendableAsync = await errorInDetachedTask(awaiting: {
            _ = try await box.resolveAsync(EntryStatePlain.self)
        })
        #expect(notSendableAsync?.reason == .notSendable(actor: "EntryStateActor"))
        #expect(notSendableAsync?.description.contains("EntryStateActor") == true)
        try await box.prepare()
        #expect(try await countOnTheStateActor(in: box) == 0)
        let notSendable = await errorInDetachedTask(awaiting: { _ = try box.tryResolve(EntryStatePlain.self) })
        #expect(notSendable?.reason == .notSendable(actor: "EntryStateActor"))
        #expect(notSendable?.description.contains("EntryStateActor") == true, "\(String(describing: notSendable))")
    }

    @Test func anActorInstancesRegistrationIsNamedByItsType() async {
        let box = DIContainer()
        // Kept alive: a registration does not keep its actor (once it is gone, the error says so).
        let registrar = EntryStateRegistrar()
        await registrar.register(in: box)
        let error = await errorInDetachedTask(awaiting: { _ = try box.tryResolve(EntryStatePlain.self) })
        withExtendedLifetime(registrar) {}
        #expect(error?.reason == .notYetMade(actor: "EntryStateRegistrar"))
        #expect(error?.description.contains("EntryStateRegistrar") == true, "\(String(describing: error))")
    }

    @Test func aDecoratorOnAGlobalActorNamesItWhenItCannotRun() async {
        let box = DIContainer()
        box.register { New(EntryStateDecorated()) }
        await registerDecoratorOnTheStateActor(in: box)
        let error = await errorInDetachedTask(awaiting: { _ = try box.tryResolve(EntryStateDecorated.self) })
        #expect(error?.reason == .notYetMade(actor: "EntryStateActor"))
    }

    @Test func aDuplicateRegistrationsSummaryNamesTheGlobalActor() async {
        let box = DIContainer()
        await registerTwiceOnTheStateActor(in: box)
        let report = await box.validate()
        let duplicate = report.problems.first {
            if case .duplicateRegistration = $0.error.reason { true } else { false }
        }
        #expect(duplicate?.description.contains("on EntryStateActor") == true, "\(report)")
    }
}

// MARK: - Shared extras: copying a registration and changing the copy

@Suite(.timeLimit(.minutes(1))) struct EntryStateExtrasTests {
    @Test func actionsAddedToBranchesOfOneRegistrationStayOnTheirBranch() throws {
        let log = ReviewLogBook()
        let root = Shared { ReviewSQL(tag: "x") }.onResolve { _, _ in log.append("1") }
        let left = root.onResolve { _, _ in log.append("2") }
        let right = root.onResolve { _, _ in log.append("3") }.named("right")
        let leftMore = left.named("leftMore").onResolve { _, _ in log.append("4") }
        let box = DIContainer()
        box.register {
            root
            left.named("left")
            right
            leftMore
        }
        _ = try box.tryResolve(ReviewSQL.self)
        #expect(log.take() == ["1"])
        _ = try box.tryResolve(ReviewSQL.self, name: "left")
        #expect(log.take() == ["1", "2"])
        _ = try box.tryResolve(ReviewSQL.self, name: "right")
        #expect(log.take() == ["1", "3"])
        _ = try box.tryResolve(ReviewSQL.self, name: "leftMore")
        #expect(log.take() == ["1", "2", "4"])
        // The stored registrations themselves are as they were written.
        let other = DIContainer()
        other.register(root.named("again"))
        _ = try other.tryResolve(ReviewSQL.self, name: "again")
        #expect(log.take() == ["1"])
    }

    @Test func aWeakRegistrationCopiedWithActionsKeepsBothWeakAndTheOriginalWithoutThem() throws {
        let ran = Tally()
        let base = Weak { ReviewWeakThing(number: 0) }
        let acting = base.onResolve { _, _ in ran.increment() }.named("acting")
        let box = DIContainer()
        box.register {
            base
            acting
        }
        weak var plain: ReviewWeakThing?
        weak var withActions: ReviewWeakThing?
        do {
            let one = try box.tryResolve(ReviewWeakThing.self)
            let two = try box.tryResolve(ReviewWeakThing.self, name: "acting")
            (plain, withActions) = (one, two)
            #expect(one !== two)
            #expect(ran.value == 1)
        }
        #expect(plain == nil)
        #expect(withActions == nil)
    }

    @Test func aScopedRegistrationsCopiesKeepTheScopeAndOnlyTheirOwnActions() {
        let ran = ReviewLogBook()
        let scope = DIScope("entrySizeReview")
        let base = Scoped(scope) { ReviewMemory(tag: "scoped") }
        let named = base.named("named").onResolve { _, _ in ran.append("named") }
        let box = DIContainer()
        box.register {
            base
            named
            Shared { ReviewMemory(tag: "shared") }.named("shared")
        }
        let first = box.resolve(ReviewMemory.self)
        let firstNamed = box.resolve(ReviewMemory.self, name: "named")
        let shared = box.resolve(ReviewMemory.self, name: "shared")
        #expect(ran.take() == ["named"])
        box.releaseInstances(in: DIScope("other"))
        #expect(box.resolve(ReviewMemory.self) === first)
        #expect(box.resolve(ReviewMemory.self, name: "named") === firstNamed)
        box.releaseInstances(in: scope)
        #expect(box.resolve(ReviewMemory.self) !== first)
        #expect(box.resolve(ReviewMemory.self, name: "named") !== firstNamed)
        #expect(box.resolve(ReviewMemory.self, name: "shared") === shared)
        #expect(ran.take() == ["named"])
        #expect(box.registrations.filter { $0.scope == scope }.count == 2)
    }
}

// MARK: - A slot's key derived from the slot

/// One key of the table and the registration expected to serve it.
private struct ReviewKey: CustomStringConvertible {
    let description: String
    /// A key of the `ReviewStore` protocol (what `resolveAll(ReviewStore.self)` gives).
    let isStoreAlias: Bool
    let resolve: (DIContainer) -> String?
    let unregister: (DIContainer) -> Bool

    static func of<T>(_ type: T.Type, _ name: String?, tag: @escaping (T) -> String) -> ReviewKey {
        ReviewKey(
            description: "\(type)/\(name ?? "-")", isStoreAlias: T.self == (any ReviewStore).self,
            resolve: { box in (try? box.tryResolve(T.self, name: name)).map(tag) },
            unregister: { box in box.unregister(T.self, name: name) })
    }
}

/// Named and aliased registrations (own slots and alias slots, names shared across types), and
/// the tag each key resolves to.
private func reviewTable() -> (module: Module, keys: [(key: ReviewKey, tag: String)]) {
    let module = Module {
        Shared(ReviewSQL(tag: "A"), as: ReviewStore.self)
        Shared(ReviewMemory(tag: "B"), as: ReviewStore.self).named("cache")
        Shared(ReviewSQL(tag: "C"), as: ReviewStore.self).named("primary")
        New(ReviewFileLog(tag: "D"), as: ReviewLog.self).named("cache")
        Shared(ReviewMemory(tag: "E")).named("primary")
        Weak(ReviewFileLog(tag: "F"), as: ReviewLog.self)
    }
    let keys: [(ReviewKey, String)] = [
        (.of(ReviewSQL.self, nil, tag: \.tag), "A"),
        (.of((any ReviewStore).self, nil, tag: \.tag), "A"),
        (.of(ReviewMemory.self, "cache", tag: \.tag), "B"),
        (.of((any ReviewStore).self, "cache", tag: \.tag), "B"),
        (.of(ReviewSQL.self, "primary", tag: \.tag), "C"),
        (.of((any ReviewStore).self, "primary", tag: \.tag), "C"),
        (.of(ReviewFileLog.self, "cache", tag: \.tag), "D"),
        (.of((any ReviewLog).self, "cache", tag: \.tag), "D"),
        (.of(ReviewMemory.self, "primary", tag: \.tag), "E"),
        (.of(ReviewFileLog.self, nil, tag: \.tag), "F"),
        (.of((any ReviewLog).self, nil, tag: \.tag), "F"),
    ]
    return (module, keys)
}

/// Every key resolves to its tag while it is registered, and to nothing once removed.
private func expectTable(
    _ box: DIContainer, _ keys: [(key: ReviewKey, tag: String)], removed: Set<Int>, _ context: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    for (index, entry) in keys.enumerated() {
        let expected = removed.contains(index) ? nil : entry.tag
        #expect(entry.key.resolve(box) == expected, "\(entry.key) \(context)", sourceLocation: sourceLocation)
    }
    // `resolveAll` reads the table's keys back from its slots.
    let stores = box.resolveAll(ReviewStore.self).map(\.tag).sorted()
    let expectedStores = keys.indices.filter { !removed.contains($0) && keys[$0].key.isStoreAlias }
        .map { keys[$0].tag }.sorted()
    #expect(stores == expectedStores, "resolveAll \(context)", sourceLocation: sourceLocation)
}

/// The order of `count` elements numbered `seed` (a Lehmer code).
private func permutation(_ seed: Int, of count: Int) -> [Int] {
    var pool = Array(0..<count)
    var seed = seed
    var order: [Int] = []
    for radix in stride(from: count, to: 0, by: -1) {
        order.append(pool.remove(at: seed % radix))
        seed /= radix
    }
    return order
}

@Suite(.timeLimit(.minutes(1))) struct EntryStateKeyTests {
    @Test func namedAndAliasedSlotsUnregisteredInManyOrdersLeaveEveryOtherKeyServed() {
        let (_, keys) = reviewTable()
        var factorial = 1
        for factor in 1...keys.count { factorial *= factor }
        // A spread of orders: the first, the last and a stride through all of them.
        let seeds = [0, factorial - 1] + Array(stride(from: 7, to: factorial, by: factorial / 150))
        for seed in seeds {
            let order = permutation(seed, of: keys.count)
            let box = DIContainer()
            box.register(reviewTable().module)
            var removed: Set<Int> = []
            expectTable(box, keys, removed: removed, "before removing (order \(order))")
            for index in order {
                #expect(keys[index].key.unregister(box), "\(keys[index].key) in order \(order)")
                #expect(!keys[index].key.unregister(box), "\(keys[index].key) again in order \(order)")
                removed.insert(index)
                expectTable(box, keys, removed: removed, "after removing \(keys[index].key) (order \(order))")
            }
            // Registered again, everything is served again.
            box.register(reviewTable().module)
            expectTable(box, keys, removed: [], "registered again (order \(order))")
        }
    }

    @Test func removingASlotThatIsNotLastThenReplacingAndRemovingTheMovedOne() {
        let (module, keys) = reviewTable()
        let box = DIContainer()
        box.register(module)
        // The first key's slot is not the last: the last slot moves into its place.
        #expect(keys[0].key.unregister(box))
        expectTable(box, keys, removed: [0], "after removing the first slot")
        // Replacing the slot that moved replaces it (no second slot of its key).
        box.register { Weak(ReviewFileLog(tag: "F2"), as: ReviewLog.self) }
        #expect(keys[10].key.resolve(box) == "F2")
        #expect(keys[9].key.resolve(box) == "F2")
        #expect(keys[10].key.unregister(box))
        #expect(keys[10].key.resolve(box) == nil)
        #expect(!keys[10].key.unregister(box))
        // The first key registered again lands at the end, and every other key still resolves.
        box.register { Shared(ReviewSQL(tag: "A2")) }
        #expect(keys[0].key.resolve(box) == "A2")
        #expect(keys[1].key.resolve(box) == "A")
        for index in 2..<9 { #expect(keys[index].key.resolve(box) == keys[index].tag, "\(keys[index].key)") }
    }

    @Test func reRegisteringANameReplacesOnlyThatNamesSlots() {
        let (module, keys) = reviewTable()
        let box = DIContainer()
        box.register(module)
        #expect(keys[4].key.unregister(box))
        box.register { Shared(ReviewMemory(tag: "B2"), as: ReviewStore.self).named("cache") }
        #expect(keys[2].key.resolve(box) == "B2")
        #expect(keys[3].key.resolve(box) == "B2")
        // Its own type's slot removed, the alias slot still serves the replacement.
        #expect(keys[2].key.unregister(box))
        #expect(keys[3].key.resolve(box) == "B2")
        for index in [0, 1, 5, 6, 7, 8, 9, 10] {
            #expect(keys[index].key.resolve(box) == keys[index].tag, "\(keys[index].key)")
        }
        #expect(keys[4].key.resolve(box) == nil)
    }

    @Test func manyNamesOfOneTypeRemovedInAScrambledOrder() {
        let box = DIContainer()
        let names = (0..<300).map { "name\($0)" }
        box.register {
            for name in names { New(ReviewMemory(tag: name), as: ReviewStore.self).named(name) }
        }
        var registered = Set(names)
        var state = 4_242
        for _ in 0..<250 {
            state = (state &* 1_103_515_245 &+ 12_345) & 0x7fff_ffff
            let name = names[state % names.count]
            let isAlias = state / names.count % 2 == 0
            let removed =
                isAlias ? box.unregister(ReviewStore.self, name: name) : box.unregister(ReviewMemory.self, name: name)
            // Each name's two slots are removed together below, so a removal finds both or neither.
            #expect(removed == registered.contains(name), "\(name)")
            if removed {
                #expect(
                    isAlias
                        ? box.unregister(ReviewMemory.self, name: name) : box.unregister(ReviewStore.self, name: name))
                registered.remove(name)
            }
        }
        for name in names {
            let expected = registered.contains(name) ? name : nil
            #expect((try? box.tryResolve(ReviewMemory.self, name: name))?.tag == expected, "\(name)")
            #expect((try? box.tryResolve(ReviewStore.self, name: name))?.tag == expected, "\(name)")
        }
        #expect(box.resolveAll(ReviewStore.self).count == registered.count)
    }

    @Test func validateOverridesChildrenAndResetAfterRemovals() throws {
        let (module, keys) = reviewTable()
        let box = DIContainer()
        box.register(module)
        #expect(keys[1].key.unregister(box))
        #expect(keys[4].key.unregister(box))
        let sqlPrimaryAlias = try box.tryResolve(ReviewStore.self, name: "primary")
        // validate() copies the table (keys read back from the slots), and leaves the instances alone.
        let report = box.validate()
        #expect(report.isValid, "\(report)")
        #expect(try box.tryResolve(ReviewStore.self, name: "primary") === sqlPrimaryAlias)
        expectTable(box, keys, removed: [1, 4], "after validate()")
        // An overrides copy: its own table, read from this one's.
        box.withOverrides {
            Shared(ReviewMemory(tag: "O"), as: ReviewStore.self).named("primary")
        } operation: {
            expectTable(
                DIContainer.current,
                keys.enumerated().map { $0.offset == 5 || $0.offset == 8 ? ($0.element.key, "O") : $0.element },
                removed: [1, 4], "in withOverrides")
            #expect(DIContainer.current.unregister(ReviewLog.self, name: "cache"))
            #expect(keys[7].key.resolve(DIContainer.current) == nil)
        }
        expectTable(box, keys, removed: [1, 4], "after withOverrides")
        // A child: its own slot first, the parent's once it is removed.
        let child = DIContainer(parent: box)
        child.register { Shared(ReviewSQL(tag: "K"), as: ReviewStore.self).named("cache") }
        #expect(keys[3].key.resolve(child) == "K")
        #expect(keys[2].key.resolve(child) == "B")
        #expect(child.unregister(ReviewStore.self, name: "cache"))
        #expect(keys[3].key.resolve(child) == "B")
        #expect(keys[5].key.resolve(child) == "C")
        // Reset, then everything registered again.
        box.reset()
        expectTable(box, keys, removed: Set(keys.indices), "after reset()")
        box.register(reviewTable().module)
        expectTable(box, keys, removed: [], "registered after reset()")
    }

    @Test func scopedNamedAndAliasedSlotsReleasedAndRemoved() {
        let scope = DIScope("entrySizeReviewKeys")
        let box = DIContainer()
        box.register {
            Scoped(scope, ReviewSQL(tag: "S1"), as: ReviewStore.self).named("s")
            Scoped(scope, ReviewMemory(tag: "S2"), as: ReviewStore.self)
            Shared(ReviewFileLog(tag: "L"), as: ReviewLog.self).named("s")
        }
        let first = box.resolve(ReviewStore.self, name: "s")
        #expect(box.unregister(ReviewStore.self, name: "s"))
        #expect((try? box.tryResolve(ReviewStore.self, name: "s")) == nil)
        #expect(box.resolve(ReviewSQL.self, name: "s") === first)
        #expect(box.resolve(ReviewStore.self).tag == "S2")
        #expect(box.resolve(ReviewLog.self, name: "s").tag == "L")
        box.releaseInstances(in: scope)
        #expect(box.resolve(ReviewSQL.self, name: "s") !== first)
        let nested = box.withScope(scope) { box.resolve(ReviewSQL.self, name: "s") }
        #expect(nested !== box.resolve(ReviewSQL.self, name: "s"))
        #expect(box.unregister(ReviewMemory.self))
        #expect(box.resolve(ReviewStore.self).tag == "S2")
        #expect(box.resolve(ReviewLog.self, name: "s").tag == "L")
    }

    @Test func aMisspeltNameListsTheNamesStillRegistered() {
        let (module, keys) = reviewTable()
        let box = DIContainer()
        box.register(module)
        #expect(keys[5].key.unregister(box))
        let error = reviewError { _ = try box.tryResolve(ReviewStore.self, name: "primray") }
        #expect(error?.description.contains("\"cache\"") == true, "\(String(describing: error))")
        #expect(error?.description.contains("\"primary\"") == false, "\(String(describing: error))")
    }
}

// MARK: - Failures kept by a validate() copy

@Suite(.timeLimit(.minutes(1))) struct EntryStateValidationTests {
    @Test func aFailureValidateRecordsInItsCopyDoesNotReachTheOriginal() throws {
        let attempts = Tally()
        let box = DIContainer()
        box.register {
            Shared { _ throws -> ReviewFlaky in
                attempts.increment()
                if attempts.value == 1 { throw Offline() }
                return ReviewFlaky()
            }
            New { resolve in try ReviewNeedsFlaky(flaky: resolve.tryResolve()) }
        }
        let report = box.validate()
        #expect(!report.isValid)
        // The copy keeps the failure, and what needs it fails with it (each factory runs once per validate()).
        #expect(report.problems.map(\.registration) == ["ReviewFlaky", "ReviewNeedsFlaky"], "\(report)")
        #expect(attempts.value == 1)
        let flaky = try box.tryResolve(ReviewFlaky.self)
        #expect(try box.tryResolve(ReviewNeedsFlaky.self).flaky === flaky)
        #expect(box.validate().isValid)
        #expect(try box.tryResolve(ReviewFlaky.self) === flaky)
    }

    @Test func aFailureValidateRecordsForAWeakMadeBeforeDoesNotReachTheOriginal() throws {
        let attempts = Tally()
        let box = DIContainer()
        box.register {
            Weak { _ throws -> ReviewWeakThing in
                attempts.increment()
                if attempts.value == 2 { throw Offline() }
                return ReviewWeakThing(number: attempts.value)
            }
        }
        // Made once (and gone): the entry has what a Weak entry keeps out of line.
        _ = try box.tryResolve(ReviewWeakThing.self)
        let report = box.validate()
        #expect(report.problems.map(\.registration) == ["ReviewWeakThing"], "\(report)")
        #expect(attempts.value == 2)
        #expect(try box.tryResolve(ReviewWeakThing.self).number == 3)
    }
}
