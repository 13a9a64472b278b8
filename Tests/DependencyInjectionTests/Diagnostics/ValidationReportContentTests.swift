import DependencyInjection
import Testing

// What validate() leaves alone and what its report and the registrations listing say.

private protocol ReportTracker: AnyObject {}
private final class ReportTrackerImpl: ReportTracker { init() {} }
private protocol ReportRouter: AnyObject {}
private final class ReportRouterImpl: ReportRouter { init() {} }
private final class ReportConfig { init() {} }
private final class ReportSession { init() {} }
private final class ReportMissing { init() {} }
private final class ReportKennel { init(missing: ReportMissing) {} }
private final class ReportBanner {
    @Inject var missing: ReportMissing
    init() {}
}
private final class ReportAsyncBanner: @unchecked Sendable {  // (made once, read by nobody else)
    @Inject var missing: ReportMissing
    init() {}
}
@globalActor private actor ReportActor { static let shared = ReportActor() }
@ReportActor private final class ReportActorBanner {
    @Inject var missing: ReportMissing
    init() {}
}
private protocol ReportRecommender: AnyObject {}
private final class ReportShelf {
    @Inject(file: "App/Registrations.swift", line: 120) var recommender: ReportRecommender
}
private final class ReportFlags: Sendable { init(missing: ReportMissing) {} }
private final class ReportDashboard { init(flags: ReportFlags) {} }
extension DIScope {
    fileprivate static let reportSession = DIScope("reportSession")
}

private final class ParkedSlow: Sendable {}
private final class ParkedNeedsSlow: Sendable { init(slow: ParkedSlow) {} }
private final class ParkedHoldsNeedsSlow: Sendable { init(_ needs: ParkedNeedsSlow) {} }
/// Reads its `@Inject` in its own `init`: while validate() makes it, the wrapper is empty.
private final class ReportReadsInInit {
    static let declaration = #line + 1
    @Inject var missing: ReportMissing
    var seen: ObjectIdentifier?
    init() { seen = ObjectIdentifier(missing) }
}
/// The same, made by an async factory (its value must be Sendable).
private final class ReportAsyncReadsInInit: @unchecked Sendable {  // (made once, read by nobody else)
    static let declaration = #line + 1
    @Inject var missing: ReportMissing
    var seen: ObjectIdentifier?
    init() { seen = ObjectIdentifier(missing) }
}
private final class ReportMutableReadsInInit {
    @MutableInject var missing: ReportMissing
    var seen: ObjectIdentifier?
    init() { seen = ObjectIdentifier(missing) }
}
/// Two wrappers that fail: the report names the first.
private final class ReportTwoMissing {
    static let firstDeclaration = #line + 1
    @Inject var first: ReportMissing
    @Inject(name: "second") var second: ReportMissing
    init() {}
}

private final class ParkOrderSlow: Sendable {}
private final class ParkOrderNeeds: Sendable { init(slow: ParkOrderSlow) {} }
private final class ParkOrderHolder: Sendable { init(_ needs: ParkOrderNeeds) {} }

private final class AsideLeaf: Sendable {}
private final class AsideMid: Sendable {}
private final class AsideTop: Sendable {}
private final class AsideMissing: Sendable {}

@Suite(.timeLimit(.minutes(1))) struct ValidationReportContentTests {
    @Test func validateLeavesTheInstancesTheContainerAlreadyMade() {
        let box = DIContainer()
        let made = Tally()
        box.register {
            Shared { Counted(made) }
            Scoped(.reportSession, ReportSession.init)
        }
        let kept = box.resolve(Counted.self)
        let scoped = box.resolve(ReportSession.self)
        let report = box.validate()
        #expect(report.isValid, "\(report)")
        #expect(box.resolve(Counted.self) === kept)
        #expect(box.resolve(ReportSession.self) === scoped)
    }

    @Test func theSameNameTwiceInOneModuleIsReportedWithTheFileOfEach() {
        let box = DIContainer()
        box.register(
            Module {
                Shared(ReportTrackerImpl() as ReportTracker).named("n")
                Shared(ReportTrackerImpl() as ReportTracker).named("n")
            })
        let report = box.validate()
        #expect(!report.isValid, "\(report)")
        #expect("\(report)".contains("ValidationReportContentTests.swift"), "\(report)")
    }

    @Test func aWrappersProblemNamesTheWrappersDeclaration() {
        let box = DIContainer()
        box.register { New(ReportBanner.init) }
        let report = box.validate()
        #expect(!report.isValid)
        #expect("\(report)".contains("Property wrapper declared at"), "\(report)")
        #expect("\(report)".contains("ValidationReportContentTests.swift:"), "\(report)")
    }

    @Test func theReportStartsWithTheCountsOfProblemsResolvedAndNotChecked() {
        let box = DIContainer()
        box.register {
            Shared { resolve in try ReportKennel(missing: resolve.tryResolve()) }
            Shared(ReportConfig.init)
            New { _, id in ConcreteViewModel(id: id) }
        }
        let text = "\(box.validate())"
        #expect(
            text.hasPrefix("Container has 1 problem(s): 1 registration(s) resolved, 1 not checked."), "\(text)")
    }

    @Test func theListingShowsEachRegistrationsLifetimeAliasesNameAndArgumentsOnItsLine() {
        let box = DIContainer()
        box.register {
            Shared(ReportRouterImpl.init, as: ReportRouter.self)
            Shared(ReportConfig.init).named("audit")
            New { _, id in ConcreteViewModel(id: id) }
        }
        let text = "\(box.registrations)"
        #expect(text.contains("ReportRouterImpl — Shared, as ReportRouter — "), "\(text)")
        #expect(text.contains("ReportConfig (name: \"audit\") — Shared — "), "\(text)")
        #expect(text.contains("ConcreteViewModel — New, arguments (String) — "), "\(text)")
    }

    // A property wrapper's failure in what a global actor's or an async factory makes names the
    // resolution path, as in what a synchronous factory makes.
    @Test func aWrapperFailureInAnActorsOrAnAsyncFactoryHasItsPath() async {
        let box = DIContainer()
        box.register {
            Shared { @ReportActor in ReportActorBanner() }
            Shared { _ async in ReportAsyncBanner() }
        }
        let report = await box.validate()
        #expect(
            report.problems.map(\.error.path) == [
                ["ReportActorBanner", "ReportMissing"], ["ReportAsyncBanner", "ReportMissing"],
            ], "\(report)")
    }

    // What needs a failing async service fails for the same reason, with the path through it: not
    // "not made yet, call prepare()", which the app already calls (and which throws that reason).
    @Test func aDependentOfAFailingAsyncServiceNamesTheRootCause() async throws {
        let box = DIContainer()
        box.register {
            Shared { resolve async throws in ReportFlags(missing: try resolve.tryResolve()) }
            Shared(ReportDashboard.init)
        }
        let report = await box.validate()
        let dashboard = try #require(report.problems.first { $0.registration == "ReportDashboard" }, "\(report)")
        #expect(dashboard.error.reason == .missingRegistration, "\(report)")
        #expect(dashboard.error.path == ["ReportDashboard", "ReportFlags", "ReportMissing"], "\(report)")
    }

    // A registration that failed says where it was registered, as one not checked does.
    @Test func aFailedRegistrationSaysWhereItWasRegistered() throws {
        let box = DIContainer()
        box.register { Shared(ReportKennel.init) }
        let report = box.validate()
        let problem = try #require(report.problems.first, "\(report)")
        let place = "DependencyInjectionTests/ValidationReportContentTests.swift:\(#line - 3)"
        #expect(problem.description.hasSuffix("\n    Registered at \(place)."), "\(report)")
    }

    // Even where the message names another line that begins with the same digits.
    @Test func aFailedRegistrationSaysWhereItWasRegisteredBesideALongerLineNumber() throws {
        let box = DIContainer()
        box.register { Shared(ReportShelf.init, fileID: "App/Registrations.swift", line: 12) }
        let problem = try #require(box.validate().problems.first)
        #expect(problem.description.contains("Registered at App/Registrations.swift:12."), "\(problem)")
    }

    /// A non-throwing resolve() failing in a nonisolated async factory (its check's thread parks)
    /// is reported with the path a thrown failure has, also for an async factory that awaited it.
    @Test func aFailureThatParksAnAsyncChecksThreadHasItsPath() async {
        let box = DIContainer()
        box.register {
            Shared { resolve async in ParkedNeedsSlow(slow: resolve()) }
            Shared { _ async throws in ParkedHoldsNeedsSlow(try await DIContainer.resolveAsync(ParkedNeedsSlow.self)) }
        }
        let report = await box.validate()
        let needs = report.problems.first { $0.registration == "ParkedNeedsSlow" }
        let holder = report.problems.first { $0.registration == "ParkedHoldsNeedsSlow" }
        #expect(needs?.error.path == ["ParkedNeedsSlow", "ParkedSlow"], "\(report)")
        #expect(holder?.error.path == ["ParkedHoldsNeedsSlow", "ParkedNeedsSlow", "ParkedSlow"], "\(report)")
    }

    /// The same, checked in the other order (the outer run's check makes the inner one): each
    /// registration's path begins with itself.
    @Test func aFailureThatParksThroughAnOuterRunKeepsTheInnerRegistrationsPath() async {
        let box = DIContainer()
        box.register {
            Shared { _ async throws in ParkOrderHolder(try await DIContainer.resolveAsync(ParkOrderNeeds.self)) }
            Shared { resolve async in ParkOrderNeeds(slow: resolve()) }
        }
        let report = await box.validate()
        let needs = report.problems.first { $0.registration == "ParkOrderNeeds" }
        let holder = report.problems.first { $0.registration == "ParkOrderHolder" }
        #expect(needs?.error.path == ["ParkOrderNeeds", "ParkOrderSlow"], "\(report)")
        #expect(holder?.error.path == ["ParkOrderHolder", "ParkOrderNeeds", "ParkOrderSlow"], "\(report)")
    }

    /// A wrapper read in its owner's `init` while validate() makes the owner (it is empty there) is
    /// reported, naming the wrapper's declaration, not trapped (`DIContainer.failedInjection`).
    @Test func anInjectReadInItsOwnersInitIsReportedNotTrapped() async {
        let box = DIContainer()
        box.register { New(ReportReadsInInit.init) }
        let report = await Task.detached { box.validate() }.value
        #expect(!report.isValid)
        #expect(report.problems.count == 1, "\(report)")
        let text = "\(report)"
        #expect(text.contains("ReportMissing"), "\(report)")
        #expect(
            text.contains("ValidationReportContentTests.swift:\(ReportReadsInInit.declaration)."),
            "the wrapper's declaration: \(report)")
    }

    /// The same for a `@MutableInject`.
    @Test func aMutableInjectReadInItsOwnersInitIsReportedNotTrapped() async {
        let box = DIContainer()
        box.register { Shared { _ in ReportMutableReadsInInit() } }
        let report = await Task.detached { box.validate() }.value
        #expect(report.problems.count == 1, "\(report)")
        #expect("\(report)".contains("ReportMissing"), "\(report)")
    }

    /// The same in an async factory's run (`AsyncMaking.running?.failedInjection`).
    @Test func anInjectReadInItsOwnersInitInAnAsyncFactoryIsReportedNotTrapped() async {
        let box = DIContainer()
        box.register { Shared { _ async in ReportAsyncReadsInInit() } }
        let report = await box.validate()
        #expect(report.problems.count == 1, "\(report)")
        #expect(
            "\(report)".contains("ValidationReportContentTests.swift:\(ReportAsyncReadsInInit.declaration)."),
            "\(report)")
    }

    /// Of an owner's two failing wrappers, the report names the first (`DIContainer.deferToValidation`
    /// keeps the first failure; keeping the last was a mutation no other test noticed).
    @Test func theFirstOfTwoFailingWrappersIsReported() async {
        let box = DIContainer()
        box.register { New(ReportTwoMissing.init) }
        let report = await Task.detached { box.validate() }.value
        #expect(report.problems.count == 1, "\(report)")
        #expect(
            "\(report)".contains("ValidationReportContentTests.swift:\(ReportTwoMissing.firstDeclaration)."),
            "\(report)")
    }

    /// An async check's synchronous resolve runs a factory that registers an `eager()` service in another
    /// container (a transaction of its own), whose non-throwing resolve() fails: the check parks with the
    /// whole resolution, and the factory that was running is not left "being made" (a false cycle).
    @Test func anAsyncCheckParkedInsideARegisterLeavesNoFactoryBeingMade() async {
        let other = DIContainer()
        let box = DIContainer()
        box.register {
            Shared { resolve async -> AsideTop in
                _ = resolve(AsideMid.self) as AsideMid
                return AsideTop()
            }
            New { () -> AsideMid in
                other.register {
                    Shared { resolve -> AsideLeaf in
                        _ = resolve(AsideMissing.self) as AsideMissing
                        return AsideLeaf()
                    }.eager()
                }
                return AsideMid()
            }
        }
        let report = await box.validate()
        let mid = report.problems.first { $0.registration == "AsideMid" }
        #expect(mid?.error.reason == .missingRegistration, "\(report)")
        #expect(mid?.error.path == ["AsideMid", "AsideLeaf", "AsideMissing"], "\(report)")
        let top = report.problems.first { $0.registration == "AsideTop" }
        #expect(top?.error.path == ["AsideTop", "AsideMid", "AsideLeaf", "AsideMissing"], "\(report)")
    }
}
