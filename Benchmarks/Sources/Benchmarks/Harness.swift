#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Keeps a value alive and opaque to the optimizer, so the work that produced it is not removed.
@inline(never) @_optimize(none)
func blackHole<T>(_ value: T) {
    _ = value
}

/// Nanoseconds on the monotonic clock.
@inline(__always)
func now() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// Who implements a variant of a workload.
enum Implementation: String, CaseIterable {
    case floor = "hand-written floor"
    case dependencyInjection = "DependencyInjection"
    case swinject = "Swinject"
    case swiftDependencies = "swift-dependencies"
}

/// One implementation of a workload.
///
/// `prepare(n)` does untimed setup for `n` iterations and returns the timed body, which performs
/// the work and returns how many operations it did (the divisor for ns/op).
struct Variant {
    let implementation: Implementation
    let prepare: (Int) -> () -> Int
}

/// Builds a variant whose body repeats one operation `n` times.
func repeating(_ implementation: Implementation, _ operation: @escaping () -> Void) -> Variant {
    Variant(implementation: implementation) { iterations in
        {
            for _ in 0..<iterations { operation() }
            return iterations
        }
    }
}

struct Workload {
    let name: String
    /// What the hand-written floor does, printed under the table.
    let floor: String
    var variants: [Variant]
    /// Peers with no equivalent for this workload.
    var notApplicable: [Implementation] = []
}

struct Measurement {
    let implementation: Implementation
    let median: Double
    let min: Double
}

struct Settings {
    var runs = 21
    /// Each timed run lasts about this long (iterations are calibrated per variant).
    var sampleNanoseconds: UInt64 = 4_000_000
    var quick = false

    static let quickMode = Settings(runs: 3, sampleNanoseconds: 200_000, quick: true)
}

/// Times one run: nanoseconds per operation.
func sample(_ variant: Variant, iterations: Int) -> Double {
    let body = variant.prepare(iterations)
    let start = now()
    let operations = body()
    let elapsed = now() - start
    return Double(elapsed) / Double(max(operations, 1))
}

/// Finds an iteration count that makes one run last about `settings.sampleNanoseconds`; this
/// also warms up caches, lazily made instances and the branch predictor.
func calibrate(_ variant: Variant, _ settings: Settings) -> Int {
    var iterations = 1
    while true {
        let body = variant.prepare(iterations)
        let start = now()
        let operations = body()
        let elapsed = now() - start
        if elapsed >= settings.sampleNanoseconds / 8 || iterations >= 1 << 26 {
            let perIteration = Double(elapsed) / Double(iterations)
            _ = operations
            return max(1, Int(Double(settings.sampleNanoseconds) / max(perIteration, 0.1)))
        }
        iterations *= 4
    }
}

/// Runs every variant `settings.runs` times, interleaved so that a noisy moment on the
/// machine affects all of them alike.
func measure(_ workload: Workload, _ settings: Settings) -> [Measurement] {
    let iterations = workload.variants.map { calibrate($0, settings) }
    var samples = Array(repeating: [Double](), count: workload.variants.count)
    for _ in 0..<settings.runs {
        for (index, variant) in workload.variants.enumerated() {
            samples[index].append(sample(variant, iterations: iterations[index]))
        }
    }
    return zip(workload.variants, samples).map { variant, values in
        let sorted = values.sorted()
        let middle = sorted.count / 2
        let median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        return Measurement(implementation: variant.implementation, median: median, min: sorted[0])
    }
}

/// Threads that wait at a gate until `startAndWait()` opens it, then run `body(thread)`.
final class StartedThreads: @unchecked Sendable {
    private let gate: UnsafeMutablePointer<pthread_rwlock_t>
    private let body: @Sendable (Int) -> Void
    #if canImport(Darwin)
        private var threads: [pthread_t?] = []
    #else
        private var threads: [pthread_t] = []
    #endif

    private final class Job {
        let owner: StartedThreads
        let index: Int
        init(_ owner: StartedThreads, _ index: Int) {
            self.owner = owner
            self.index = index
        }
    }

    init(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        self.body = body
        gate = .allocate(capacity: 1)
        pthread_rwlock_init(gate, nil)
        // Held for writing until start: the threads block on a read lock.
        pthread_rwlock_wrlock(gate)
        for index in 0..<count {
            let job = Unmanaged.passRetained(Job(self, index)).toOpaque()
            #if canImport(Darwin)
                var thread: pthread_t?
            #else
                var thread = pthread_t()
            #endif
            let status = pthread_create(
                &thread, nil,
                { argument in
                    #if canImport(Darwin)
                        let job = Unmanaged<Job>.fromOpaque(argument).takeRetainedValue()
                    #else
                        let job = Unmanaged<Job>.fromOpaque(argument!).takeRetainedValue()
                    #endif
                    pthread_rwlock_rdlock(job.owner.gate)
                    pthread_rwlock_unlock(job.owner.gate)
                    job.owner.body(job.index)
                    return nil
                }, job)
            precondition(status == 0, "pthread_create failed (\(status))")
            threads.append(thread)
        }
    }

    /// Opens the gate and waits for every thread to finish.
    func startAndWait() {
        pthread_rwlock_unlock(gate)
        #if canImport(Darwin)
            for thread in threads { pthread_join(thread!, nil) }
        #else
            for thread in threads { pthread_join(thread, nil) }
        #endif
        threads = []
    }

    deinit {
        pthread_rwlock_destroy(gate)
        gate.deallocate()
    }
}
