import DependencyInjection
import Foundation
import Testing

// Isolation follows what a value is (the ConcurrencyAndActors article): a Sendable service may be resolved anywhere,
// whatever code registered it; a non-Sendable one made by actor-isolated code stays on that actor.

@globalActor actor CustomGlobalActor {
    static let shared = CustomGlobalActor()
}

protocol IsolatedProtocol: Sendable { var tag: String { get } }
struct IsolatedBaz: IsolatedProtocol { let tag = "baz" }

/// Not Sendable: a mutable class with no isolation of its own.
final class PlainCounter {
    var count = 0
}

/// Sendable, and made by main-actor code in these tests.
final class SendableService: Sendable {
    init() {}
}

/// Sendable, with a Sendable main-actor dependency: made by a nonisolated factory.
final class NeedsSendableService: Sendable {
    let service: SendableService
    init(service: SendableService) { self.service = service }
}

@MainActor private func registerOnTheMainActor(in box: DIContainer) {
    box.register {
        New(IsolatedBaz() as IsolatedProtocol).named("isolatedToCustomGlobalActor")
        Shared { () -> SendableService in
            MainActor.preconditionIsolated("a main-actor factory ran off the main actor")
            return SendableService()
        }
        Shared(PlainCounter())
    }
}

final class NeedsPlainCounter: @unchecked Sendable {
    // Unchecked: a test fixture that is never made (its dependency stays on the main actor).
    let counter: PlainCounter
    init(counter: PlainCounter) { self.counter = counter }
}

private func registerNeedsPlainCounter(in box: DIContainer) {
    box.register { New { resolve in try NeedsPlainCounter(counter: resolve.tryResolve()) } }
}

/// Written in nonisolated code: its factory runs on any thread.
private func registerNeedsSendableService(in box: DIContainer) {
    box.register { New { resolve in try NeedsSendableService(service: resolve.tryResolve()) } }
}

@CustomGlobalActor private func registerOnACustomGlobalActor(in box: DIContainer) {
    box.register { Shared(PlainCounter()) }
}

private actor Registrar {
    private var registered = 0

    /// A closure that does not use the actor: Swift does not isolate it, `register` binds it.
    func register(in box: DIContainer) { box.register { Shared(PlainCounter()) } }

    /// Its closure uses the actor's state, so Swift isolates it to the actor.
    func registerUsingTheActor(in box: DIContainer) {
        box.register {
            Shared { () -> PlainCounter in
                let counter = PlainCounter()
                counter.count = self.registered
                return counter
            }
        }
    }

    /// On the actor, an async resolve hands the value out (it knows where it runs).
    func count(in box: DIContainer) async throws -> Int { try await box.resolveAsync(PlainCounter.self).count }
}

@CustomGlobalActor private func resolveOnCustomGlobalActor(_ box: DIContainer) -> String {
    box.resolve(IsolatedProtocol.self, name: "isolatedToCustomGlobalActor").tag
}

/// The reason `body` (run in a detached task, off every actor) failed with; `nil` if it did not.
private func reasonOffEveryActor(
    _ body: @escaping @Sendable () async throws -> Void
) async -> ResolutionError.Reason? {
    await Task.detached {
        do {
            try await body()
            return nil
        } catch {
            return (error as? ResolutionError)?.reason
        }
    }.value
}

@Suite(.timeLimit(.minutes(1))) struct IsolationFollowsValueTests {
    @MainActor @Test func aSendableServiceRegisteredOnTheMainActorResolvesOnACustomGlobalActor() async {
        let box = DIContainer()
        registerOnTheMainActor(in: box)
        #expect(await resolveOnCustomGlobalActor(box) == "baz")
    }

    @MainActor @Test func aSendableServiceRegisteredOnTheMainActorIsMadeThereForADetachedTask() async {
        let box = DIContainer()
        registerOnTheMainActor(in: box)
        let service = await Task.detached { box.resolve(SendableService.self) }.value
        #expect(service === box.resolve(SendableService.self))
    }

    @MainActor @Test func aMainActorSendableServiceNeededByAnotherFactoryOffTheMainActorIsAnErrorNamingBoth() async {
        let box = DIContainer()
        registerOnTheMainActor(in: box)
        registerNeedsSendableService(in: box)
        let error = await Task.detached { () -> ResolutionError? in
            resolutionError { _ = try box.tryResolve(NeedsSendableService.self) }
        }.value
        #expect(error?.reason == .mainActorRequired)
        #expect(error?.path == ["NeedsSendableService", "SendableService"])
        #expect(error?.description.contains("prepare()") == true)
    }

    @MainActor @Test func throughAnAliasAMainActorServiceStaysOnTheMainActor() async {
        let box = DIContainer()
        box.register { Shared(SendableService.init, as: ServiceProtocol.self) }
        let viaAlias = await reasonOffEveryActor { _ = try box.tryResolve(ServiceProtocol.self) }
        #expect(viaAlias == .mainActorRequired)
        let viaAliasAsync = await reasonOffEveryActor { _ = try await box.resolveAsync(ServiceProtocol.self) }
        #expect(viaAliasAsync == .mainActorRequired)
        let itself = await Task.detached { try? box.tryResolve(SendableService.self) }.value
        #expect(itself === box.resolve(SendableService.self))
        #expect(box.resolve(ServiceProtocol.self) === itself)
    }

    @MainActor @Test func theHopToTheMainActorCarriesTheCallersScopeRun() async {
        let box = DIContainer()
        box.register { Scoped(.hopRun, SendableService.init) }
        let (sameInOneRun, otherInAnotherRun) = await Task.detached {
            let first = box.withScope(.hopRun) {
                (box.resolve(SendableService.self), box.resolve(SendableService.self))
            }
            let second = box.withScope(.hopRun) { box.resolve(SendableService.self) }
            return (first.0 === first.1, first.0 !== second)
        }.value
        #expect(sameInOneRun)
        #expect(otherInAnotherRun)
    }

    @MainActor @Test func resolveAsyncOfAFactoryThatNeedsAMainActorServiceMakesItOnTheMainActor() async throws {
        let box = DIContainer()
        registerOnTheMainActor(in: box)
        registerNeedsSendableService(in: box)
        let service = try await Task.detached { try await box.resolveAsync(NeedsSendableService.self) }.value
        #expect(service.service === box.resolve(SendableService.self))
        // Not for a value that is not Sendable: that one stays on the main actor.
        box.register { Shared(PlainCounter()) }
        registerNeedsPlainCounter(in: box)
        let reason = await reasonOffEveryActor { _ = try await box.resolveAsync(NeedsPlainCounter.self) }
        #expect(reason == .mainActorRequired)
    }

    @MainActor @Test func afterPrepareAMainActorSendableSharedServiceResolvesEverywhere() async throws {
        let box = DIContainer()
        registerOnTheMainActor(in: box)
        registerNeedsSendableService(in: box)
        try await box.prepare()
        let service = await Task.detached { try? box.tryResolve(NeedsSendableService.self) }.value
        #expect(service?.service === box.resolve(SendableService.self))
    }

    @Test func aNonSendableServiceRegisteredOnTheMainActorIsNotHandedOutByResolveAsyncOffIt() async {
        let box = DIContainer()
        await registerOnTheMainActor(in: box)
        let reason = await reasonOffEveryActor { _ = try await box.resolveAsync(PlainCounter.self) }
        #expect(reason == .mainActorRequired)
    }

    @Test func aNonSendableServiceMadeOnTheMainActorIsNotHandedOutByTryResolveOffIt() async {
        let box = DIContainer()
        await registerOnTheMainActor(in: box)
        await MainActor.run { box.resolve(PlainCounter.self).count += 1 }
        let reason = await reasonOffEveryActor { _ = try box.tryResolve(PlainCounter.self) }
        #expect(reason == .mainActorRequired)
        let error = await Task.detached { resolutionError { _ = try box.tryResolve(PlainCounter.self) } }.value
        #expect(error?.description.contains("Sendable") == true)
    }

    @Test func aNonSendableServiceRegisteredOnAGlobalActorStaysThere() async {
        let box = DIContainer()
        await registerOnACustomGlobalActor(in: box)
        let reason = await reasonOffEveryActor { _ = try await box.resolveAsync(PlainCounter.self) }
        #expect(reason == .notSendable(actor: "CustomGlobalActor"))
        let plain = await reasonOffEveryActor { _ = try box.tryResolve(PlainCounter.self) }
        #expect(plain != nil)
    }

    @Test(arguments: [false, true])
    func aNonSendableServiceRegisteredInAnActorMethodStaysThere(closureUsesTheActor: Bool) async throws {
        let box = DIContainer()
        let registrar = Registrar()
        if closureUsesTheActor {
            await registrar.registerUsingTheActor(in: box)
        } else {
            await registrar.register(in: box)
        }
        let reason = await reasonOffEveryActor { _ = try await box.resolveAsync(PlainCounter.self) }
        #expect(reason == .notSendable(actor: "Registrar"))
        let plain = await reasonOffEveryActor { _ = try box.tryResolve(PlainCounter.self) }
        #expect(plain == .notYetMade(actor: "Registrar"))
        try await box.prepare()
        #expect(try await registrar.count(in: box) == 0)
        let made = await reasonOffEveryActor { _ = try box.tryResolve(PlainCounter.self) }
        #expect(made == .notSendable(actor: "Registrar"))
    }

    @Test func aNonSendableServiceRegisteredInNonisolatedCodeResolvesAnywhere() async {
        let box = DIContainer()
        box.register { Shared(PlainCounter()) }
        let reason = await reasonOffEveryActor { _ = try await box.resolveAsync(PlainCounter.self) }
        #expect(reason == nil)
    }

    @Test func theHopToTheMainActorCarriesTheCallersOverrides() async {
        let box = DIContainer()
        await registerOnTheMainActor(in: box)
        await MainActor.run {
            box.register {
                Shared { resolve in SendableServiceUser(name: resolve(String.self, name: "who")) }
            }
        }
        box.register { Shared("production").named("who") }
        let name = await Task.detached {
            box.withOverrides {
                Shared("override").named("who")
            } operation: {
                DIContainer.resolve(SendableServiceUser.self).name
            }
        }.value
        #expect(name == "override")
    }
}

extension DIScope {
    static let hopRun = DIScope("hopRun")
}

/// Not `Sendable`: an alias whose conformance may be isolated to the actor that made the value.
protocol ServiceProtocol: AnyObject {}
extension SendableService: ServiceProtocol {}

final class SendableServiceUser: Sendable {
    let name: String
    init(name: String) { self.name = name }
}

@Suite(.timeLimit(.minutes(1))) struct MainActorHopTests {
    /// In a process of its own: a hang there is terminated after 30 seconds and fails here.
    @Test func theMainThreadNeverWaitsForTheLockWhileItsHolderWaitsForTheMainThread() async throws {
        let run = try await TrapRun.run("mainActorHopWhileTheLockHolderWaitsForTheMainThread", timeout: 30)
        #expect(!run.trapped, "the scenario hung or crashed: \(run.stderr)")
        #expect(run.stdout.contains("did-not-trap"))
    }
}
