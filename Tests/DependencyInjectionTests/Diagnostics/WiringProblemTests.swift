import DependencyInjection
import Testing

// What validate() reports beyond failures: lifetime mismatches, isolation conflicts and
// the same type and name registered twice in one register call or Module.

private final class RequestContext {}
private final class ResultCache { init(context: RequestContext) {} }
private final class Thumbnails { init(context: RequestContext) {} }
private final class RequestHandler { init(context: RequestContext) {} }
@MainActor private final class ScreenState {}
private final class UsageAnalytics { init(state: ScreenState) {} }

private final class Formatter { init(context: RequestContext) {} }
private final class Printer { init(formatter: Formatter) {} }
private final class AsyncA: Sendable { init(b: SyncB) {} }
private final class SyncB { init(a: AsyncA) {} }

private protocol UndecoratedClient: Sendable {}
private struct LiveUndecoratedClient: UndecoratedClient {}

private final class DecoratedInItsParent: Sendable {}

private protocol ParentOnlyLogging: Sendable {}
private struct ParentOnlyLogger: ParentOnlyLogging {}

private protocol OverriddenStore {}
private final class OverriddenDefaultStore: OverriddenStore {}
private final class OverridingFeatureStore: OverriddenStore {}

@Suite(.timeLimit(.minutes(1))) struct WiringProblemTests {
    @Test func aSharedKeepingAGraphThroughANewIsALifetimeMismatch() async throws {
        let box = DIContainer()
        box.register {
            Graph(RequestContext.init)
            New(Formatter.init)
            Shared(Printer.init)
        }
        let report = await box.validate()
        let mismatch = try #require(report.problems.first { $0.registration == "Printer" }, "\(report)")
        #expect(mismatch.error.description.contains("'RequestContext' (Graph,"), "\(mismatch)")
        #expect(mismatch.error.description.contains("through 'Formatter' (New,"), "\(mismatch)")
        #expect(report.problems.count == 1, "\(report)")
    }

    @Test func aCycleThroughAnAsyncFactoryIsACycle() async throws {
        let box = DIContainer()
        box.register {
            Shared { resolve async throws in AsyncA(b: try resolve.tryResolve()) }
            Shared { resolve in try SyncB(a: resolve.tryResolve()) }
        }
        let cycle = ResolutionError.Reason.dependencyCycle(cycle: ["AsyncA", "SyncB", "AsyncA"])
        let report = await box.validate()
        #expect(report.problems.first?.error.reason == cycle, "\(report)")
        await #expect { try await box.prepare() } throws: { ($0 as? ResolutionError)?.reason == cycle }
        await #expect { _ = try await box.resolveAsync(AsyncA.self) } throws: {
            ($0 as? ResolutionError)?.reason == cycle
        }
    }

    @Test func sharedOrWeakThatKeepsAGraphInstanceIsALifetimeMismatch() throws {
        let box = DIContainer()
        box.register {
            Graph(RequestContext.init)
            Shared(ResultCache.init)
            Weak(Thumbnails.init)
            New(RequestHandler.init)
        }
        let report = box.validate()
        let mismatches = report.problems.filter {
            if case .lifetimeMismatch = $0.error.reason { true } else { false }
        }
        #expect(mismatches.map(\.registration) == ["ResultCache", "Thumbnails"], "\(report)")
        let message = try #require(mismatches.first).error.description
        for part in [
            "'ResultCache' (Shared, DependencyInjectionTests/WiringProblemTests.swift:", "'RequestContext' (Graph,",
            "To fix",
        ] {
            #expect(message.contains(part), "\(message)")
        }
    }

    @Test func aSharedThatKeepsASessionScopedServiceIsALifetimeMismatch() throws {
        let box = DIContainer()
        box.register {
            Scoped(.wiringSession, WiringUserSession.init)
            Shared(WiringProfileCache.init)  // would keep the session past sign-out
            Scoped(.wiringSession, WiringCart.init)  // the same scope: fine
        }
        let report = box.validate()
        let mismatches = report.problems.filter {
            if case .lifetimeMismatch = $0.error.reason { true } else { false }
        }
        #expect(mismatches.map(\.registration) == ["WiringProfileCache"], "\(report)")
        let message = try #require(mismatches.first).error.description
        #expect(message.contains("'WiringUserSession' (Scoped"), "\(message)")
    }

    @Test func serviceMadeAnywhereThatNeedsAMainActorServiceIsAnIsolationConflict() async throws {
        let box = DIContainer()
        await MainActor.run { box.register { New { @MainActor in ScreenState() } } }
        box.register { Shared { resolve in try UsageAnalytics(state: resolve.tryResolve()) } }
        let report = await box.validate()
        let conflict = try #require(
            report.problems.first { if case .isolationConflict = $0.error.reason { true } else { false } }, "\(report)")
        #expect(conflict.registration == "UsageAnalytics")
        #expect(report.problems.count == 1, "reported once, as the conflict: \(report)")
        #expect(conflict.error.description.contains("'ScreenState' (New, on MainActor, "), "\(conflict)")
        #expect(conflict.error.description.contains("To fix, isolate"))
    }

    @Test func sameTypeAndNameTwiceInOneRegisterCallIsReported() throws {
        let box = DIContainer()
        box.register {
            Shared(MemoryStore() as Store)
            New(PostgresStore() as Store)
            Shared(MemoryStore() as Store).named("cache")
        }
        let report = box.validate()
        let duplicate = try #require(report.problems.first, "\(report)")
        #expect(report.problems.count == 1)
        #expect(duplicate.registration == "Store")
        #expect(
            duplicate.error.description.contains("'Store' (Shared, DependencyInjectionTests/WiringProblemTests.swift:"))
        #expect(duplicate.error.description.contains("'Store' (New, "))
    }

    /// A feature overriding a core default in the same register call is told the third fix, which holds:
    /// the override in a later register call replaces the default and is no duplicate.
    @Test func aDuplicateSaysAnOverrideGoesInALaterRegisterCall() throws {
        let core = Module { Shared(OverriddenDefaultStore() as OverriddenStore) }
        let feature = Module { Shared(OverridingFeatureStore() as OverriddenStore) }
        let together = DIContainer()
        together.register {
            core
            feature
        }
        let duplicate = try #require(together.validate().problems.first)
        #expect(
            duplicate.error.description.hasSuffix(
                "To fix, remove one of them, tell them apart with .named(\"…\"), or, to override one, register "
                    + "the override in a later register call."), "\(duplicate)")
        let apart = DIContainer()
        apart.register { core }
        apart.register { feature }
        #expect(apart.validate().isValid)
        #expect(apart.resolve(OverriddenStore.self) is OverridingFeatureStore)
    }

    @Test func aModuleIncludedTwiceAndSeparateRegisterCallsAreNoDuplicates() {
        let feature = Module { Shared(MemoryStore() as Store) }
        let box = DIContainer()
        box.register {
            feature
            feature
        }
        box.register(New(PostgresStore() as Store))
        #expect(box.validate().isValid)
    }

    /// A `Decorate` of a type its container does not register (the implementation of a protocol
    /// registration) never runs: validate() says so, where it was written, and what to decorate.
    @Test func aDecorateOfATypeNothingIsRegisteredAsIsAProblem() async throws {
        let box = DIContainer()
        box.register {
            Shared(LiveUndecoratedClient() as UndecoratedClient)
            Decorate(LiveUndecoratedClient.self) { client, _ in client }  // meant: Decorate(UndecoratedClient.self)
        }
        let report = await box.validate()
        let problem = try #require(report.problems.first, "\(report)")
        #expect(
            report.problems.count == 1 && problem.registration == "Decorate(LiveUndecoratedClient.self)", "\(report)")
        #expect("\(problem)".contains("Registered at DependencyInjectionTests/WiringProblemTests.swift:"), "\(report)")
        #expect(problem.error.description.contains("decorate the type the service is registered as"), "\(report)")
        let fixed = DIContainer()
        fixed.register {
            Shared(LiveUndecoratedClient() as UndecoratedClient)
            Decorate(UndecoratedClient.self) { client, _ in client }
        }
        #expect(await fixed.validate().isValid)
    }

    /// A child's `Decorate` of a type its parent registers never runs (resolving through the child
    /// gives the parent's undecorated value): reported, without saying the type is not registered;
    /// a `Decorate` of an `Optional` is not told to register an `Optional`.
    @Test func aDecorateOfAParentsTypeSaysItNeverRuns() async throws {
        let parent = DIContainer()
        parent.register { Shared { DecoratedInItsParent() } }
        let child = DIContainer(parent: parent)
        child.register {
            Decorate(DecoratedInItsParent.self) { value, _ in value }
            Decorate(DecoratedInItsParent?.self) { value, _ in value }
        }
        _ = try child.tryResolve(DecoratedInItsParent.self)
        let problems = await child.validate().problems
        #expect(problems.count == 2, "\(problems)")
        for problem in problems {
            #expect(!problem.error.description.hasPrefix("No registration for"), "\(problem)")
            #expect(problem.error.description.contains("so this Decorate never runs"), "\(problem)")
            #expect(!problem.error.description.contains("register {"), "\(problem)")
        }
    }

    /// A child's `Decorate` of exactly the type its parent registers: the type is right, the container is
    /// not, so the fix names the parent, not the `as:` type.
    @Test func aChildsDecorateOfTheTypeItsParentRegistersIsToldToMoveToTheParent() async throws {
        let parent = DIContainer()
        parent.register { Shared(ParentOnlyLogger() as ParentOnlyLogging) }
        let child = DIContainer(parent: parent)
        child.register { Decorate(ParentOnlyLogging.self) { logger, _ in logger } }
        let problem = try #require(await child.validate().problems.first)
        #expect(
            problem.error.description.hasSuffix(
                "To fix, decorate it in the parent container that registers it, or register it in this container too."),
            "\(problem)")
        #expect(!problem.error.description.contains("as:"), "\(problem)")
    }
}

extension DIScope {
    static let wiringSession = DIScope("wiringSession")
}

final class WiringUserSession { init() {} }
final class WiringProfileCache {
    let session: WiringUserSession
    init(session: WiringUserSession) { self.session = session }
}
final class WiringCart {
    let session: WiringUserSession
    init(session: WiringUserSession) { self.session = session }
}

extension DIScope {
    fileprivate static let wiringRequest = DIScope("wiringRequest", requiresRun: true)
    fileprivate static let wiringUserSession = DIScope("wiringUserSession")
}
private final class WiringRequestContext {}
private final class WiringSessionCache { init(context: WiringRequestContext) {} }
private final class WiringRequestHandler { init(context: WiringRequestContext) {} }

@Suite(.timeLimit(.minutes(1))) struct RunOnlyScopeValidationTests {
    @Test func runOnlyScopedRegistrationsAreCheckedInsideARunOfTheirOwn() async {
        let box = DIContainer()
        box.register {
            Scoped(.wiringRequest, WiringRequestContext.init)
            Scoped(.wiringRequest, WiringRequestHandler.init)
        }
        let report = await box.validate()
        #expect(report.isValid && report.validCount == 2, "\(report)")
    }

    @Test func anOrdinaryScopeKeepingARunOnlyOneIsALifetimeMismatch() async throws {
        let box = DIContainer()
        box.register {
            Scoped(.wiringRequest, WiringRequestContext.init)
            Scoped(.wiringUserSession, WiringSessionCache.init)
        }
        let report = await box.validate()
        let problem = try #require(report.problems.first, "\(report)")
        #expect(problem.registration == "WiringSessionCache")
        #expect(problem.error.description.contains("'WiringRequestContext' (Scoped"), "\(problem)")
        #expect(report.problems.count == 1, "\(report)")
    }
}

private final class ArgumentModel {
    let id: String
    init(id: String) { self.id = id }
}
private final class ArgumentList {
    let model: ArgumentModel
    init(model: ArgumentModel) { self.model = model }
}
private final class ArgumentDetail {
    let model: ArgumentModel
    init(model: ArgumentModel) { self.model = model }
}
private final class ParentRequest {}
private final class ParentHelper {
    let request: ParentRequest
    init(request: ParentRequest) { self.request = request }
}
private final class ChildApp {
    let helper: ParentHelper
    init(helper: ParentHelper) { self.helper = helper }
}

@Suite struct ValidationAcrossArgumentsAndParentsTests {
    /// A `New` that takes arguments, resolved without them: a failure at run time, though another
    /// check made one with its arguments.
    @Test func validateSeesANewResolvedWithoutItsArguments() {
        let box = DIContainer()
        box.register {
            New { (_, id: String) in ArgumentModel(id: id) }
            Shared { resolve in ArgumentList(model: try resolve.tryResolve(arguments: { "1" })) }
            Shared { resolve in ArgumentDetail(model: try resolve.tryResolve()) }  // argument forgotten
        }
        #expect(throws: ResolutionError.self) { try box.tryResolve(ArgumentDetail.self) }
        let report = box.validate()
        #expect(!report.isValid, "\(report)")
        #expect(report.description.contains("ArgumentDetail"), "\(report)")
    }

    /// The same for a `Graph` that takes arguments, resolved without them in another resolution;
    /// within the resolution that made it, a resolve without arguments finds it, as at run time.
    @Test func validateSeesAGraphResolvedWithoutItsArgumentsInAnotherResolution() {
        let box = DIContainer()
        box.register {
            Graph { (_, id: String) in ArgumentModel(id: id) }
            New { resolve in ArgumentList(model: try resolve.tryResolve(arguments: { "1" })) }
            New { resolve in ArgumentDetail(model: try resolve.tryResolve()) }  // argument forgotten
        }
        #expect(throws: ResolutionError.self) { try box.tryResolve(ArgumentDetail.self) }
        #expect(!box.validate().isValid)

        let valid = DIContainer()
        valid.register {
            Graph { (_, id: String) in ArgumentModel(id: id) }
            New { resolve in
                let first: ArgumentModel = try resolve.tryResolve(arguments: { "1" })
                let again: ArgumentModel = try resolve.tryResolve()
                return ArgumentList(model: first === again ? again : first)
            }
        }
        #expect(throws: Never.self) { try valid.tryResolve(ArgumentList.self) }
        #expect(valid.validate().isValid, "\(valid.validate())")
    }

    /// A lifetime is followed through a parent's `New`, with the parent's registrations (which
    /// made the `New`), not the child's.
    @Test func validateFollowsALifetimeThroughAParentsNew() {
        let parent = DIContainer()
        parent.register {
            New(ParentHelper.init)
            Graph(ParentRequest.init)
        }
        let child = DIContainer(parent: parent)
        child.register { Shared(ChildApp.init) }
        let report = child.validate()
        #expect(!report.isValid)
        #expect(report.description.contains("through 'ParentHelper'"), "\(report)")

        let shadowing = DIContainer(parent: parent)
        shadowing.register {
            Shared(ChildApp.init)
            Shared(ParentRequest.init)  // not what the parent's New gets
        }
        #expect(!shadowing.validate().isValid)
    }
}
