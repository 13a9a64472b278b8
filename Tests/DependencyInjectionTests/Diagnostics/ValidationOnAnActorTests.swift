import DependencyInjection
import Testing

// The synchronous validate() blocks the actor it is called on (the main actor, a global actor, an
// actor's method): it never waits for that actor. What needs it is listed at once as not checked,
// with the fix `await validate()`, and what needs that is not a problem either.

@globalActor private actor BlockedActor { static let shared = BlockedActor() }
/// Another test's global actor: one test blocking an actor must not hold up another's checks.
@globalActor private actor RenderingActor { static let shared = RenderingActor() }
private final class Archive: Sendable {}
private final class Indexer: Sendable { init(archive: Archive) {} }
@MainActor private final class Theme: Sendable {}
private final class Renderer: Sendable { init(theme: Theme) {} }
@MainActor private final class Banner: Sendable { static func load() async -> Banner { Banner() } }
private final class BannerSlot: Sendable { init(banner: Banner) {} }

@BlockedActor private func validateOnBlockedActor(_ box: DIContainer) -> ValidationReport { box.validate() }

@Suite(.serialized, .timeLimit(.minutes(1))) struct ValidationOnAnActorTests {
    /// Fails the test if `report` took 5 s or more, or lists a problem, or checked anything of
    /// `unchecked` (each of which it must list with the fix).
    private func expectListedAtOnce(
        _ report: ValidationReport, after start: ContinuousClock.Instant, unchecked: [String], validCount: Int
    ) {
        #expect(ContinuousClock.now - start < .seconds(5), "validate() waited for the actor it blocks")
        #expect(report.isValid && report.validCount == validCount, "\(report)")
        #expect(report.unchecked.map(\.registration).sorted() == unchecked.sorted(), "\(report)")
        for item in report.unchecked { #expect(item.reason.contains("await validate()"), "\(item)") }
    }

    @Test func onAGlobalActorItListsThatActorsServicesAtOnce() async {
        let box = DIContainer()
        box.register {
            Shared { @BlockedActor in Archive() }
            Shared { resolve throws in Indexer(archive: try resolve.tryResolve()) }
        }
        let start = ContinuousClock.now
        let report = await validateOnBlockedActor(box)
        expectListedAtOnce(report, after: start, unchecked: ["Archive", "Indexer"], validCount: 0)
        // The awaited form checks them, from that actor too.
        let awaited = await { @BlockedActor in await box.validate() }()
        #expect(awaited.isValid && awaited.validCount == 2 && awaited.unchecked.isEmpty, "\(awaited)")
    }

    @MainActor @Test func onTheMainActorAGlobalActorsFactoryNeedingTheMainActorIsListedAtOnce() {
        let box = DIContainer()
        box.register {
            Shared { @MainActor in Theme() }
            Shared { @RenderingActor resolve async throws in Renderer(theme: try resolve.tryResolve()) }
            Shared { @MainActor in Archive() }
            Shared { @RenderingActor _ async throws in Indexer(archive: try await DIContainer.resolveAsync()) }
        }
        let start = ContinuousClock.now
        let report = box.validate()
        expectListedAtOnce(report, after: start, unchecked: ["Renderer", "Indexer"], validCount: 2)
    }

    @MainActor @Test func onTheMainActorWhatNeedsAnAsyncMainActorServiceIsNotAProblem() {
        let box = DIContainer()
        box.register {
            Shared { @MainActor _ async in await Banner.load() }
            Shared { resolve throws in BannerSlot(banner: try resolve.tryResolve()) }
        }
        let start = ContinuousClock.now
        let report = box.validate()
        expectListedAtOnce(report, after: start, unchecked: ["Banner", "BannerSlot"], validCount: 0)
    }

    /// What a listed registration needs is named as it asks for it, with its name.
    @Test func whatAListedRegistrationNeedsIsNamedWithItsName() async {
        let box = DIContainer()
        box.register {
            Shared { @BlockedActor in Archive() }.named("cold")
            Shared { resolve throws in Indexer(archive: try resolve.tryResolve(Archive.self, name: "cold")) }
        }
        let report = await validateOnBlockedActor(box)
        let indexer = report.unchecked.first { $0.registration == "Indexer" }?.reason
        #expect(indexer?.contains("it needs 'Archive' (name: \"cold\"), which it cannot get") == true, "\(report)")
    }
}
