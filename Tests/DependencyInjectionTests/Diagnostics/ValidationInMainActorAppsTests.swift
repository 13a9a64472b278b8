import DependencyInjection
import Dispatch
import Foundation
import Testing

// validate() as a new app with default MainActor isolation uses it: the seed's `@Inject` style in
// main-actor types is reported, not trapped; `await validate()` checks what needs the main actor;
// the synchronous form on the main actor never waits for it; the answer is the same on every
// thread; each factory runs once per call.

private protocol RecommendationEngine: AnyObject {}
@MainActor private final class RecommendationBanner {
    @Inject var engine: RecommendationEngine
    init() {}
}
/// The line of `RecommendationBanner.engine`'s declaration, as the report names it.
private let bannerEngineLine = 13

private final class Catalog: Sendable {}
@MainActor private final class ProductList {
    @Inject var catalog: Catalog
    @MutableInject var engine: RecommendationEngine
    init() {}
}

@MainActor private final class Theme: Sendable {
    nonisolated init() {}
}
/// Runs on any thread; needs a Sendable main-actor `Shared`, which prepare() makes first.
private final class Header: Sendable { init(theme: Theme) {} }
private protocol Client: AnyObject, Sendable {}
private final class LiveClient: Client {}
private final class LoggingClient: Client { init(_ inner: any Client) {} }
private protocol Palette: AnyObject, Sendable {}
@MainActor private final class MainActorPalette: Palette {}
private final class Swatch: Sendable { init(palette: any Palette) {} }

@MainActor private final class RemoteBanner {
    static func load() async -> RemoteBanner { RemoteBanner() }
}

@globalActor private actor LedgerActor { static let shared = LedgerActor() }
// A test whose validate() checks run on a global actor has that actor to itself, and so does the
// synchronous validate() that blocks one (docs/Design.md, "Changing things"): these tests run in parallel.
@globalActor private actor NonThrowingLedgerActor { static let shared = NonThrowingLedgerActor() }
@globalActor private actor BlockedByValidateActor { static let shared = BlockedByValidateActor() }
private final class Ledger: Sendable {}
private final class MadeCount: @unchecked Sendable {
    // Unchecked: `count` is guarded by `lock`.
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
private final class Bookkeeper { init(ledger: Ledger) {} }
private protocol FeedTracker: AnyObject {}
private final class FeedClient {}
private final class RemoteFeedTracker: FeedTracker { init(client: FeedClient) {} }
private final class FeedAnalytics {
    static let declaration = #line + 1
    @InjectAll var trackers: [FeedTracker]
}
private final class CatalogUser { init(catalog: Catalog) {} }

/// The reports of `validate()` for a container `registrations` makes afresh each time: on a thread
/// of its own, awaited in a detached task, and synchronously on the main actor.
private func reportsOnEveryThread(
    _ registrations: @escaping @Sendable () -> DIContainer
) async -> [ValidationReport] {
    let offMain = await withCheckedContinuation { done in
        Thread { done.resume(returning: registrations().validate()) }.start()
    }
    let detached = await Task.detached { await registrations().validate() }.value
    let onMain = await MainActor.run { registrations().validate() }
    let onAGlobalActor = await { @BlockedByValidateActor in registrations().validate() }()
    return [offMain, detached, onMain, onAGlobalActor]
}

@Suite(.timeLimit(.minutes(1))) struct ValidationInMainActorAppsTests {
    private func expectReportsMissingEngine(_ report: ValidationReport) {
        let problem = report.problems.first { $0.registration == "RecommendationBanner" }
        #expect(problem != nil, "\(report)")
        let message = problem?.error.description ?? ""
        #expect(message.contains("No registration for 'RecommendationEngine'"), "\(message)")
        #expect(message.contains("RecommendationBanner -> RecommendationEngine"), "\(message)")
        #expect(
            message.contains("ValidationInMainActorAppsTests.swift:\(bannerEngineLine)"), "\(message)")
    }

    /// `@InjectAll` whose elements need a missing service is reported as `@Inject` is, naming its
    /// declaration, on the main actor too (it trapped there), and parks no thread elsewhere.
    @Test func aMissingDependencyOfInjectAllIsReportedOnEveryThread() async {
        @Sendable func registrations() -> DIContainer {
            let box = DIContainer()
            box.register {
                Shared(FeedAnalytics.init)
                Shared(RemoteFeedTracker.init, as: FeedTracker.self)
            }
            return box
        }
        for report in await reportsOnEveryThread(registrations) {
            let problem = report.problems.first { $0.registration == "FeedAnalytics" }?.error.description ?? ""
            #expect(problem.contains("No registration for 'FeedClient'"), "\(report)")
            #expect(problem.contains("ValidationInMainActorAppsTests.swift:\(FeedAnalytics.declaration)"), "\(report)")
        }
    }

    @MainActor @Test func missingInjectOfAMainActorTypeIsReportedOnTheMainActor() {
        let box = DIContainer()
        box.register { Shared(RecommendationBanner()) }
        expectReportsMissingEngine(box.validate())
    }

    @Test func missingInjectOfAMainActorTypeIsReportedFromAnyThread() async {
        let box = DIContainer()
        box.register { Shared { @MainActor in RecommendationBanner() } }
        let report = await withCheckedContinuation { done in
            Thread { done.resume(returning: box.validate()) }.start()
        }
        expectReportsMissingEngine(report)
    }

    @MainActor @Test func awaitedValidateReportsMissingInjectOnTheMainActor() async {
        let box = DIContainer()
        box.register { Shared(RecommendationBanner()) }
        expectReportsMissingEngine(await box.validate())
    }

    @MainActor @Test func ownerWithAFailingWrapperIsDroppedAndNothingElseIsReported() async {
        let box = DIContainer()
        box.register {
            Shared(Catalog())
            New(ProductList())
        }
        let report = await box.validate()
        #expect(report.problems.map(\.registration) == ["ProductList"], "\(report)")
        #expect(report.validCount == 1)
        // The container itself made nothing, and still traps nowhere: Catalog resolves.
        #expect((try? box.tryResolve(Catalog.self)) != nil)
    }

    @MainActor @Test func synchronousValidateOnTheMainActorListsAsyncMainActorFactoriesAtOnce() {
        let box = DIContainer()
        box.register { Shared { @MainActor _ async in await RemoteBanner.load() } }
        let started = DispatchTime.now()
        let report = box.validate()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        #expect(seconds < 5, "validate() waited \(seconds) s for the main actor it blocks")
        #expect(report.unchecked.count == 1, "\(report)")
        #expect(report.unchecked.first?.reason.contains("await validate()") == true, "\(report)")
    }

    @MainActor @Test func awaitedValidateChecksAsyncMainActorFactories() async {
        let box = DIContainer()
        box.register { Shared { @MainActor _ async in await RemoteBanner.load() } }
        let report = await box.validate()
        #expect(report.isValid && report.validCount == 1 && report.unchecked.isEmpty, "\(report)")
    }

    private func headerRegistrations() -> DIContainer {
        let box = DIContainer()
        box.register {
            Shared { @MainActor in Theme() }
            Shared(Header.init)
        }
        return box
    }

    @Test func aServiceNeedingASendableMainActorSharedIsValidOnEveryThread() async {
        for report in await reportsOnEveryThread({ headerRegistrations() }) {
            #expect(report.isValid && report.validCount == 2, "\(report)")
        }
    }

    /// The same need written as a closure that does not throw (probed where a failing `resolve()`
    /// can park): tried again once the main-actor service is made, as the app runs after prepare().
    @Test func aClosureNeedingASendableMainActorSharedIsValidOnEveryThread() async {
        @Sendable func registrations() -> DIContainer {
            let box = DIContainer()
            box.register {
                Shared { resolve in Header(theme: resolve()) }
                Shared { @MainActor in Theme() }
            }
            return box
        }
        for report in await reportsOnEveryThread(registrations) {
            #expect(report.isValid && report.validCount == 2, "\(report)")
        }
    }

    /// A plain registration with a `@MainActor` decorator goes through main-actor code: it is
    /// checked on the main actor, with the same answer whichever thread or actor validates; one
    /// that does not throw (where a failing `resolve()` can only trap) is not checked, everywhere.
    @Test func aServiceWithAMainActorDecoratorHasTheSameAnswerEverywhere() async {
        @Sendable func registrations() -> DIContainer {
            let box = DIContainer()
            box.register {
                Shared(LiveClient() as Client)
                Decorate(Client.self) { @MainActor client, _ throws in LoggingClient(client) }
            }
            return box
        }
        for report in await reportsOnEveryThread(registrations) {
            #expect(report.isValid && report.validCount == 1, "\(report)")
        }
        @Sendable func nonThrowing() -> DIContainer {
            let box = DIContainer()
            box.register {
                Shared(LiveClient() as Client)
                Decorate(Client.self) { @MainActor client, _ in LoggingClient(client) }
            }
            return box
        }
        for report in await reportsOnEveryThread(nonThrowing) {
            #expect(report.isValid && report.unchecked.count == 1, "\(report)")
        }
    }

    /// Reached through `as:`, a main-actor factory's value stays on the main actor (its
    /// conformance may be isolated there), even after `prepare()`: a plain factory that needs it is
    /// an isolation conflict, whichever thread or actor validates.
    @Test func aServiceNeedingAMainActorSharedThroughAnAliasIsAConflictOnEveryThread() async {
        let awaited = await paletteRegistrations().validate()
        for report in await reportsOnEveryThread({ paletteRegistrations() }) + [awaited] {
            guard report.problems.count == 1,
                case .isolationConflict(let registration, let dependency) = report.problems[0].error.reason
            else {
                Issue.record("not one isolation conflict: \(report)")
                continue
            }
            #expect(registration.hasPrefix("'Swatch' (Shared"), "\(report)")
            // Counted alike too: the conflicted registration is a problem, not one that resolved.
            #expect(report.validCount == 1, "\(report)")
            #expect(dependency.hasPrefix("'MainActorPalette' (Shared, on MainActor"), "\(report)")
        }
    }

    private func paletteRegistrations() -> DIContainer {
        let box = DIContainer()
        box.register {
            Shared({ @MainActor in MainActorPalette() }, as: (any Palette).self)
            Shared(Swatch.init)
        }
        return box
    }

    @Test func aPlainFactoryNeedingAGlobalActorServiceRunsOnce() async {
        let made = MadeCount()
        let box = DIContainer()
        box.register {
            Shared { @LedgerActor in Ledger() }
            Shared { resolve throws in
                made.increment()
                return Bookkeeper(ledger: try resolve.tryResolve())
            }
        }
        let report = await box.validate()
        #expect(report.isValid && report.validCount == 2, "\(report)")
        #expect(made.value == 1)
    }

    /// The same with a closure that does not throw, whose failing first try would park a thread
    /// for good on every call (and past the cap of 64, leave it unchecked): it runs once, valid.
    @Test func aNonThrowingClosureNeedingAGlobalActorServiceRunsOnce() async {
        let made = MadeCount()
        let box = DIContainer()
        box.register {
            Shared { @NonThrowingLedgerActor in Ledger() }
            Shared { resolve in
                made.increment()
                return Bookkeeper(ledger: resolve())
            }
        }
        let report = await box.validate()
        #expect(report.isValid && report.validCount == 2, "\(report)")
        #expect(made.value == 1)
    }

    @Test func aNewNeededByTwoRegistrationsIsMadeOncePerValidate() async {
        let made = MadeCount()
        let box = DIContainer()
        box.register {
            New { () -> Catalog in
                made.increment()
                return Catalog()
            }
            Shared(CatalogUser.init).named("a")
            Shared(CatalogUser.init).named("b")
        }
        let report = await box.validate()
        #expect(report.isValid && report.validCount == 3, "\(report)")
        #expect(made.value == 1)
    }
}
