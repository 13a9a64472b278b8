import Benchmark
import Dependencies
import DependencyInjection
import Swinject

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

// Every workload, once per implementation: the hand-written floor, DependencyInjection, and the
// peers that have an equivalent. package-benchmark runs each benchmark in a process of its own, so
// what one benchmark's setup makes (registrations, metadata) never reaches another; everything a
// benchmark needs is made in its `setup`, which runs only in that benchmark's process.
//
// Each benchmark is named after its workload and tagged with its implementation
// (`… (impl: Swinject)`); `Scripts/table.py` reads an export of a run and makes the table of
// medians, ratios and targets. Set DI_BENCHMARKS_QUICK=1 for a smoke run (a few iterations).

/// Who implements a variant of a workload: the `impl` tag of each benchmark.
enum Implementation: String, CaseIterable {
    case floor = "hand-written"
    case dependencyInjection = "DependencyInjection"
    case swinject = "Swinject"
    case swiftDependencies = "swift-dependencies"
}

/// A smoke run: a few iterations of everything, for CI; the numbers mean nothing.
let quick = getenv("DI_BENCHMARKS_QUICK") != nil

// No CPU time: Linux reports it in 10 ms steps, longer than most iterations, and reading it inside
// the measured region adds package-benchmark's own mallocs to the counts.
let timeAndAllocations: [BenchmarkMetric] = [.wallClock, .throughput, .mallocCountTotal]
let memoryMetrics: [BenchmarkMetric] = timeAndAllocations + [.mallocFreeDelta, .memoryLeakedBytes]
let launchTime = BenchmarkMetric.custom("launchNanoseconds", polarity: .prefersSmaller, useScalingFactor: false)
let launchMallocs = BenchmarkMetric.custom("launchMallocs", polarity: .prefersSmaller, useScalingFactor: false)

/// One iteration of most workloads is 1,000 operations (`.kilo`), so package-benchmark's own
/// output, which divides by the scaling factor, shows each operation.
func configuration(
    _ implementation: Implementation, tags: [String: String] = [:], scalingFactor: BenchmarkScalingFactor = .kilo,
    metrics: [BenchmarkMetric] = timeAndAllocations, maxIterations: Int = 10_000, maxDuration: Duration = .seconds(1)
) -> Benchmark.Configuration {
    Benchmark.Configuration(
        metrics: metrics,
        tags: tags.merging(["impl": implementation.rawValue]) { _, new in new },
        warmupIterations: quick ? 1 : 3,
        scalingFactor: scalingFactor,
        maxDuration: quick ? .milliseconds(50) : maxDuration,
        maxIterations: quick ? 3 : maxIterations)
}

/// A workload that repeats one operation 1,000 times per iteration; `setup` (run in the
/// benchmark's own process, untimed) registers what is needed and returns the operation.
func repeating(
    _ name: String, _ implementation: Implementation, _ setup: @escaping () -> () -> Void
) {
    Benchmark(name, configuration: configuration(implementation)) { benchmark, operation in
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { operation() }
        benchmark.stopMeasurement()
    } setup: {
        setup()
    }
}

/// `threads` threads each repeat `operation` `perThread` times per iteration; the threads are
/// started before the measurement and released together through a gate.
func threaded(
    _ name: String, _ implementation: Implementation, tags: [String: String] = [:], threads: Int, perThread: Int,
    _ setup: @escaping () -> @Sendable () -> Void
) {
    Benchmark(
        name,
        configuration: configuration(implementation, tags: tags, scalingFactor: .one, maxIterations: 1_000)
    ) { benchmark, operation in
        let run = StartedThreads(threads) { _ in
            for _ in 0..<perThread { operation() }
        }
        benchmark.startMeasurement()
        run.startAndWait()
        benchmark.stopMeasurement()
    } setup: {
        setup()
    }
}

let benchmarks: @Sendable () -> Void = {
    keepFreedMemory()
    // In a child started by an app-launch benchmark, nothing below runs.
    AppLaunch.runIfChild()

    resolveWorkloads()
    manyTypesWorkloads()
    registrationWorkloads()
    appLaunchWorkloads()
    scalingWorkloads()
}

// MARK: - Resolving one key (today's workloads)

func resolveWorkloads() {
    var name = "Shared resolve by protocol (cached)"
    repeating(name, .floor) { { blackHole(handWired.logger) } }
    repeating(name, .dependencyInjection) {
        registerDependencyInjection()
        return { blackHole(DIContainer.resolve(Logger.self)) }
    }
    repeating(name, .swinject) {
        let resolver: Swinject.Resolver = makeSwinjectContainer()
        return { blackHole(resolver.resolve(Logger.self)!) }
    }
    repeating(name, .swiftDependencies) {
        {
            @Dependency(\.logger) var logger
            blackHole(logger)
        }
    }

    name = "New resolve of a trivial class"
    repeating(name, .floor) { { blackHole(handWired.makeTrivial()) } }
    repeating(name, .dependencyInjection) {
        registerDependencyInjection()
        return { blackHole(DIContainer.resolve(Trivial.self)) }
    }
    repeating(name, .swinject) {
        let resolver: Swinject.Resolver = makeSwinjectContainer()
        return { blackHole(resolver.resolve(Trivial.self)!) }
    }

    name = "New chain of three via resolver closures"
    repeating(name, .floor) { { blackHole(handWired.makeServiceC()) } }
    repeating(name, .dependencyInjection) {
        registerDependencyInjection()
        return { blackHole(DIContainer.resolve(ServiceC.self)) }
    }
    repeating(name, .swinject) {
        let resolver: Swinject.Resolver = makeSwinjectContainer()
        return { blackHole(resolver.resolve(ServiceC.self)!) }
    }

    name = "New resolve with two arguments"
    repeating(name, .floor) { { blackHole(handWired.makePair(id: 7, name: "seven")) } }
    repeating(name, .dependencyInjection) {
        registerDependencyInjection()
        return { blackHole(DIContainer.resolve(Pair.self) { (7, "seven") }) }
    }
    repeating(name, .swinject) {
        let resolver: Swinject.Resolver = makeSwinjectContainer()
        return { blackHole(resolver.resolve(Pair.self, arguments: 7, "seven")!) }
    }

    name = "Struct with three @Inject properties"
    repeating(name, .floor) { { blackHole(HandWiredScreen(handWired)) } }
    repeating(name, .dependencyInjection) {
        registerDependencyInjection()
        return { blackHole(InjectedScreen()) }
    }
    repeating(name, .swinject) {
        let resolver: Swinject.Resolver = makeSwinjectContainer()
        return { blackHole(SwinjectScreen(resolver)) }
    }
    repeating(name, .swiftDependencies) {
        {
            let screen = DependenciesScreen()
            blackHole((screen.logger, screen.configuration, screen.store))
        }
    }

    // Wall time over both threads' resolves; 10,000 resolves per thread per iteration.
    name = "Two threads resolving one Shared"
    threaded(name, .floor, threads: 2, perThread: 10_000) { { blackHole(handWired.logger) } }
    threaded(name, .dependencyInjection, threads: 2, perThread: 10_000) {
        registerDependencyInjection()
        return { blackHole(DIContainer.resolve(Logger.self)) }
    }
    threaded(name, .swinject, threads: 2, perThread: 10_000) {
        // Swinject's `Container` is not thread-safe; its synchronized view is what threads must use.
        let synchronized = UncheckedSendable(makeSwinjectContainer().synchronize())
        return { blackHole(synchronized.value.resolve(Logger.self)!) }
    }
    threaded(name, .swiftDependencies, threads: 2, perThread: 10_000) {
        {
            @Dependency(\.logger) var logger
            blackHole(logger)
        }
    }

    // A cached `Shared` resolve from a container that holds `count` other registrations.
    for count in [100, 10_000] {
        name = "Shared resolve among \(count) registrations"
        repeating(name, .floor) { { blackHole(handWired.logger) } }
        repeating(name, .dependencyInjection) {
            let container = DIContainer()
            container.register(Shared(ConsoleLogger() as Logger))
            for type in distinctTypes(count) { type.register(in: container) }
            return { blackHole(container.resolve(Logger.self)) }
        }
        repeating(name, .swinject) {
            let container = Swinject.Container()
            container.register(Logger.self) { _ in ConsoleLogger() }.inObjectScope(.container)
            for type in distinctTypes(count) { type.register(in: container) }
            let resolver: Swinject.Resolver = container
            return { blackHole(resolver.resolve(Logger.self)!) }
        }
    }
}

// MARK: - Many types

/// Distinct types resolved in turn, and where the next iteration starts.
final class Ring {
    let types: [any DistinctType]
    let resolve: (any DistinctType) -> AnyObject
    var next = 0

    init(_ types: [any DistinctType], _ resolve: @escaping (any DistinctType) -> AnyObject) {
        self.types = types
        self.resolve = resolve
    }
}

/// Resolving `count` distinct types in turn (a cached `Shared` each, through generic code), 1,000
/// per iteration, continuing where the last iteration stopped. Every type is resolved once in
/// setup, so the instances exist.
func manyTypesWorkloads() {
    func inTurn(
        _ name: String, _ implementation: Implementation, count: Int,
        _ setup: @escaping ([any DistinctType]) -> (any DistinctType) -> AnyObject
    ) {
        Benchmark(name, configuration: configuration(implementation)) { (benchmark: Benchmark, ring: Ring) in
            var next = ring.next
            let types = ring.types
            let resolve = ring.resolve
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(resolve(types[next]))
                next += 1
                if next == types.count { next = 0 }
            }
            benchmark.stopMeasurement()
            ring.next = next
        } setup: {
            let types = distinctTypes(count)
            let resolve = setup(types)
            for type in types { blackHole(resolve(type)) }
            return Ring(types, resolve)
        }
    }
    for count in [100, 10_000] {
        let name = "Many types: resolve \(count) distinct types in turn"
        inTurn(name, .floor, count: count) { types in
            let registry = TypeKeyedRegistry()
            for type in types { type.register(in: registry) }
            return { $0.resolve(from: registry) }
        }
        inTurn(name, .dependencyInjection, count: count) { types in
            let container = DIContainer()
            for type in types { type.register(in: container) }
            return { $0.resolve(from: container) }
        }
        inTurn(name, .swinject, count: count) { types in
            let container = Swinject.Container()
            for type in types { type.register(in: container) }
            let resolver: Swinject.Resolver = container
            return { $0.resolve(from: resolver) }
        }
        inTurn(name, .swiftDependencies, count: count) { _ in
            { $0.resolveDependency() }
        }
    }
}

// MARK: - Registration

func registrationWorkloads() {
    registrationWorkloads(.floor, make: ClosureDictionary.init, register: { $0.register(in: $1) })
    registrationWorkloads(.dependencyInjection, make: DIContainer.init, register: { $0.register(in: $1) })
    registrationWorkloads(.swinject, make: { Swinject.Container() }, register: { $0.register(in: $1) })
    // swift-dependencies has no registration step.
}

/// The registration workloads of one implementation: `make` makes an empty container and
/// `register` registers one distinct type in it.
/// What a registration benchmark keeps from one iteration to the next.
final class RegistrationFixture<Container> {
    var types: [any DistinctType] = []
    var containers: [Container] = []
    var next = 0
    let fresh = FreshTypes()
}

/// The registration workloads of one implementation: `make` makes an empty container and
/// `register` registers one distinct type in it. Containers are made, and released, outside the
/// measurement.
func registrationWorkloads<Container: AnyObject>(
    _ implementation: Implementation, make: @escaping () -> Container,
    register: @escaping (any DistinctType, Container) -> Void
) {
    typealias Fixture = RegistrationFixture<Container>
    /// A fixture with `count` distinct types, registered once into a container that is dropped,
    /// so that their metadata and the container's generic instantiations for them exist.
    func warmFixture(_ count: Int) -> Fixture {
        let fixture = Fixture()
        fixture.types = distinctTypes(count)
        let warmUp = make()
        for type in fixture.types { register(type, warmUp) }
        return fixture
    }

    // Warm: the same types registered container after container (today's rows). Per iteration,
    // 1,000 registrations: ten fresh containers of 100, or the next 1,000 of 10,000 into a
    // container that is replaced by a fresh one every ten iterations.
    Benchmark(
        "Register 100 distinct types (warm)", configuration: configuration(implementation)
    ) { (benchmark: Benchmark, fixture: Fixture) in
        fixture.containers = (0..<10).map { _ in make() }
        let types = fixture.types
        let containers = fixture.containers
        benchmark.startMeasurement()
        for container in containers {
            for type in types { register(type, container) }
        }
        benchmark.stopMeasurement()
    } setup: {
        warmFixture(100)
    }

    Benchmark(
        "Register 10000 distinct types (warm)", configuration: configuration(implementation)
    ) { (benchmark: Benchmark, fixture: Fixture) in
        if fixture.next == 0 { fixture.containers = [make()] }
        let types = fixture.types
        let container = fixture.containers[0]
        let next = fixture.next
        benchmark.startMeasurement()
        for index in next..<next + 1_000 { register(types[index], container) }
        benchmark.stopMeasurement()
        fixture.next = next + 1_000 == types.count ? 0 : next + 1_000
    } setup: {
        warmFixture(10_000)
    }

    // Cold: 1,000 types never seen before in this process per iteration, into a fresh
    // container, as an app registers its services once at launch. The types are made before the
    // measurement (with `Leaf<Path>`'s own metadata, which a non-generic service class has from
    // the start); what is timed is everything the container makes for each type.
    Benchmark(
        "Cold registration of first-time types",
        configuration: configuration(implementation, maxIterations: 20, maxDuration: .seconds(2))
    ) { (benchmark: Benchmark, fixture: Fixture) in
        fixture.containers = []
        fixture.types = fixture.fresh.take(1_000)
        let types = fixture.types
        let container = make()
        benchmark.startMeasurement()
        for type in types { register(type, container) }
        benchmark.stopMeasurement()
        fixture.containers = [container]
    } setup: {
        Fixture()
    }

    // Memory: the heap a container keeps per registration, registering 10,000 types (whose
    // metadata exists) into a fresh one. The container stays alive past the measurement, so
    // `memoryLeakedBytes` (bytes requested minus bytes freed) is what it holds, and
    // `mallocFreeDelta` counts its blocks.
    Benchmark(
        "Memory: register 10000 distinct types into a fresh container",
        configuration: configuration(implementation, scalingFactor: .one, metrics: memoryMetrics, maxIterations: 20)
    ) { (benchmark: Benchmark, fixture: Fixture) in
        fixture.containers = []
        let types = fixture.types
        let container = make()
        benchmark.startMeasurement()
        for type in types { register(type, container) }
        benchmark.stopMeasurement()
        fixture.containers = [container]
    } setup: {
        warmFixture(10_000)
    }
}

// MARK: - App launch

/// 500 services wired and each resolved once, in a fresh process per iteration (see
/// `AppLaunch`); the time and malloc calls are the child's own, from before the container is
/// made to after the last resolve, reported as the custom metrics `launchNanoseconds` and
/// `launchMallocs` (`wallClock` here is the whole child process, start to exit).
func appLaunchWorkloads() {
    for implementation in Implementation.allCases {
        Benchmark(
            "App launch: 500 services",
            configuration: configuration(
                implementation, scalingFactor: .one, metrics: [.wallClock, .throughput, launchTime, launchMallocs],
                maxIterations: 25, maxDuration: .seconds(10))
        ) { benchmark in
            let result = AppLaunch.launch(implementation)
            benchmark.measurement(launchTime, result.nanoseconds)
            benchmark.measurement(launchMallocs, result.mallocs)
        }
    }
}

// MARK: - Scaling

/// Threads resolving `New` services whose initializer does a little work (`Worker`): 1 and 2
/// threads, and 4, 8, 16 where the machine has that many cores. 10,000 resolves per thread per
/// iteration; throughput is all threads' resolves over the wall time.
func scalingWorkloads() {
    let threadCounts = [1, 2, 4, 8, 16].filter { $0 <= max(2, coresOnline) }
    for threads in threadCounts {
        let name = "Scaling: New resolves with a little work"
        let tags = ["threads": "\(threads)"]
        threaded(name, .floor, tags: tags, threads: threads, perThread: 10_000) {
            { blackHole(handWired.makeWorker()) }
        }
        threaded(name, .dependencyInjection, tags: tags, threads: threads, perThread: 10_000) {
            registerDependencyInjection()
            return { blackHole(DIContainer.resolve(Worker.self)) }
        }
        threaded(name, .swinject, tags: tags, threads: threads, perThread: 10_000) {
            let synchronized = UncheckedSendable(makeSwinjectContainer().synchronize())
            return { blackHole(synchronized.value.resolve(Worker.self)!) }
        }
    }
}
