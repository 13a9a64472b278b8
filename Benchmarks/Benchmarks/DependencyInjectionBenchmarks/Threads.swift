#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The number of cores online.
let coresOnline = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))

/// glibc: the allocator keeps memory it was given back (`mallopt` with `M_TRIM_THRESHOLD` and
/// `M_MMAP_THRESHOLD` raised), in every benchmark's process alike. The registration workloads
/// grow containers to megabytes; left to return freed memory to the system, glibc made them measure
/// page faults on fresh memory instead, which varied from run to run by up to 2x. (`mallopt` is
/// not in Swift's Glibc module, so it is looked up by name.)
@discardableResult
func keepFreedMemory() -> Bool {
    #if canImport(Glibc)
        guard let symbol = dlsym(nil, "mallopt") else { return false }
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
        let trimThreshold: Int32 = -1  // M_TRIM_THRESHOLD
        let mmapThreshold: Int32 = -3  // M_MMAP_THRESHOLD
        return mallopt(trimThreshold, 1 << 30) == 1 && mallopt(mmapThreshold, 64 << 20) == 1
    #else
        return false
    #endif
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
