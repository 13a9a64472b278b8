import DependencyInjection
import Dispatch
import Foundation
import Testing

// validate() checks every registration wherever it is called: main-actor ones on the
// main actor, global-actor ones on their actor, async ones awaited, each factory once, without
// hanging or crashing however many non-throwing factories fail.

@MainActor private final class OrderService { init(inventory: InventoryService) {} }
@MainActor private final class InventoryService { init(orders: OrderService) {} }
@MainActor private final class ProfileScreen { init(model: Reporter) {} }
private final class Reporter: Sendable {}
private final class Missing: Sendable {}
private final class NeedsMissing { init(missing: Missing) {} }

@globalActor private actor StorageActor { static let shared = StorageActor() }
private final class Storage: Sendable {}
private final class RemoteFeed: Sendable {
    init() {}
    init(missing: Missing) {}
}
/// Made by an async factory that awaits the `RemoteFeed` an async factory makes.
private final class FeedDigest: Sendable { init(feed: RemoteFeed) {} }
/// A synchronous service that needs an async one and a global-actor one, as after prepare().
private final class Dashboard { init(feed: RemoteFeed, storage: Storage) {} }

private final class Made: @unchecked Sendable {
    // Unchecked: `counts` is guarded by `lock`.
    private let lock = NSLock()
    private var counts: [String: Int] = [:]
    func record(_ name: String) { lock.withLock { counts[name, default: 0] += 1 } }
    func count(_ name: String) -> Int { lock.withLock { counts[name, default: 0] } }
}

private protocol Pricing: AnyObject {}
private protocol Discounts: AnyObject {}
private final class PriceList: Pricing, Discounts {}
private final class CheckoutFlow { init(pricing: Pricing, discounts: Discounts) {} }
private final class ShoppingBasket { init(pricing: Pricing) {} }

/// Made on the main queue only: elsewhere it waits for it (as UIKit code does with the main
/// thread; on Linux the main actor's queue may be drained by another thread).
private final class UIThing: Sendable {
    private static let mainQueue: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()
    static func make() -> UIThing {
        DispatchQueue.getSpecific(key: mainQueue) == true ? UIThing() : DispatchQueue.main.sync { UIThing() }
    }
}

private protocol CardPayments: AnyObject, Sendable {}
private final class CardClient: Sendable {}
private final class CardProcessor: CardPayments { init(client: CardClient) {} }
private final class AsyncCardChecker: Sendable { init(_ payments: any CardPayments) {} }
private final class SyncCardChecker: Sendable { init(_ payments: any CardPayments) {} }
private final class CardHolder: Sendable { init(_ payments: any CardPayments) {} }
private final class CardScreen: Sendable { init(_ processor: CardProcessor) {} }
private final class EagerLeaf: Sendable {}
private final class NeverThere: Sendable {}
private final class TaskStarter: Sendable {}
private final class RegistersEagerly: Sendable {}
@MainActor private final class IgnoredResolverModel {
    let id: String
    init(id: String) { self.id = id }
}
@MainActor private final class PayScreen {
    @Inject var payments: CardPayments
    init() {}
}

@Suite(.timeLimit(.minutes(1))) struct ValidateEverywhereTests {
    private static func mainActorCycle() -> DIContainer {
        let box = DIContainer()
        box.register {
            Shared(OrderService.init)
            Shared(InventoryService.init)
            Shared(Reporter.init)
        }
        return box
    }

    @MainActor @Test func mainActorRegistrationsAreCheckedOnTheMainActor() {
        let report = Self.mainActorCycle().validate()
        #expect(report.problems.map(\.registration) == ["OrderService", "InventoryService"], "\(report)")
        #expect(
            report.problems.first?.error.reason
                == .dependencyCycle(cycle: ["OrderService", "InventoryService", "OrderService"]))
        #expect(report.unchecked.isEmpty)
    }

    @Test func mainActorRegistrationsAreCheckedFromAnotherThread() async {
        let box = await MainActor.run { Self.mainActorCycle() }
        let report = await Task.detached { box.validate() }.value
        #expect(report.problems.count == 2, "\(report)")
        #expect(report.unchecked.isEmpty)
        #expect(report.validCount == 1)
    }

    @Test func asyncAndGlobalActorServicesAreMadeFirstAsPrepareWould() async {
        let made = Made()
        let box = DIContainer()
        box.register {
            Shared { _ async in
                made.record("feed")
                return RemoteFeed()
            }
            Shared { @StorageActor in Storage() }
            Shared { resolve in try Dashboard(feed: resolve.tryResolve(), storage: resolve.tryResolve()) }
        }
        let report = await box.validate()
        #expect(report.isValid, "\(report)")
        #expect(report.validCount == 3)
        #expect(report.unchecked.isEmpty)
        #expect(made.count("feed") == 1)
        // The real container is untouched.
        #expect(throws: ResolutionError.self) { try box.tryResolve(RemoteFeed.self) }
    }

    @Test func aFailingAsyncFactoryIsAProblem() async {
        let box = DIContainer()
        box.register { Shared { resolve async throws in RemoteFeed(missing: try resolve.tryResolve(Missing.self)) } }
        let report = await box.validate()
        #expect(report.problems.first?.error.path == ["RemoteFeed", "Missing"], "\(report)")
    }

    @Test func eachFactoryRunsOncePerValidate() {
        let made = Made()
        let box = DIContainer()
        box.register {
            New(
                { () -> PriceList in
                    made.record("prices")
                    return PriceList()
                }, as: Pricing.self, Discounts.self)
            Shared(CheckoutFlow.init)
            Shared(ShoppingBasket.init)
        }
        #expect(box.validate().isValid)
        #expect(made.count("prices") == 1)
        #expect(box.validate().isValid)
        #expect(made.count("prices") == 2)
    }

    @Test func validatesInsideRegisterDependencies() {
        let capture = ValidationCapture()
        DIContainer.withOverrides {
        } operation: {
            DIContainer.reset()  // the copy runs registerDependencies() again on its next use
            ValidationCapture.current.withValue(capture) { _ = DIContainer.resolve(Greeting.self) }
        }
        let report = capture.report
        #expect(report?.isValid == true, "\(String(describing: report))")
        #expect(report?.validCount == 1)
    }

    /// 300 non-throwing factories whose nested resolve() fails, validated 10 times: every call
    /// returns (past the cap of parked threads, with those registrations unchecked), and the
    /// Dispatch pool keeps serving other work. In a process of its own: the threads it parks stay
    /// parked for the life of the process, and other tests here would find none left to park.
    @Test(.timeLimit(.minutes(2))) func manyFailuresNeverHangTheProcess() async throws {
        let run = try await TrapRun.run("validateManyFailuresNeverHangs", timeout: 100)
        #expect(!run.trapped, "\(run.stderr)")
        let rounds = run.stdout.components(separatedBy: "\n").filter { $0.hasPrefix("round ") }
        #expect(rounds.count == 10, "\(run.stdout)")
        #expect(rounds.allSatisfy { $0.hasSuffix("checked 300 valid 0 pool true") }, "\(run.stdout)")
        #expect(run.stdout.contains("last names the fix true"), "\(run.stdout)")
    }

    /// On the main thread, a factory that waits for the main thread when made elsewhere is made there.
    @MainActor @Test func validateOnTheMainThreadDoesNotWaitForItself() {
        let box = DIContainer()
        box.register { Shared { UIThing.make() } }
        #expect(box.validate().isValid)
    }

    /// In a process of its own (a deadlock there is terminated after 30 seconds and fails here).
    @Test func validateOnTheMainThreadOfAFactoryThatWaitsForTheMainQueueElsewhereNeitherHangsNorFails() async throws {
        let run = try await TrapRun.run("validateOnTheMainThreadOfAFactoryThatWaitsForTheMainQueue", timeout: 30)
        #expect(!run.trapped, "hung or crashed: \(run.stderr)")
        #expect(run.stdout.contains("Container is valid: 1 registration(s) resolved"), "\(run.stdout)")
    }

    @MainActor @Test func nonThrowingMainActorClosureIsUncheckedWithTheFix() {
        let box = DIContainer()
        box.register {
            Shared { @MainActor resolve in ProfileScreen(model: resolve()) }
            Shared(Reporter.init)
        }
        let report = box.validate()
        #expect(report.isValid, "\(report)")
        #expect(report.unchecked.map(\.registration) == ["ProfileScreen"])
        #expect(report.unchecked.first?.reason.contains("try resolve.tryResolve()") == true)
    }

    /// A main-actor closure that ignores its resolver is unchecked with a fix that fits it too: drop
    /// the resolver, or add throws; both forms are checked.
    @MainActor @Test func aMainActorClosureIgnoringItsResolverIsToldToDropItOrThrow() {
        let box = DIContainer()
        box.register {
            New { _ in IgnoredResolverModel(id: "ignores") }.named("ignores")
            New { IgnoredResolverModel(id: "none") }.named("none")
            New { _ throws in IgnoredResolverModel(id: "throws") }.named("throws")
        }
        let report = box.validate()
        #expect(report.unchecked.map(\.registration) == [#"IgnoredResolverModel (name: "ignores")"#], "\(report)")
        #expect(
            report.unchecked.first?.reason.contains(
                "a closure that resolves nothing can drop its resolver ({ Type() }, not { _ in Type() }) or add throws"
            ) == true, "\(report)")
        #expect(report.validCount == 2, "\(report)")
    }

    /// An async factory that awaits an async service whose check failed already is a problem too,
    /// for the same missing dependency (`nextAsyncStep`).
    @Test func validateReportsAnAsyncServiceNeedingAFailedAsyncOne() async {
        let box = DIContainer()
        box.register {
            Shared { resolve async throws in RemoteFeed(missing: try resolve.tryResolve()) }
            Shared { _ async throws in FeedDigest(feed: try await DIContainer.resolveAsync(RemoteFeed.self)) }
        }
        let report = await box.validate()
        #expect(report.problems.count == 2, "\(report)")
        #expect(Set(report.problems.map(\.registration)) == ["RemoteFeed", "FeedDigest"], "\(report)")
        #expect(
            report.problems.allSatisfy { $0.error.reason == .missingRegistration && $0.error.typeName == "Missing" },
            "\(report)")
    }

    /// The synchronous form checks the plain registration first, so the main-actor one reaches its
    /// failure again: through the alias it asks for, as the other forms say.
    @MainActor @Test func aFailureReachedAgainThroughAnAliasHasTheSamePathFromEveryCaller() async {
        func broken() -> DIContainer {
            let box = DIContainer()
            box.register {
                Shared(CardProcessor.init, as: CardPayments.self)
                New(PayScreen.init)
            }
            return box
        }
        func path(_ report: ValidationReport) -> [String]? {
            report.problems.first { $0.registration == "PayScreen" }?.error.path
        }
        @MainActor func validateSynchronously(_ box: DIContainer) -> ValidationReport { box.validate() }
        let synchronous = validateSynchronously(broken())
        let awaited = await broken().validate()
        let detached = await Task.detached { await broken().validate() }.value
        #expect(path(awaited) == ["PayScreen", "CardPayments", "CardClient"], "\(awaited)")
        #expect(path(detached) == path(awaited), "\(detached)")
        #expect(path(synchronous) == path(awaited), "\(synchronous)")
    }

    /// An async factory that asks for an async alias whose own check failed first: its path names the
    /// alias it asked for, as a synchronous factory's does.
    @Test func anAsyncFactoryReachingAFailedAliasNamesTheAlias() async {
        let box = DIContainer()
        box.register {
            Shared({ resolve async throws in CardProcessor(client: try resolve.tryResolve()) }, as: CardPayments.self)
            Shared { _ async throws in AsyncCardChecker(try await DIContainer.resolveAsync(CardPayments.self)) }
            Shared { resolve in try SyncCardChecker(resolve.tryResolve(CardPayments.self)) }
        }
        let report = await box.validate()
        func path(_ name: String) -> [String]? { report.problems.first { $0.registration == name }?.error.path }
        #expect(path("SyncCardChecker") == ["SyncCardChecker", "CardPayments", "CardClient"], "\(report)")
        #expect(path("AsyncCardChecker") == ["AsyncCardChecker", "CardPayments", "CardClient"], "\(report)")
    }

    /// An async run asked for through an alias that parks keeps its failure with the alias first: the
    /// registration's own problem, and a step that asks for its own type, name what each asked for.
    @Test func aFailureKeptByAnAbandonedRunThroughAnAliasNamesWhatEachStepAsked() async {
        let box = DIContainer()
        box.register {
            Shared { _ async throws in CardHolder(try await DIContainer.resolveAsync(CardPayments.self)) }
            Shared({ resolve async in CardProcessor(client: resolve()) }, as: CardPayments.self)
            Shared { resolve in try CardScreen(resolve.tryResolve(CardProcessor.self)) }
        }
        let report = await box.validate()
        func path(_ name: String) -> [String]? { report.problems.first { $0.registration == name }?.error.path }
        #expect(path("CardHolder") == ["CardHolder", "CardPayments", "CardClient"], "\(report)")
        #expect(path("CardProcessor") == ["CardProcessor", "CardClient"], "\(report)")
        #expect(path("CardScreen") == ["CardScreen", "CardProcessor", "CardClient"], "\(report)")
    }

    /// A `Task {}` a check's factory starts has the check's task-locals, not its executor: what it does
    /// is the app's, not the check's. A `register` with `eager()` registrations inside a resolution that
    /// then fails is a transaction of its own there, as in the app: its instance stays, made once.
    @Test func aTaskAChecksFactoryStartedRegistersAsTheAppDoes() async {
        let (made, started) = (Guarded(0), Guarded<Task<Void, Never>?>(nil))
        let (other, app) = (DIContainer(), DIContainer())
        app.register {
            New { resolve throws -> RegistersEagerly in
                other.register {
                    Shared { () -> EagerLeaf in
                        made.withLock { $0 += 1 }
                        return EagerLeaf()
                    }.eager()
                }
                _ = try resolve.tryResolve(NeverThere.self)
                return RegistersEagerly()
            }
        }
        let box = DIContainer()
        box.register {
            Shared { _ async -> TaskStarter in
                started.withLock { $0 = Task { _ = try? app.tryResolve(RegistersEagerly.self) } }
                return TaskStarter()
            }
        }
        let report = await box.validate()
        #expect(report.isValid, "\(report)")
        await started.current?.value
        _ = try? other.tryResolve(EagerLeaf.self)
        #expect(made.current == 1, "the eager factory ran \(made.current) times")
    }
}

/// Lets a test make `registerDependencies()` validate what it registered (see Fixtures).
final class ValidationCapture: @unchecked Sendable {
    // Unchecked: `stored` is guarded by `lock`.
    static let current = TaskLocal<ValidationCapture?>(wrappedValue: nil)
    private let lock = NSLock()
    private var stored: ValidationReport?
    var report: ValidationReport? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
