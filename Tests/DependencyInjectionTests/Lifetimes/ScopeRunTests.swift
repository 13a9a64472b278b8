import DependencyInjection
import Testing

// Runs of withScope: what overrides inside a run see, what a task that outlives its run gets, and
// scopes that exist only inside runs (the Scopes article).

extension DIScope {
    fileprivate static let job = DIScope("job", requiresRun: true)
    fileprivate static let visit = DIScope("visit")
}

private final class JobContext {}
private final class AsyncJob: Sendable {
    let number: Int
    init(number: Int) { self.number = number }
}
private final class Labelled {
    let label: String
    init(_ label: String) { self.label = label }
}

/// Lets a task started inside a run go on only once the run has returned.
private final class Gate: Sendable {
    private let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init() { (stream, continuation) = AsyncStream.makeStream(of: Void.self) }

    func open() { continuation.finish() }
    func wait() async { for await _ in stream {} }
}

@Suite(.timeLimit(.minutes(1))) struct ScopeRunTests {
    @Test func overridesInsideARunShareTheRunsInstances() {
        let box = DIContainer()
        box.register { Scoped(.visit, JobContext.init) }
        box.withScope(.visit) {
            let inRun = box.resolve(JobContext.self)
            let overridden = box.withOverrides {
                New(MockPayments() as Payments)
            } operation: {
                DIContainer.resolve(JobContext.self)
            }
            #expect(overridden === inRun)
        }
    }

    /// `named` makes another registration: in a run as outside one, each name has its instance.
    @Test func twoNamesOfOneRegistrationHaveAnInstanceEachInARun() {
        let box = DIContainer()
        let context = Scoped(.visit, JobContext.init)
        box.register {
            context.named("first")
            context.named("second")
        }
        let (first, second) = box.withScope(.visit) {
            (box.resolve(JobContext.self, name: "first"), box.resolve(JobContext.self, name: "second"))
        }
        #expect(first !== second)
        #expect(box.resolve(JobContext.self, name: "first") !== box.resolve(JobContext.self, name: "second"))
    }

    /// One module in two unrelated containers: each makes its own instance in a run, with its own
    /// dependencies (a registration belongs to a container, and so do its instances).
    @Test func oneModuleInTwoContainersHasAnInstanceInEachInARun() {
        let module = Module { Scoped(.visit) { resolve in Labelled(resolve(String.self)) } }
        let first = DIContainer()
        first.register {
            module
            Shared("first")
        }
        let second = DIContainer()
        second.register {
            module
            Shared("second")
        }
        let (fromFirst, fromSecond) = DIContainer.withScope(.visit) {
            (first.resolve(Labelled.self), second.resolve(Labelled.self))
        }
        #expect(fromFirst !== fromSecond)
        #expect(fromFirst.label == "first")
        #expect(fromSecond.label == "second")
    }

    /// An async factory of a run-only scope, slow in one run (a request), makes another run's
    /// instance meanwhile: concurrent runs never share an instance, nor wait for each other's.
    @Test func concurrentRunsDoNotWaitForEachOthersAsyncFactory() async throws {
        let (gate, runs) = (AsyncGate(), RunCount())
        let box = asyncJobContainer(gate: gate, runs: runs)
        let slow = Task { try await box.withScope(.job) { try await box.resolveAsync(AsyncJob.self) } }
        await gate.firstArrival()
        let fast = Task { try await box.withScope(.job) { try await box.resolveAsync(AsyncJob.self) } }
        let fastOutcome = await outcome(of: fast, within: 10)
        await gate.open()
        #expect(try fastOutcome?.get().number == 2, "the second run waited for the first run's factory")
        #expect(try await slow.value.number == 1)
    }

    /// `releaseInstances(in:)` leaves a run's instances alone, also one its async factory is making.
    @Test func releasingTheScopeWhileARunMakesItsInstanceKeepsItForTheRun() async throws {
        let (gate, runs) = (AsyncGate(), RunCount())
        let box = asyncJobContainer(gate: gate, runs: runs)
        let (first, second) = try await box.withScope(.job) { () async throws -> (AsyncJob, AsyncJob) in
            async let first = box.resolveAsync(AsyncJob.self)
            await gate.firstArrival()
            box.releaseInstances(in: .job)
            await gate.open()
            return (try await first, try await box.resolveAsync(AsyncJob.self))
        }
        #expect(first === second)
        #expect(runs.count == 1)
    }

    /// A container whose async `Scoped(.job)` factory counts its runs in `runs`, numbers each
    /// instance by its run, and waits at `gate` in its first run.
    private func asyncJobContainer(gate: AsyncGate, runs: RunCount) -> DIContainer {
        let box = DIContainer()
        box.register {
            Scoped(.job) { _ async -> AsyncJob in
                let run = runs.increment()
                if run == 1 { await gate.pass() }
                return AsyncJob(number: run)
            }
        }
        return box
    }

    @Test func aTaskThatOutlivesItsRunGetsTheContainersInstanceOfAnOrdinaryScope() async {
        let box = DIContainer()
        box.register { Scoped(.visit, JobContext.init) }
        let containers = ObjectIdentifier(box.resolve(JobContext.self))
        let gate = Gate()
        let (inRun, late) = await box.withScope(.visit) {
            () async -> (ObjectIdentifier, Task<ObjectIdentifier, Never>) in
            let late = Task {
                await gate.wait()
                return ObjectIdentifier(box.resolve(JobContext.self))
            }
            return (ObjectIdentifier(box.resolve(JobContext.self)), late)
        }
        gate.open()
        let lateInstance = await late.value
        #expect(inRun != containers)
        #expect(lateInstance == containers)
    }

    @Test func aTaskThatOutlivesItsRunCannotResolveARunOnlyScope() async {
        let box = DIContainer()
        box.register { Scoped(.job, JobContext.init) }
        let gate = Gate()
        let late = await box.withScope(.job) { () async -> Task<ResolutionError.Reason?, Never> in
            _ = box.resolve(JobContext.self)
            return Task {
                await gate.wait()
                return resolutionError { _ = try box.tryResolve(JobContext.self) }?.reason
            }
        }
        gate.open()
        #expect(await late.value == .scopeRunRequired(scope: "job"))
    }

    @Test func aRunOnlyScopeOutsideARunIsAnErrorNamingTheScopeAndTheFix() throws {
        let box = DIContainer()
        box.register { Scoped(.job) { _ in JobContext() } }
        let error = try #require(resolutionError { _ = try box.tryResolve(JobContext.self) })
        #expect(error.reason == .scopeRunRequired(scope: "job"))
        #expect(error.description.contains("'JobContext'"))
        #expect(error.description.contains("withScope(.job)"))
        // Nothing was kept: inside runs, each run has its own.
        let first = box.withScope(.job) { box.resolve(JobContext.self) }
        let second = box.withScope(.job) { box.resolve(JobContext.self) }
        #expect(first !== second)
    }

    @Test func aRunOnlyScopeIsReachedThroughTheStaticAPIInARunAndNotByAnAsyncResolveOutsideOne() async {
        let box = DIContainer()
        box.register { Scoped(.job, JobContext.init) }
        let same = await box.withScope(.job) { () async -> Bool in
            DIContainer.resolve(JobContext.self) === DIContainer.resolve(JobContext.self)
        }
        #expect(same)
        let reason = await thrownError { _ = try await box.resolveAsync(JobContext.self) }?.reason
        #expect(reason == .scopeRunRequired(scope: "job"))
    }

    @Test func withScopeNeedsNoTryForABodyThatDoesNotThrow() async {
        let box = DIContainer()
        box.register { Scoped(.job, JobContext.init) }
        let made = box.withScope(.job) { box.resolve(JobContext.self) }
        let madeAsync = await box.withScope(.job) { () async in box.resolve(JobContext.self) }
        let staticRun = DIContainer.withScope(.job) { 1 }
        let staticAsyncRun = await DIContainer.withScope(.job) { () async in 2 }
        #expect(made !== madeAsync)
        #expect(staticRun + staticAsyncRun == 3)
    }

    @Test func aScopeTellsWhetherItRequiresARun() {
        #expect(DIScope.job.requiresRun)
        #expect(!DIScope.visit.requiresRun)
        #expect(DIScope("job").name == DIScope.job.name)
    }
}
