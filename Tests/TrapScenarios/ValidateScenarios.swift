import DependencyInjection
import Dispatch
import Foundation

// validate() scenarios that could crash or hang the process (see `ValidationCrashScenarioTests`): each
// prints the report, then `did-not-trap`; a crash or a hang fails the test that runs it.

protocol Missing: AnyObject {}
/// Made by an expression: its wrapper resolves `Missing`, which nobody registers.
final class NeedsMissing: @unchecked Sendable {
    @Inject var missing: Missing
    init() {}
}
@globalActor actor ValidationActor { static let shared = ValidationActor() }
@globalActor actor HoldingActor { static let shared = HoldingActor() }
final class MainServiceHolder: Sendable { init(service: MainOnlyService) {} }
final class ReadingClient: @unchecked Sendable {
    @Inject var service: MainOnlyService
    init() { _ = service }
}
final class ReadingFeed: Sendable { init(client: ReadingClient) {} }
final class MainServicesHolder: Sendable { init(services: [MainOnlyService]) {} }
final class LazyMainServiceHolder: @unchecked Sendable {
    @LazyInject var service: MainOnlyService
    init() {}
}
/// The synchronous validate() on the main thread of a Sendable main-actor Shared and `dependent`,
/// a global actor's async factory that needs it through code that cannot fail without trapping.
func validateOnMainThread<Value>(_ dependent: Shared<Value>) {
    let box = DIContainer()
    box.register {
        Shared { @MainActor in MainOnlyService() }
        dependent
    }
    MainActor.assumeIsolated { print(box.validate()) }
    print("Missing")  // what expectNoCrash looks for: the report names nothing missing here
}

/// What a factory kept past validate() (a mistake): its wrapper was left empty when validate() dropped it.
nonisolated(unsafe) var keptPastValidation: NeedsMissing?

final class PreparedTenant: Sendable {}
final class TenantAuditor: @unchecked Sendable {
    @LazyInject var tenant: PreparedTenant
    init() {}
    deinit { print("auditor's deinit read its tenant: \(tenant)") }
}

/// Made on the main thread by a plain factory, which waits for it.
final class MainQueueClock: Sendable {}

var validateScenarios: [String: () -> Void] {
    [
        // The synchronous validate() on the main thread, and a plain factory that cannot unwind (so
        // it runs on a probe thread) and waits for the main thread: it never returns. validate() says
        // so on standard error once it has waited 10 s; the test ends the process.
        "syncValidateOnTheMainThreadWithAFactoryWaitingForIt": {
            let box = DIContainer()
            box.register { Shared { _ in DispatchQueue.main.sync { MainQueueClock() } } }
            MainActor.assumeIsolated { print(box.validate()) }
        },
        // What validate() made is released before it returns: a `deinit` that reads a lazy wrapper of
        // an async Shared that prepare() made still finds it.
        "validateReleasesWhatADeinitsLazyReadNeeds": {
            let box = DIContainer()
            box.register {
                Shared { _ async in PreparedTenant() }
                Shared { TenantAuditor() }
            }
            let prepared = DispatchSemaphore(value: 0)
            Task.detached {
                do { try await box.prepare() } catch { print("prepare() threw \(error)") }
                prepared.signal()
            }
            prepared.wait()
            let report = box.activate { box.validate() }
            print("valid: \(report.isValid)")
            print("did-not-trap")
            exit(0)
        },
        "validateThenPrepareWithPlainDependencyReadingItsMainActorInject": {
            let box = DIContainer()
            box.register {
                Shared { @MainActor in MainOnlyService() }
                Shared { ReadingClient() }
                Shared { resolve async throws in ReadingFeed(client: try resolve.tryResolve()) }
            }
            let done = DispatchSemaphore(value: 0)
            Task.detached {
                let report = await box.validate()
                print("valid: \(report.isValid) \(report)")
                do {
                    try await box.prepare()
                    print("prepared")
                } catch { print("threw \(error)") }
                done.signal()
            }
            DispatchQueue.global().async {
                done.wait()
                print("Missing")
                print("did-not-trap")
                exit(0)
            }
            dispatchMain()
        },
        // As below, with resolveAll() (non-throwing, traps on failure).
        "validateOnMainThreadGlobalActorFactoryResolvingAllMainActorServices": {
            validateOnMainThread(
                Shared { @HoldingActor resolve async throws in MainServicesHolder(services: DIContainer.resolveAll()) })
        },
        // As below, with a @LazyInject read in the factory (non-throwing, traps on failure).
        "validateOnMainThreadGlobalActorFactoryReadingALazyMainActorService": {
            validateOnMainThread(
                Shared { @HoldingActor resolve async throws in
                    let holder = LazyMainServiceHolder()
                    _ = holder.service
                    return holder
                })
        },
        // The synchronous validate() on the main thread, a global actor's async factory calling the
        // non-throwing resolve() of a Sendable main-actor Shared (the app makes it on the main actor).
        "validateOnMainThreadGlobalActorFactoryResolvingAMainActorService": {
            validateOnMainThread(Shared { @HoldingActor resolve async throws in MainServiceHolder(service: resolve()) })
        },
        // A factory keeps what it makes during validate() (a global), and it is read afterwards: the
        // wrapper it left empty traps, naming its type and the fix.
        "validateKeepsAnObjectWhoseWrapperFailed": {
            let box = DIContainer()
            box.register {
                Shared { () -> NeedsMissing in
                    let made = NeedsMissing()
                    keptPastValidation = made
                    return made
                }
            }
            print(box.validate())
            _ = keptPastValidation?.missing
        },
        // An expression whose @Inject fails, validate() on the main thread (runs it inline).
        "validateOnMainThreadExpressionWithFailingInject": {
            let box = DIContainer()
            box.register { Shared(NeedsMissing()) }
            print(box.validate())
        },
        // The same, isolated to the main actor, validate() off it.
        "validateOffMainMainActorExpressionWithFailingInject": {
            let box = DIContainer()
            box.register { Shared { @MainActor in NeedsMissing() } }
            DispatchQueue.global().async {
                print(box.validate())
                didNotTrap()
            }
            dispatchMain()
        },
        // A global-actor closure without a resolver whose @Inject fails.
        "validateGlobalActorExpressionWithFailingInject": {
            let box = DIContainer()
            box.register { Shared { @ValidationActor in NeedsMissing() } }
            print(box.validate())
        },
        // A plain closure without a resolver that calls the static non-throwing resolve.
        "validateOnMainThreadStaticResolveInClosure": {
            let box = DIContainer()
            box.register { Shared { RouterImpl(config: DIContainer.resolve()) } }
            print(box.validate())
        },
    ]
}

/// Threads of this process now.
func threadCount() -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? -1
}

/// Made by a resolver closure whose non-throwing `resolve()` of `Missing` fails.
final class WantsMissing { init(missing: Missing) {} }

var validateCapScenarios: [String: () -> Void] {
    [
        // 300 non-throwing factories whose nested resolve() fails, validated 10 times off the main
        // thread: every call returns (past the cap of parked threads, those unchecked), and the
        // Dispatch pool keeps serving other work.
        "validateManyFailuresNeverHangs": {
            let box = DIContainer()
            box.register {
                for index in 0..<300 { New { resolve in WantsMissing(missing: resolve()) }.named("\(index)") }
            }
            DispatchQueue.global().async {
                for round in 0..<10 {
                    let report = box.validate()
                    let served = DispatchSemaphore(value: 0)
                    DispatchQueue.global().async { served.signal() }
                    let poolWorks = served.wait(timeout: .now() + 10) == .success
                    let checked = report.problems.count + report.unchecked.count
                    print("round \(round) checked \(checked) valid \(report.validCount) pool \(poolWorks)")
                }
                let fix = box.validate().unchecked.first?.reason.contains("try resolve.tryResolve()") == true
                print("last names the fix \(fix)")
                didNotTrap()
            }
            dispatchMain()
        },
        // 100 expressions whose @Inject fails, probed off the main thread: the cap of 64 parked threads holds?
        "validateParksAtMost64ThreadsForExpressions": {
            let box = DIContainer()
            box.register { for index in 0..<100 { Shared(NeedsMissing()).named("n\(index)") } }
            let before = threadCount()
            DispatchQueue.global().async {
                let report = box.validate()
                print("problems \(report.problems.count) unchecked \(report.unchecked.count)")
                print("threads added \(threadCount() - before)")
                didNotTrap()
            }
            dispatchMain()
        },
    ]
}

protocol RemoteClient: Sendable {}
final class RemoteConfig: Sendable { init(client: RemoteClient) {} }
protocol Payments: AnyObject {}
final class LivePayments: Payments {}
protocol PaymentsLogger: AnyObject {}
final class LoggingPayments: Payments { init(_ payments: Payments, logger: PaymentsLogger) {} }
final class Thing { init() {} }
final class AsyncThing: Sendable { init() {} }

/// Runs `body` on a thread of its own, then ends the process: the main thread stays free.
func offMainThread(_ body: @escaping @Sendable () -> Void) -> Never {
    DispatchQueue.global().async {
        body()
        didNotTrap()
    }
    dispatchMain()
}

/// Awaits `body` in a task, then ends the process: the main actor stays free.
func awaiting(_ body: @escaping @Sendable () async -> Void) -> Never {
    Task {
        await body()
        didNotTrap()
    }
    dispatchMain()
}

/// validate() scenarios that trapped or hung before: each prints what the report says.
var validateTrustScenarios: [String: () -> Void] {
    [
        // The README's async factory whose client is missing, its non-throwing resolve() failing.
        "validateAsyncFactoryWithFailingResolve": {
            let box = DIContainer()
            box.register { Shared { resolve async throws in RemoteConfig(client: resolve()) } }
            awaiting { print(await box.validate()) }
        },
        // A decorator whose non-throwing resolve() fails (the docs' LoggingPayments).
        "validateDecoratorWithFailingResolve": {
            let box = DIContainer()
            box.register {
                Shared(LivePayments() as Payments)
                Decorate(Payments.self) { payments, resolve in LoggingPayments(payments, logger: resolve()) }
            }
            awaiting { print(await box.validate()) }
        },
        // An onResolve action whose non-throwing resolve() fails.
        "validateOnResolveWithFailingResolve": {
            let box = DIContainer()
            box.register { Shared(Thing.init).onResolve { _, resolve in _ = resolve(PaymentsLogger.self) } }
            awaiting { print(await box.validate()) }
        },
        // A child's throwing factory that needs its parent's failing non-throwing one.
        "validateChildNeedingAFailingParent": {
            let parent = DIContainer()
            parent.register { Shared { resolve in LoggingPayments(LivePayments(), logger: resolve()) as Payments } }
            let child = DIContainer(parent: parent)
            child.register { Shared { resolve in try RemoteConfigHolder(payments: resolve.tryResolve()) } }
            print(child.validate())
        },
        // Past the cap of parked threads, a validate() of an unrelated container still returns.
        "validateAfterTheCapStillReturns": {
            let failing = DIContainer()
            failing.register {
                for index in 0..<300 { New { resolve in WantsMissing(missing: resolve()) }.named("\(index)") }
            }
            let healthy = DIContainer()
            healthy.register { Shared(Thing()) }
            offMainThread {
                print("first problems \(failing.validate().problems.count)")
                print("second valid \(healthy.validate().isValid)")
                print("third valid \(healthy.validate().isValid)")
                // A nonisolated async check, which parks its thread too, is not checked past the cap either.
                let asyncFailing = DIContainer()
                asyncFailing.register {
                    Shared { resolve async -> AsyncThing in
                        _ = WantsMissing(missing: resolve())
                        return AsyncThing()
                    }
                }
                let report = asyncFailing.validate()
                print("fourth unchecked \(report.unchecked.map(\.reason)) problems \(report.problems.count)")
            }
        },
        // An `await validate()` cancelled while an async check that ignores cancellation waits; the
        // check goes on once validate() has returned, and its non-throwing resolve() fails.
        "cancelledValidateThenItsCheckFails": {
            let check = CancelledCheck()
            let box = DIContainer()
            box.register {
                Shared { resolve async in
                    await check.waitForTheCancel()
                    return CancelledCheckService(config: resolve())
                }
            }
            check.validateAndCancel(box)
            // The failure comes at once once the check goes on: a second without a trap is the pass.
            usleep(1_000_000)
            didNotTrap()
        },
        // As above, but what fails is a `Task {}` the check's factory started: it has the check's
        // task-locals, not its executor, and runs on the cooperative pool, which must not park.
        "cancelledValidateThenATaskItsCheckStartedFails": {
            let check = CancelledCheck()
            let box = DIContainer()
            box.register {
                Shared { _ async in
                    await check.waitForTheCancel()
                    // More tasks than the pool has threads, each failing in a non-throwing resolve().
                    for _ in 0...ProcessInfo.processInfo.activeProcessorCount {
                        Task { _ = box.resolve(AppConfiguration.self) }
                    }
                    usleep(4_000_000)  // the check goes on while its tasks fail
                    return CancelledCheckService(config: AppConfigurationImpl())
                }
            }
            check.validateAndCancel(box)
            usleep(1_000_000)
            // Is the cooperative pool still running tasks?
            let ran = DispatchSemaphore(value: 0)
            Task.detached { ran.signal() }
            if ran.wait(timeout: .now() + 5) == .timedOut { print("cooperative-pool-wedged") }
            didNotTrap()
        },
        // Checks whose factories prefer the global concurrent executor (a task executor, not
        // validate()'s own) fail in a non-throwing resolve(): they must not park the cooperative pool.
        "aCheckOnTheGlobalConcurrentExecutorFails": {
            let box = DIContainer()
            box.register {
                for index in 0...ProcessInfo.processInfo.activeProcessorCount {
                    Shared { (resolve: Resolver) async in
                        await withTaskExecutorPreference(globalConcurrentExecutor) {
                            CancelledCheckService(config: resolve() as AppConfiguration)
                        }
                    }.named("\(index)")
                }
            }
            let returned = DispatchSemaphore(value: 0)
            Task.detached {
                print(await box.validate())
                returned.signal()
            }
            if returned.wait(timeout: .now() + 10) == .timedOut { print("cooperative-pool-wedged") }
            didNotTrap()
        },
        // A check awaits a global actor's service whose factory (on that actor) registers an eager()
        // service elsewhere, whose non-throwing resolve() fails: a transaction of its own, on the actor's
        // thread. It must trap with its message, as anywhere an actor's code runs, never park that thread.
        "aCheckThatFailsInARegisterOnAGlobalActorNeverParksIt": {
            let (elsewhere, third) = (DIContainer(), DIContainer())
            elsewhere.register {
                New { () -> WedgeService in
                    registerAFailingEagerService(in: third)
                    return WedgeService()
                }
            }
            let box = DIContainer()
            box.register {
                Shared { _ async throws -> WedgeTop in
                    _ = try await elsewhere.resolveAsync(WedgeService.self)
                    return WedgeTop()
                }
            }
            let pinged = DispatchSemaphore(value: 0)
            Task.detached {
                await decorateOnWedgeActor(elsewhere)
                _ = await box.validate()
                await WedgeActor.shared.ping()
                pinged.signal()
            }
            if pinged.wait(timeout: .now() + 10) == .timedOut { print("actor-wedged") }
            didNotTrap()
        },
        // Child tasks of one check (two `async let`s, a task group of four) fail at once in a
        // non-throwing resolve(): the first records the check's failure, and each of them parks.
        "aCheckWhoseChildTasksFailTogether": {
            let box = DIContainer()
            box.register {
                Shared { (resolve: Resolver) async in
                    async let first: AppConfiguration = resolve()
                    async let second: AppConfiguration = resolve()
                    return CancelledCheckService(config: await (first, second).0)
                }.named("async let")
                Shared { (resolve: Resolver) async in
                    await withTaskGroup(of: Void.self) { group in
                        for _ in 0..<4 { group.addTask { _ = resolve() as AppConfiguration } }
                    }
                    return CancelledCheckService(config: AppConfigurationImpl())
                }.named("task group")
            }
            awaiting { print(await box.validate()) }
        },
    ]
}

final class RemoteConfigHolder { init(payments: Payments) {} }
final class CancelledCheckService: Sendable { init(config: AppConfiguration) {} }

/// An `await validate()` cancelled while its one check waits, ignoring cancellation; the check goes
/// on once `validate()` has returned.
final class CancelledCheck: Sendable {
    private let (waiting, goOn) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))

    /// In the check's factory: waits until `validateAndCancel` lets it go on.
    func waitForTheCancel() async {
        await withCheckedContinuation { (wait: CheckedContinuation<Void, Never>) in
            waiting.signal()
            DispatchQueue.global().async {
                self.goOn.wait()
                wait.resume()
            }
        }
    }

    /// Prints the report of `box`'s `validate()`, cancelled once the check waits, and lets the check go on.
    func validateAndCancel(_ box: DIContainer) {
        let returned = DispatchSemaphore(value: 0)
        let validation = Task.detached {
            print(await box.validate())
            returned.signal()
        }
        waiting.wait()
        validation.cancel()
        returned.wait()
        goOn.signal()
    }
}

@globalActor actor WedgeActor {
    static let shared = WedgeActor()
    func ping() {}
}
final class WedgeService: Sendable {}
final class WedgeLeaf: Sendable {}
final class WedgeMissing: Sendable {}
final class WedgeTop: Sendable {}

/// Written on WedgeActor: the decorator runs there, and so does the factory of what it decorates.
@WedgeActor func decorateOnWedgeActor(_ container: DIContainer) {
    container.register { Decorate(WedgeService.self) { service, _ in service } }
}

/// Nonisolated: its eager() factory is made by the register call, where it is called.
func registerAFailingEagerService(in container: DIContainer) {
    container.register {
        Shared { resolve -> WedgeLeaf in
            _ = resolve(WedgeMissing.self) as WedgeMissing
            return WedgeLeaf()
        }.eager()
    }
}
