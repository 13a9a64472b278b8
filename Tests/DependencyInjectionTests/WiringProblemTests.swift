import DependencyInjection
import Testing

// What validate() reports beyond failures (issue 22): lifetime mismatches, isolation conflicts and
// the same type and name registered twice in one register call or Module.

private final class RequestContext {}
private final class ResultCache { init(context: RequestContext) {} }
private final class Thumbnails { init(context: RequestContext) {} }
private final class RequestHandler { init(context: RequestContext) {} }
@MainActor private final class ScreenState {}
private final class UsageAnalytics { init(state: ScreenState) {} }

@Suite(.timeLimit(.minutes(1))) struct WiringProblemTests {
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
