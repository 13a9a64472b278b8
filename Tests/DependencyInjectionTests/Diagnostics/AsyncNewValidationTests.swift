import DependencyInjection
import Testing

private struct Tenant: Sendable { let name: String }
private final class TenantGate: Sendable { init(tenant: Tenant) {} }

private protocol Reader: Sendable {}
private protocol Writer: Sendable {}
private final class FileStore: Reader, Writer, Sendable {}
private final class Indexer {}
private final class SessionGate { init(tenant: Tenant) {} }
@MainActor private final class MainActorGate { init(tenant: Tenant) {} }

private enum Billing { final class Service { init(tenant: Tenant) {} } }
private enum Shipping { final class Service {} }
@MainActor private final class RequestGate { init(tenant: Tenant) {} }
extension DIScope { fileprivate static let asyncNewRequest = DIScope("asyncNewRequest") }

@globalActor private actor AsyncNewLedgerActor { static let shared = AsyncNewLedgerActor() }
/// An actor of its own for each test that validate()s on one: a test that runs on an actor leaves it
/// waiting for the cooperative pool now and then, and a check that needs it then may wait behind
/// every test queued there, past validate()'s 10 seconds.
@globalActor private actor AsyncNewGraphActor { static let shared = AsyncNewGraphActor() }
private final class AsyncNewLedger: Sendable {}
private final class AsyncNewLedgerBook: Sendable { init(ledger: AsyncNewLedger) {} }

private final class AsyncNewGraph: Sendable {}
private final class AsyncNewGraphBook: Sendable { init(graph: AsyncNewGraph) {} }
private final class AsyncMadeGraph: Sendable {}
private final class AsyncMadeGraphBook: Sendable { init(graph: AsyncMadeGraph) {} }

@Suite(.timeLimit(.minutes(1))) struct AsyncNewValidationTests {
    // A synchronous factory that needs an async `New` can never be resolved, not even after
    // prepare() (which makes only Shared services), nor through resolveAsync of the outer one;
    // validate() says so, as it does for a global actor's `New`.
    @Test func aSyncServiceNeedingAnAsyncNewIsAProblem() async throws {
        let box = DIContainer()
        box.register {
            New { _ async in Tenant(name: "t") }
            Shared(TenantGate.init)
        }
        try await box.prepare()
        #expect(throws: ResolutionError.self) { try box.tryResolve(TenantGate.self) }
        await #expect(throws: ResolutionError.self) { try await box.resolveAsync(TenantGate.self) }
        let report = await box.validate()
        let problem = try #require(report.problems.first, "\(report)")
        #expect(report.problems.count == 1 && problem.registration == "TenantGate", "\(report)")
        if case .isolationConflict = problem.error.reason {} else { Issue.record("\(report)") }
        #expect(!problem.error.description.contains("MainActor"), "\(report)")
        #expect(
            problem.error.description.contains(
                "Shared { _ async throws in … try await DIContainer.resolveAsync(Tenant.self) }"), "\(report)")
    }

    // The same on the main actor: a synchronous main-actor factory cannot await the async `New` either
    // (written in main-actor code, the `New`'s factory is main-actor code too).
    @Test @MainActor func aMainActorServiceNeedingAnAsyncNewIsAProblem() async throws {
        let box = DIContainer()
        box.register {
            New { _ async in Tenant(name: "t") }
            Shared { @MainActor (resolve: Resolver) throws in MainActorGate(tenant: try resolve.tryResolve()) }
        }
        await #expect(throws: ResolutionError.self) { try await box.prepare() }
        #expect(throws: ResolutionError.self) { try box.tryResolve(MainActorGate.self) }
        await #expect(throws: ResolutionError.self) { try await box.resolveAsync(MainActorGate.self) }
        let report = await box.validate()
        let problem = try #require(report.problems.first, "\(report)")
        #expect(report.problems.count == 1 && problem.registration == "MainActorGate", "\(report)")
        if case .isolationConflict = problem.error.reason {} else { Issue.record("\(report)") }
    }

    // The synchronous form, blocking the main actor, lists the conflict once, as a problem (as every
    // other form does), not also as not checked.
    @Test @MainActor func theSynchronousFormListsTheConflictOnceAsAProblem() async {
        let box = DIContainer()
        box.register {
            New { _ async in Tenant(name: "t") }
            Shared(TenantGate.init)
        }
        let awaited = await box.validate()
        func synchronously() -> ValidationReport { box.validate() }
        let blocking = synchronously()
        #expect(awaited.problems.map(\.registration) == ["TenantGate"] && awaited.unchecked.isEmpty, "\(awaited)")
        #expect(blocking.problems.map(\.registration) == ["TenantGate"], "\(blocking)")
        #expect(blocking.unchecked.map(\.registration) == ["Tenant"], "\(blocking)")
    }

    // The suggested fix, as written, resolves and validates.
    @Test func theSuggestedFixWorks() async throws {
        let box = DIContainer()
        box.register {
            New { _ async in Tenant(name: "t") }
            Shared { _ async throws in TenantGate(tenant: try await DIContainer.resolveAsync(Tenant.self)) }
        }
        try await box.prepare()
        _ = try box.tryResolve(TenantGate.self)
        let report = await box.validate()
        #expect(report.isValid, "\(report)")
    }

    // A registration of the same display name (a nested type of another type) that is not checked
    // stays listed: only the conflicted registration leaves the not-checked list.
    @Test func anUncheckedRegistrationOfTheSameNameStaysListed() async {
        let box = DIContainer()
        box.register {
            New { _ async in Tenant(name: "t") }
            Shared(Billing.Service.init)
            New { (_: Resolver, id: String) in Shipping.Service() }
        }
        let report = await box.validate()
        #expect(report.problems.count == 1 && report.unchecked.count == 1, "\(report)")
    }

    // And one that resolved counts as valid: the conflict is matched by key, not by display name.
    @Test func aValidRegistrationOfTheSameNameCountsAsValid() async {
        let box = DIContainer()
        box.register {
            New { _ async in Tenant(name: "t") }
            Shared(Billing.Service.init)
            Shared(Shipping.Service.init)
        }
        let report = await box.validate()
        #expect(report.problems.count == 1 && report.validCount == 2, "\(report)")
    }

    // An async `Scoped` is kept once made in a run (by `resolveAsync`): a synchronous factory of the
    // same scope gets it there, so it is no conflict.
    @Test @MainActor func aMainActorScopedNeedingAnAsyncScopedIsNoConflict() async throws {
        let box = DIContainer()
        box.register {
            Scoped(.asyncNewRequest) { _ async in Tenant(name: "t") }
            Scoped(.asyncNewRequest) { @MainActor (resolve: Resolver) throws in
                RequestGate(tenant: try resolve.tryResolve())
            }
        }
        let report = await box.validate()
        try await box.withScope(.asyncNewRequest) {
            _ = try await box.resolveAsync(Tenant.self)
            _ = try box.tryResolve(RequestGate.self)
        }
        #expect(report.isValid, "\(report)")
    }

    /// A global actor's `New` is made only by an await, never for a synchronous resolve (on its actor
    /// too): validate() says what the app then does, and its fix, applied as written, works.
    @Test func aGlobalActorsNewNeededSynchronouslyOnItsActorIsAProblem() async throws {
        let box = DIContainer()
        box.register {
            New { @AsyncNewLedgerActor in AsyncNewLedger() }
            Shared { @AsyncNewLedgerActor resolve async throws in AsyncNewLedgerBook(ledger: try resolve.tryResolve()) }
        }
        await #expect(throws: ResolutionError.self) { try await box.resolveAsync(AsyncNewLedgerBook.self) }
        let report = await box.validate()
        #expect(report.problems.map(\.registration) == ["AsyncNewLedgerBook"], "\(report)")
        let plain = DIContainer()
        plain.register {
            New { @AsyncNewLedgerActor in AsyncNewLedger() }
            Shared { resolve in try AsyncNewLedgerBook(ledger: resolve.tryResolve()) }
        }
        let message = try #require(await plain.validate().problems.first).error.description
        #expect(message.contains("which only an await makes"), "\(message)")
        #expect(
            message.contains("Shared { _ async throws in … try await DIContainer.resolveAsync(AsyncNewLedger.self) }"),
            "\(message)")
        let fixed = DIContainer()
        fixed.register {
            New { @AsyncNewLedgerActor in AsyncNewLedger() }
            Shared { _ async throws in
                AsyncNewLedgerBook(ledger: try await DIContainer.resolveAsync(AsyncNewLedger.self))
            }
        }
        let fixedReport = await fixed.validate()
        #expect(fixedReport.isValid, "\(fixedReport)")
        try await fixed.prepare()
        _ = try fixed.tryResolve(AsyncNewLedgerBook.self)
    }

    /// The same for a global actor's `Graph`, and an async one: only an await makes either.
    @Test func aGraphMadeOnlyByAnAwaitNeededSynchronouslyIsAProblem() async throws {
        let box = DIContainer()
        box.register {
            Graph { @AsyncNewGraphActor in AsyncNewGraph() }
            Shared { @AsyncNewGraphActor resolve async throws in AsyncNewGraphBook(graph: try resolve.tryResolve()) }
            Graph { _ async in AsyncMadeGraph() }
            Shared { resolve async throws in AsyncMadeGraphBook(graph: try resolve.tryResolve()) }
        }
        await #expect(throws: ResolutionError.self) { try await box.resolveAsync(AsyncNewGraphBook.self) }
        await #expect(throws: ResolutionError.self) { try await box.resolveAsync(AsyncMadeGraphBook.self) }
        let report = await box.validate()
        #expect(
            report.problems.map(\.registration).sorted() == ["AsyncMadeGraphBook", "AsyncNewGraphBook"], "\(report)")
    }
}
private struct AdviceSettings: Sendable {}
private struct AdviceRemoteSettings: Sendable {}

/// Registers in nonisolated code: the async factory runs off the main actor.
private func registerRemoteSettings(in box: DIContainer) {
    box.register { Shared { _ async in AdviceRemoteSettings() } }
}

/// The synchronous form, on the main actor it blocks.
@MainActor private func validateBlockingTheMainActor(_ box: DIContainer) -> ValidationReport { box.validate() }

@Suite(.timeLimit(.minutes(1))) struct SynchronousValidateAdviceTests {
    // In main.swift's top-level code, `await DIContainer.validate()` picks the synchronous form (Swift
    // warns "no 'async' operations occur within 'await' expression"), so "call await validate()" is
    // what the user already wrote: the advice names a form that works there.
    @MainActor @Test func theNotCheckedAdviceWorksInTopLevelCode() throws {
        let box = DIContainer()
        box.register { Shared { _ async in AdviceSettings() } }
        let report = box.validate()
        let unchecked = try #require(report.unchecked.first, "\(report)")
        #expect(unchecked.reason.contains("await Task { await DIContainer.validate() }.value"), "\(report)")
    }

    // A nonisolated async factory runs off the main actor, but an await in it may hop to the main actor
    // (a `@MainActor` call), which the synchronous validate() on the main thread blocks: it is not
    // checked there (Diagnostics, "from the synchronous form on the main actor"); await validate() checks it.
    @MainActor @Test func aNonisolatedAsyncFactoryIsCheckedOnlyByTheAsyncFormOnTheMainActor() async throws {
        let box = DIContainer()
        registerRemoteSettings(in: box)
        let report = validateBlockingTheMainActor(box)
        let unchecked = try #require(report.unchecked.first, "\(report)")
        #expect(unchecked.reason.hasPrefix("it may need the main actor, which this synchronous validate() is blocking"))
        #expect(await box.validate().validCount == 1)
    }

    // The fix keeps the registration's lifetime: a `Scoped` service rewritten as a `Shared` one
    // would be kept for the app's whole life.
    @Test func theFixKeepsTheRegistrationsLifetime() async {
        let box = DIContainer()
        box.register {
            New { _ async in Tenant(name: "t") }
            Scoped(.session) { (resolve: Resolver) in SessionGate(tenant: resolve()) }
        }
        let report = await box.validate()
        #expect(
            "\(report)".contains(
                "Scoped(.session) { _ async throws in … try await DIContainer.resolveAsync(Tenant.self) }"),
            "\(report)")
    }

    // The fix's request compiles for a protocol composition: `(Reader & Writer).self`.
    @Test func theFixsRequestOfACompositionCompiles() async throws {
        let box = DIContainer()
        box.register {
            New { _ async in FileStore() as any Reader & Writer }
            Shared { (resolve: Resolver) throws -> Indexer in
                _ = try resolve.tryResolve((any Reader & Writer).self)
                return Indexer()
            }
        }
        let report = await box.validate()
        #expect("\(report)".contains("resolveAsync((Reader & Writer).self)"), "\(report)")
        // As written in the fix, it compiles (and finds the service).
        #expect(try await box.resolveAsync((Reader & Writer).self) is FileStore)
    }
}
