import DependencyInjection
import Dispatch
import Foundation
import Testing

// Forms of the public API no other test selects: each is written as a user would, and its result
// checked.

private final class CoverEngine {}
private final class CoverSendable: Sendable {}
private protocol CoverStore: AnyObject {}
private final class CoverMemoryStore: CoverStore {}
private final class CoverViewModel {
    let id: String
    let engine: CoverEngine
    init(id: String, engine: CoverEngine) { (self.id, self.engine) = (id, engine) }
}
@MainActor private final class CoverScreen {
    let id: String
    init(id: String) {
        MainActor.preconditionIsolated("CoverScreen must be made on the main actor")
        self.id = id
    }
}
@MainActor private final class CoverPresenter {
    let engine: CoverEngine
    init(engine: CoverEngine) { self.engine = engine }
}
@MainActor private final class CoverToolbar {
    init() { MainActor.preconditionIsolated("CoverToolbar must be made on the main actor") }
}
@globalActor private actor CoverActor { static let shared = CoverActor() }
private final class CoverConfig: Sendable {}
private final class CoverWorker: Sendable {
    let config: CoverConfig
    init(config: CoverConfig) { self.config = config }
}
private protocol CoverSettings: Sendable {}
extension CoverConfig: CoverSettings {}

/// Registers, in code isolated to `CoverActor`, a synchronous factory that needs the async `CoverConfig`.
@CoverActor private func registerWorker(in box: DIContainer) {
    box.register { Shared { resolve in try CoverWorker(config: resolve.tryResolve()) } }
}

@Suite(.timeLimit(.minutes(1))) struct StaticAPIFormTests {
    @Test func staticRegisterOfOneSendableRegistrationRegistersIt() {
        let box = DIContainer()
        box.activate { DIContainer.register(Shared(CoverSendable())) }
        #expect(box.resolve(CoverSendable.self) === box.resolve(CoverSendable.self))
    }

    @Test func staticTryRegisterForms() throws {
        let box = DIContainer()
        try box.activate {
            try DIContainer.tryRegister { Shared(CoverEngine.init) }
            try DIContainer.tryRegister(Shared(CoverMemoryStore() as CoverStore))
            try DIContainer.tryRegister(Shared(CoverSendable()).named("one"))
        }
        #expect(box.resolve(CoverEngine.self) === box.resolve(CoverEngine.self))
        #expect(box.resolve(CoverStore.self) is CoverMemoryStore)
        #expect(box.resolve(CoverSendable.self, name: "one") === box.resolve(CoverSendable.self, name: "one"))
    }

    @Test func staticTryResolveWithArguments() throws {
        let box = DIContainer()
        box.register {
            Shared(CoverEngine.init)
            New { resolve, id in CoverViewModel(id: id, engine: resolve()) }
        }
        let model = try box.activate { try DIContainer.tryResolve(CoverViewModel.self, arguments: { "seven" }) }
        #expect(model.id == "seven")
        #expect(model.engine === box.resolve(CoverEngine.self))
    }

    @Test func staticAsyncValidateChecksTheCurrentContainer() async {
        let box = DIContainer()
        box.register { New { resolve in CoverViewModel(id: "x", engine: resolve()) } }
        let report = await box.activate { await DIContainer.validate() }
        #expect(!report.isValid)
        #expect(report.problems.map(\.error.reason) == [.missingRegistration])
    }

    @Test func resolverTryResolveWithArguments() throws {
        let box = DIContainer()
        box.register {
            Shared(CoverEngine.init)
            New { resolve, id in CoverViewModel(id: id, engine: resolve()) }
            New { resolve throws -> CoverStore in
                _ = try resolve.tryResolve(CoverViewModel.self, arguments: { "inner" })
                return CoverMemoryStore()
            }
        }
        #expect(try box.tryResolve(CoverStore.self) is CoverMemoryStore)
    }
}

@Suite(.timeLimit(.minutes(1))) struct MainActorRegistrationFormTests {
    @Test @MainActor func mainActorFactoryWithArgumentsRunsOnTheMainActor() throws {
        let box = DIContainer()
        box.register { New { @MainActor (_: Resolver, id: String) in CoverScreen(id: id) } }
        #expect(try box.tryResolve(CoverScreen.self, arguments: { "a" }).id == "a")
        #expect(box.registrations.first?.isMainActor == true)
        #expect(box.registrations.first?.argumentTypes == ["String"])
    }

    /// A main-actor class is Sendable: resolved off the main actor, it is made there for the caller.
    @Test func mainActorFactoryWithArgumentsResolvedOffTheMainActorIsMadeOnIt() async throws {
        let box = DIContainer()
        box.register { New { @MainActor (_: Resolver, id: String) in CoverScreen(id: id) } }
        let id = try await Task.detached { try box.tryResolve(CoverScreen.self, arguments: { "b" }).id }.value
        #expect(id == "b")
    }

    @Test @MainActor func mainActorInitializerWithParametersIsAutowired() throws {
        let box = DIContainer()
        box.register {
            Shared(CoverEngine.init)
            Shared(CoverPresenter.init)
        }
        let presenter = try box.tryResolve(CoverPresenter.self)
        #expect(presenter.engine === box.resolve(CoverEngine.self))
        #expect(try box.tryResolve(CoverPresenter.self) === presenter)
    }

    @Test @MainActor func scopedMainActorForms() throws {
        let box = DIContainer()
        box.register { Shared(CoverEngine.init) }
        box.register { Scoped(.session) { @MainActor in CoverToolbar() } }
        box.register {
            Scoped(.session) { @MainActor (resolve: Resolver) -> CoverPresenter in CoverPresenter(engine: resolve()) }
                .named("resolver")
        }
        box.register { Scoped(.session, CoverPresenter.init).named("autowired") }
        box.register { Scoped(.session) { @MainActor _, id in CoverScreen(id: id) } }
        let toolbar = try box.tryResolve(CoverToolbar.self)
        #expect(try box.tryResolve(CoverToolbar.self) === toolbar)
        let viaResolver = try box.tryResolve(CoverPresenter.self, name: "resolver")
        #expect(try box.tryResolve(CoverPresenter.self, name: "resolver") === viaResolver)
        let autowired = try box.tryResolve(CoverPresenter.self, name: "autowired")
        #expect(autowired !== viaResolver)
        #expect(try box.tryResolve(CoverPresenter.self, name: "autowired") === autowired)
        let screen = try box.tryResolve(CoverScreen.self, arguments: { "s" })
        #expect(try box.tryResolve(CoverScreen.self, arguments: { "t" }) === screen)
        box.releaseInstances(in: .session)
        #expect(try box.tryResolve(CoverToolbar.self) !== toolbar)
        #expect(box.registrations.allSatisfy { $0.lifetime == .scoped || $0.typeName == "CoverEngine" })
    }

    @Test func scopedGlobalActorAndAsyncWithAliasesForms() async throws {
        let box = DIContainer()
        box.register {
            Scoped(.session) { @CoverActor in CoverConfig() }
            Scoped(.request, { _ async throws in CoverConfig() }, as: CoverSettings.self).named("async")
        }
        // prepare() makes only Shared services: a Scoped one is made by an async resolve.
        try await box.prepare()
        #expect(throws: ResolutionError.self) { try box.tryResolve(CoverConfig.self) }
        let config = try await box.resolveAsync(CoverConfig.self)
        #expect(try box.tryResolve(CoverConfig.self) === config)
        let settings = try await box.resolveAsync(CoverSettings.self, name: "async")
        #expect(try await box.resolveAsync(CoverConfig.self, name: "async") === settings as? CoverConfig)
        box.releaseInstances(in: .session)
        #expect(try await box.resolveAsync(CoverConfig.self) !== config)
    }

    @Test @MainActor func eagerMainActorRegistrationIsMadeAtRegistrationOnTheMainActor() {
        let box = DIContainer()
        nonisolated(unsafe) var made = 0
        box.register {
            Shared { @MainActor () -> CoverToolbar in
                made += 1
                return CoverToolbar()
            }.eager()
        }
        #expect(made == 1)
        #expect(box.registrations.first?.description.contains(", eager") == true)
    }

    @Test func eagerMainActorRegistrationOffTheMainActorIsLeftToPrepare() async throws {
        let box = DIContainer()
        nonisolated(unsafe) var made = 0
        await Task.detached {
            box.register {
                Shared { @MainActor () -> CoverToolbar in
                    made += 1
                    return CoverToolbar()
                }.eager()
            }
        }.value
        #expect(made == 0)
        try await box.prepare()
        #expect(made == 1)
    }

    @Test func prepareTriesAGlobalActorServiceAgainOnceTheAsyncOneItNeedsIsMade() async throws {
        let box = DIContainer()
        box.register { Shared { _ async throws in CoverConfig() } }
        await registerWorker(in: box)
        try await box.prepare()
        let worker = try box.tryResolve(CoverWorker.self)
        #expect(worker.config === box.resolve(CoverConfig.self))
    }
}

@Suite(.timeLimit(.minutes(1))) struct DiagnosticsFormTests {
    @Test func registrationsOfAnEmptyContainerSaySo() {
        #expect(DIContainer().registrations.description == "No registrations.")
    }

    @Test func dependencyGraphMarksAParentsNodeAndDrawsOneNodePerMissingType() {
        let parent = DIContainer()
        parent.register { Shared(CoverEngine.init) }
        let child = DIContainer(parent: parent)
        child.register {
            New { resolve in CoverViewModel(id: "x", engine: resolve()) }
            New { resolve throws -> CoverSendable in
                _ = try? resolve.tryResolve(CoverStore.self)
                return CoverSendable()
            }
            New { resolve throws -> CoverMemoryStore in
                _ = try? resolve.tryResolve(CoverStore.self)
                return CoverMemoryStore()
            }
        }
        _ = child.resolve(CoverViewModel.self)
        _ = child.resolve(CoverSendable.self)
        _ = child.resolve(CoverMemoryStore.self)
        let graph = child.dependencyGraph()
        #expect(graph.contains("(parent container)"), "\(graph)")
        let missing = graph.split(separator: "\n").filter { $0.contains("CoverStore") && $0.contains("[label") }
        #expect(missing.count == 1, "\(graph)")
    }

    @Test func aDependencyResolvedTwiceAfterFourOthersIsOneEdge() {
        final class A {}
        final class B {}
        final class C {}
        final class D {}
        final class Top {}
        let box = DIContainer()
        box.register {
            New(A.init)
            New(B.init)
            New(C.init)
            New(D.init)
            New { resolve -> Top in
                let _: A = resolve()
                let _: B = resolve()
                let _: C = resolve()
                let _: D = resolve()
                let _: D = resolve()
                return Top()
            }
        }
        _ = box.resolve(Top.self)
        let edges = box.dependencyGraph().split(separator: "\n").filter { $0.contains("->") }
        #expect(edges.count == 4, "\(edges)")
    }

    @Test func builderAcceptsAnAvailabilityCheck() {
        let box = DIContainer()
        box.register {
            if #available(macOS 10.15, iOS 13, *) {
                Shared(CoverEngine.init)
            }
        }
        #expect(box.registrations.count == 1)
    }

    @Test func copiesOfAMutableLazyInjectOfTheSharedContainerStayIndependent() {
        struct Holder {
            @MutableLazyInject var engine: CoverEngine
        }
        var first = Holder()
        let engine = CoverEngine()
        first.engine = engine
        var second = first
        second.engine = CoverEngine()
        #expect(first.engine === engine)
        #expect(second.engine !== engine)
        #expect(first.$engine.isResolved)
    }
}

extension DIScope {
    fileprivate static let coverRequest = DIScope("coverRequest", requiresRun: true)
}

@Suite(.timeLimit(.minutes(1))) struct RunOnlyScopeAsyncTests {
    @Test func anAsyncScopedServiceOfARunOnlyScopeResolvedOutsideARunFails() async throws {
        let box = DIContainer()
        box.register { Scoped(.coverRequest) { _ async in CoverConfig() } }
        let error = await #expect(throws: ResolutionError.self) { try await box.resolveAsync(CoverConfig.self) }
        #expect(error?.reason == .scopeRunRequired(scope: "coverRequest"))
    }

    /// Its run returns while its async factory runs: as when `releaseInstances()` overtakes an async
    /// run, the resolve that made it gets the instance, and nothing keeps it.
    /// Nothing here blocks a thread: a test that waits on a semaphore for a task holds one of the
    /// cooperative pool's few threads, and with the other busy, the task (and every test's async
    /// work, a validate() checking on a global actor among it) waited until the pool freed up.
    @Test func anAsyncScopedServiceWhoseRunEndsWhileItIsMadeIsKeptNowhere() async throws {
        let box = DIContainer()
        let gate = AsyncGate()
        box.register {
            Scoped(.coverRequest) { _ async in
                await gate.pass()
                return CoverConfig()
            }
        }
        let task = await box.withScope(.coverRequest) {
            let task = Task { try await box.resolveAsync(CoverConfig.self) }
            await gate.firstArrival()
            return task
        }
        await gate.open()
        _ = try await task.value
        let error = await #expect(throws: ResolutionError.self) { try await box.resolveAsync(CoverConfig.self) }
        #expect(error?.reason == .scopeRunRequired(scope: "coverRequest"))
    }
}

private final class CoverLink {
    init(next: CoverLink?) {}
}

@Suite(.timeLimit(.minutes(1))) struct StackLimitMessageTests {
    /// On a thread whose stack runs out before 1,000 steps, the error says that the stack is the limit.
    @Test(.disabled(if: runsUnderAddressSanitizer, "AddressSanitizer: the stack left cannot be measured"))
    func aChainDeeperThanTheThreadsStackAllowsSaysSo() async throws {
        let box = DIContainer()
        box.register {
            for index in 0..<1_000 {
                if index == 999 {
                    New { _ in CoverLink(next: nil) }.named("\(index)")
                } else {
                    New { resolve in try CoverLink(next: resolve.tryResolve(CoverLink.self, name: "\(index + 1)")) }
                        .named("\(index)")
                }
            }
        }
        let outcome = await onThread(stackSize: 256 << 10) { () -> ResolutionError? in
            do {
                _ = try box.tryResolve(CoverLink.self, name: "0")
                return nil
            } catch {
                return error as? ResolutionError
            }
        }
        let error = try #require(outcome ?? nil, "it did not finish, or did not fail")
        guard case .tooDeep(let depth) = error.reason else {
            Issue.record("expected tooDeep, got \(error)")
            return
        }
        #expect(depth < 1_000)
        #expect(error.description.contains("more than this thread's stack allows"), "\(error)")
    }
}
