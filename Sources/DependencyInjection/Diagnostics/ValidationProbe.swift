#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Android)
    import Android
#endif

/// Resolves registrations of a throwaway container on a thread of its own, for `validate()`.
///
/// A non-throwing factory whose nested `resolve()` fails cannot be unwound: Swift has no way
/// out of it but a trap. On a probe thread, ``DIContainer/fail(_:)`` calls
/// ``parkAfterFailure(_:)`` instead: the failure is reported and the thread parks for good,
/// still holding the throwaway container's lock, so nothing it was doing is ever observed half
/// done. The validator then continues on a new thread with a new copy. No instance is ever
/// fabricated; the cost is one parked thread per such failure.
final class ValidationProbe: @unchecked Sendable {
    enum Outcome {
        case resolved
        case failed(ResolutionError)
    }

    private let container: DIContainer
    private let entries: [AnyEntry]
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    // Guarded by `mutex`: written by the probe thread, read by the validator.
    private var outcomes: [Outcome] = []
    private var edges: [(root: any RootRegistration, dependencies: [Key])] = []
    private var isFinished = false

    init(container: DIContainer, entries: [AnyEntry]) {
        self.container = container
        self.entries = entries
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Probes the entries in order on a new thread; returns one outcome per entry probed (a
    /// parked probe's last outcome is its failure, and the entries after it are not probed)
    /// and the dependencies recorded for each root.
    func run() -> (outcomes: [Outcome], edges: [(root: any RootRegistration, dependencies: [Key])]) {
        ProbeThread.start { [self] in probeAll() }
        pthread_mutex_lock(mutex)
        while !isFinished { pthread_cond_wait(condition, mutex) }
        let result = (outcomes, edges)
        pthread_mutex_unlock(mutex)
        return result
    }

    private func probeAll() {
        ThreadScope.probe = self
        for entry in entries {
            let outcome: Outcome
            do {
                try container.inQueue { () throws(ResolutionError) in try entry.probe(in: container) }
                outcome = .resolved
            } catch {
                outcome = .failed(error)
            }
            report(outcome, finished: false)
        }
        report(nil, finished: true)
    }

    private func report(_ outcome: Outcome?, finished: Bool) {
        // The validator reads the edges only once the probe has finished (or parked), so they
        // are collected then, once. This thread owns (or has stopped using) the container, so
        // reading its roots' dependencies here is race-free.
        let recorded = finished ? container.queue.sync { container.rootEntries.map { ($0, $0.dependencies) } } : []
        pthread_mutex_lock(mutex)
        if let outcome { outcomes.append(outcome) }
        if finished {
            edges = recorded
            isFinished = true
            pthread_cond_signal(condition)
        }
        pthread_mutex_unlock(mutex)
    }

    /// Reports `error` as the outcome of the entry being probed and never returns.
    func parkAfterFailure(_ error: ResolutionError) -> Never {
        report(.failed(error), finished: true)
        while true { pause() }
    }
}

/// Starts a detached POSIX thread running `body`.
enum ProbeThread {
    private final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    static func start(_ body: @escaping () -> Void) {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        #if canImport(Darwin)
            var thread: pthread_t?
        #else
            var thread = pthread_t()
        #endif
        let status = pthread_create(
            &thread, nil,
            { context in
                #if canImport(Darwin)
                    let body = Unmanaged<Body>.fromOpaque(context).takeRetainedValue()
                #else
                    let body = Unmanaged<Body>.fromOpaque(context!).takeRetainedValue()
                #endif
                body.run()
                return nil
            }, context)
        precondition(status == 0, "DependencyInjection: could not start a validation thread (\(status)).")
        #if canImport(Darwin)
            pthread_detach(thread!)
        #else
            pthread_detach(thread)
        #endif
    }
}
