import DependencyInjection
import Dispatch
import Testing

// What a decorator or an `onResolve` action written on an actor does to a value, and what an
// async resolve hands out: a value never leaves the actor whose code touched it unless it is
// Sendable (the ConcurrencyAndActors article).

/// Not Sendable, with a Sendable main-actor service inside.
private final class HoldsSendableService {
    let service: SendableService
    var uses = 0
    init(service: SendableService) { self.service = service }
}

/// Registered in nonisolated code: its factory runs on any thread.
private func registerPlainCounter(in box: DIContainer) { box.register { Shared(PlainCounter()) } }

/// A registration written in nonisolated code, to which main-actor code adds an action.
private func plainCounterRegistration() -> New<PlainCounter> { New(PlainCounter()) }

/// Written in main-actor code: the decorator keeps that isolation.
@MainActor private func decorateOnTheMainActor(in box: DIContainer) {
    box.register {
        Decorate(PlainCounter.self) { counter, _ in
            counter.count += 1
            return counter
        }
    }
}

/// Written in main-actor code: Swift infers the action `@MainActor`.
@MainActor private func registerWithAMainActorAction(in box: DIContainer, ranOffTheMainActor: Guarded<Bool>) {
    box.register {
        plainCounterRegistration().onResolve { counter, _ in
            if !MainActorQueue.isCurrent { ranOffTheMainActor.withLock { $0 = true } }
            counter.count += 1
        }
    }
}

@MainActor private func registerSendableServiceOnTheMainActor(in box: DIContainer) {
    box.register { Shared(SendableService()) }
}

private func registerHoldsSendableService(in box: DIContainer) {
    box.register { New { resolve in try HoldsSendableService(service: resolve.tryResolve()) } }
}

/// Owns its container, and registers in it from one of its methods.
private actor ContainerOwner {
    let box = DIContainer()
    private let deinitialized: DispatchSemaphore

    init(deinitialized: DispatchSemaphore) { self.deinitialized = deinitialized }

    func registerServices() { box.register { Shared(PlainCounter()) } }

    deinit { deinitialized.signal() }
}

private final class DecoratedAsyncValue: Sendable {
    let number: Int
    init(number: Int) { self.number = number }
}

@Suite(.timeLimit(.minutes(1))) struct IsolationOfDecoratorsAndActionsTests {
    /// An async factory's value with a `@MainActor` decorator, made by `prepare()` or an async
    /// resolve off the main actor: kept on the main actor, where the decorator runs.
    @Test func anAsyncServiceWithAMainActorDecoratorIsMadeOffTheMainActor() async throws {
        for useResolveAsync in [false, true] {
            let box = DIContainer()
            box.register {
                Shared { _ async in DecoratedAsyncValue(number: 1) }
                Decorate(DecoratedAsyncValue.self) { @MainActor value, _ in
                    DecoratedAsyncValue(number: value.number + (MainActorQueue.isCurrent ? 100 : 0))
                }
            }
            if useResolveAsync {
                #expect(try await box.resolveAsync(DecoratedAsyncValue.self).number == 101)
            } else {
                try await box.prepare()
            }
            #expect(box.resolve(DecoratedAsyncValue.self).number == 101)
        }
    }

    @MainActor @Test func aValueDecoratedOnTheMainActorIsNotHandedOutOffIt() async {
        let box = DIContainer()
        registerPlainCounter(in: box)
        decorateOnTheMainActor(in: box)
        #expect(box.resolve(PlainCounter.self).count == 1)
        let error = await errorInDetachedTask { _ = try box.tryResolve(PlainCounter.self) }
        #expect(error?.reason == .mainActorRequired)
        // The message names the main-actor code the value goes through: not its factory, which is plain.
        let message =
            "'PlainCounter' is not Sendable and goes through main-actor code (its Decorate or onResolve "
            + "action); it was resolved off the main actor."
        #expect(error?.description.hasPrefix(message) == true, "\(String(describing: error))")
        #expect(
            error?.description.hasSuffix(
                "To fix, resolve it from main-actor code (e.g. a @MainActor function), or write its Decorate or "
                    + "onResolve action in nonisolated code (a Decorate takes a plain closure), so that it runs "
                    + "wherever the value is made.") == true, "\(String(describing: error))")
        let asyncError = await errorInDetachedTask(awaiting: { _ = try await box.resolveAsync(PlainCounter.self) })
        #expect(asyncError?.reason == .mainActorRequired)
        #expect(asyncError?.description.hasPrefix(message) == true, "\(String(describing: asyncError))")
    }

    @MainActor @Test func aValueDecoratedOnTheMainActorIsNotMadeOffIt() async {
        let box = DIContainer()
        registerPlainCounter(in: box)
        decorateOnTheMainActor(in: box)
        let error = await errorInDetachedTask { _ = try box.tryResolve(PlainCounter.self) }
        #expect(error?.reason == .mainActorRequired)
        #expect(box.resolve(PlainCounter.self).count == 1, "made and decorated once, on the main actor")
    }

    @MainActor @Test func aMainActorActionNeverRunsOffTheMainActor() async {
        let box = DIContainer()
        let ranOffTheMainActor = Guarded(false)
        registerWithAMainActorAction(in: box, ranOffTheMainActor: ranOffTheMainActor)
        #expect(box.resolve(PlainCounter.self).count == 1)
        let error = await errorInDetachedTask { _ = try box.tryResolve(PlainCounter.self) }
        #expect(error?.reason == .mainActorRequired)
        #expect(ranOffTheMainActor.current == false)
    }

    @MainActor @Test func resolveAsyncDoesNotHandANonSendableValueMadeOnTheMainActorToAnotherTask() async throws {
        let box = DIContainer()
        registerSendableServiceOnTheMainActor(in: box)
        registerHoldsSendableService(in: box)
        let reason = await errorInDetachedTask(awaiting: { _ = try await box.resolveAsync(HoldsSendableService.self) })?
            .reason
        #expect(reason == .mainActorRequired)
        // On the main actor, where it may be made, it is.
        #expect(try await box.resolveAsync(HoldsSendableService.self).uses == 0)
    }

    @Test func aRegistrationBoundToAnActorDoesNotKeepItAlive() async {
        let deinitialized = DispatchSemaphore(value: 0)
        var owner: ContainerOwner? = ContainerOwner(deinitialized: deinitialized)
        await owner?.registerServices()
        let box = owner!.box
        owner = nil
        let released = await Task.detached { deinitialized.wait(timeout: .now() + 20) == .success }.value
        #expect(released)
        let error = await errorInDetachedTask { _ = try box.tryResolve(PlainCounter.self) }
        #expect(error?.reason == .actorReleased(actor: "ContainerOwner"))
        #expect(error?.description.contains("ContainerOwner") == true)
    }
}
