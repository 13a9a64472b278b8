import DependencyInjection
import Foundation
import Testing

// Adversarial scenarios for isolation following the value (the ConcurrencyAndActors article), the main-actor hop and
// releasing after the lock. Each test names the behaviour it expects; scenarios that could hang run
// in the TrapScenarios executable (see `MainActorHopScenarios.swift`), terminated past a timeout.

/// The reason `body` failed with; `nil` if it did not.
private func failureReason(_ body: () throws -> Void) -> ResolutionError.Reason? {
    do {
        try body()
        return nil
    } catch {
        return (error as? ResolutionError)?.reason
    }
}

private actor ModuleRegistrar {
    /// A module built in an actor method, registered as a module: its non-Sendable value is made
    /// by actor-isolated code, as with `register { … }` in the same method.
    func registerAModule(in box: DIContainer) {
        let module = Module { Shared(PlainCounter()) }
        box.register(module)
    }

    /// Overrides written in an actor method; the reason a resolve of them off the actor fails with.
    func reasonOffTheActorInOverrides(of box: DIContainer) async -> ResolutionError.Reason? {
        await box.withOverrides {
            Shared(PlainCounter())
        } operation: {
            let copy = DIContainer.current
            return await Task.detached { failureReason { _ = try copy.tryResolve(PlainCounter.self) } }.value
        }
    }
}

private let mainQueueMarker: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
}()

/// Main-actor state that a decorator written in main-actor code reads.
@MainActor private var mainActorDecorations = 0

@MainActor private func registerADecoratorOnTheMainActor(in box: DIContainer, ranOffTheMainActor: Guarded<Bool>) {
    _ = mainQueueMarker
    box.register {
        Decorate(SendableService.self) { service, _ in
            if DispatchQueue.getSpecific(key: mainQueueMarker) != true { ranOffTheMainActor.withLock { $0 = true } }
            mainActorDecorations += 1  // compiles: Swift isolates this closure to the main actor
            return service
        }
    }
}

private func registerANonisolatedSendableService(in box: DIContainer) { box.register { New(SendableService()) } }

private func registerANonisolatedPlainCounter(in box: DIContainer) { box.register { New(PlainCounter()) } }

@MainActor private func registerASendableServiceOnTheMainActor(in box: DIContainer) {
    box.register { Shared(SendableService()) }
}

private final class LazySendableHolder: @unchecked Sendable {
    // Unchecked: the wrapper is never set, and its storage is guarded by the library's lock.
    @LazyInject var service: SendableService
}

extension DIScope {
    fileprivate static let adversarialRun = DIScope("adversarialRun")
}

private final class Loaded {
    init() {}
    init(throwing: Void) throws {}
}
private func load() throws -> Loaded { Loaded() }
extension DIScope { fileprivate static let loading = DIScope("loading") }

@Suite(.timeLimit(.minutes(2)))
struct IsolationEdgeCaseTests {
    /// A throwing closure without a resolver written in nonisolated code runs anywhere, like its
    /// non-throwing twin (it was taken for a `@MainActor` one).
    @Test func aThrowingClosureWithoutAResolverRunsOnAnyThread() async {
        let box = DIContainer()
        box.register {
            New { try load() }.named("closure")
            Shared { try Loaded(throwing: ()) }.named("initializer")
            Scoped(.loading) { try load() }.named("scoped")
        }
        for name in ["closure", "initializer", "scoped"] {
            let outcome = await onThread { () -> String in
                do {
                    _ = try box.tryResolve(Loaded.self, name: name)
                    return "made"
                } catch {
                    return "\(error)"
                }
            }
            #expect(outcome == "made", "\(name)")
        }
    }

    // MARK: Non-Sendable values never leave their actor

    @Test func aModuleBuiltInAnActorMethodKeepsItsNonSendableValueOnTheActor() async {
        let box = DIContainer()
        await ModuleRegistrar().registerAModule(in: box)
        let reason = await Task.detached { failureReason { _ = try box.tryResolve(PlainCounter.self) } }.value
        #expect(reason != nil, "a non-Sendable value made by actor code was handed out off the actor")
    }

    @Test func overridesWrittenInAnActorMethodKeepTheirNonSendableValueOnTheActor() async {
        let reason = await ModuleRegistrar().reasonOffTheActorInOverrides(of: DIContainer())
        #expect(reason != nil, "a non-Sendable override made by actor code was handed out off the actor")
    }

    @MainActor @Test func aDecoratorWrittenInMainActorCodeNeverRunsOffTheMainActor() async {
        let box = DIContainer()
        let ranOffTheMainActor = Guarded(false)
        registerANonisolatedSendableService(in: box)
        registerADecoratorOnTheMainActor(in: box, ranOffTheMainActor: ranOffTheMainActor)
        // Made off the main actor (its factory is nonisolated); the decorator is main-actor code:
        // refused there, never run.
        let reason = await Task.detached { failureReason { _ = try box.tryResolve(SendableService.self) } }.value
        #expect(reason == .mainActorRequired)
        #expect(!ranOffTheMainActor.current, "a main-actor decorator ran off the main actor")
        // On the main actor, it decorates.
        _ = box.resolve(SendableService.self)
        #expect(mainActorDecorations > 0)
    }

    @MainActor @Test func aMainActorDecoratorOfANonSendableValueKeepsItOnTheMainActor() async {
        let box = DIContainer()
        registerANonisolatedPlainCounter(in: box)
        box.register { Decorate(PlainCounter.self) { counter, _ in counter } }
        let reason = await errorInDetachedTask(awaiting: { _ = try await box.resolveAsync(PlainCounter.self) })?.reason
        #expect(reason == .mainActorRequired, "a value a main-actor decorator made left the main actor")
    }

    // MARK: The main-actor hop

    @MainActor @Test func aLazyWrapperReadOffTheMainActorGetsTheMainActorSendableService() async {
        let box = DIContainer()
        registerASendableServiceOnTheMainActor(in: box)
        let same = await Task.detached {
            let holder = box.activate { LazySendableHolder() }
            return holder.service === box.resolve(SendableService.self)
        }.value
        #expect(same)
    }

    @Test func aSharedMainActorServiceHoppedToByManyThreadsAtOnceIsMadeOnce() async throws {
        let run = try await TrapRun.run("adversarialHopSharedUnderContention", timeout: 30)
        #expect(!run.trapped, "hung or crashed: \(run.stderr)")
        #expect(run.stdout.contains("made 1 distinct 1 resolves 16"), "\(run.stdout)")
    }

    @Test func aHopWhoseFactoryThrowsGivesTheErrorAndALaterHopSucceeds() async throws {
        let run = try await TrapRun.run("adversarialHopWhoseFactoryThrows", timeout: 30)
        #expect(!run.trapped, "hung or crashed: \(run.stderr)")
        #expect(run.stdout.contains("first factoryFailed"), "\(run.stdout)")
        #expect(run.stdout.contains("second none"), "\(run.stdout)")
    }

    @Test func resolveAllOffTheMainActorHopsAsResolveDoes() async throws {
        let run = try await TrapRun.run("adversarialHopForResolveAll", timeout: 30)
        #expect(!run.trapped, "trapped: \(run.trapMessage ?? run.stderr)")
        #expect(run.stdout.contains("resolveAll 1"), "\(run.stdout)")
    }

    @Test func aDeinitRunAfterTheLockHopsLikeAnyTopLevelResolve() async throws {
        let run = try await TrapRun.run("adversarialHopFromADeinit", timeout: 30)
        #expect(!run.trapped, "hung or crashed: \(run.stderr)")
        #expect(run.stdout.contains("deinit resolved"), "\(run.stdout)")
    }

    /// Main-queue work that `dispatchMain()` runs on a worker thread is, inside `serial.sync { }`,
    /// neither on the main queue as Dispatch's queue-specific values see it nor on the main thread,
    /// so the resolve asks to hop, and waits for a main queue its own thread is holding.
    @Test func aResolveFromMainQueueWorkOnAWorkerInsideASerialQueueSyncDoesNotHang() async throws {
        let run = try await TrapRun.run("adversarialHopFromTheMainQueueOnAWorkerInsideASerialQueueSync", timeout: 10)
        withKnownIssue("the hop waits for the main queue that the waiting thread itself holds") {
            #expect(!run.trapped, "hung (terminated after 10 s) or crashed: \(run.stderr)")
        }
    }

    /// The process's main thread inside `serial.sync { }` is the main actor as Swift's runtime sees
    /// it (though not the main queue as Dispatch sees it): the service is made there, with no hop.
    @Test func aResolveOnTheMainThreadInsideASerialQueueSyncIsMadeThere() async throws {
        let run = try await TrapRun.run("adversarialMainThreadInsideASerialQueueSync", timeout: 10)
        #expect(!run.trapped, "hung (terminated after 10 s) or crashed: \(run.stderr)")
        #expect(run.stdout.contains("inside sync: made 1"), "\(run.stdout)")
    }

    // MARK: Released after the lock

    @Test func aScopeRunEndingInsideAFactoryReleasesItsInstancesAfterTheLock() {
        let box = DIContainer()
        let outcome = Guarded<Bool?>(nil)
        box.register {
            Shared(Engine())
            Scoped(.adversarialRun) { () -> ResolvesInDeinit in
                ResolvesInDeinit { outcome.withLock { $0 = anotherThreadCanResolve(from: box) } }
            }
            New { _ -> Session in
                box.withScope(.adversarialRun) { _ = box.resolve(ResolvesInDeinit.self) }
                return Session()
            }
        }
        _ = box.resolve(Session.self)
        #expect(outcome.current == true, "a scoped instance was released while the lock was held")
    }
}
