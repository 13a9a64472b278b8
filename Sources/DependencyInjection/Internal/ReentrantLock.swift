#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Android)
    import Android
#else
    #error("DependencyInjection needs POSIX threads (Darwin, Glibc, Musl or Android).")
#endif

/// A lock that the thread holding it may take again: a recursive POSIX mutex.
///
/// The one place in the library that touches memory by pointer. A factory resolves further
/// dependencies, directly or through property wrappers, on the thread that already holds the
/// lock, so it must be reentrant; a recursive `pthread_mutex_t` costs a few nanoseconds and
/// allocates nothing (a `DispatchQueue.sync` with an identity check is ~20x slower on Linux).
final class ReentrantLock: @unchecked Sendable {
    // Invariant that makes the pointer sound: a pthread mutex must never move, so it lives at a
    // heap address of its own, allocated and initialized here, destroyed and freed in `deinit`,
    // and never handed out.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// How many times the owner holds the lock; read and written only by the owner.
    private var holdCount = 0

    init() {
        mutex = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        let status = pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
        precondition(status == 0, "DependencyInjection: pthread_mutex_init failed (\(status)).")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func lock() {
        pthread_mutex_lock(mutex)
        holdCount += 1
    }

    func unlock() {
        holdCount -= 1
        pthread_mutex_unlock(mutex)
    }

    /// Runs `body` holding the lock.
    @inline(__always)
    func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Releases every hold this thread has on the lock; for a thread that will never return to
    /// the code that took them (a parked validation probe). Call only while holding the lock.
    func unlockCompletely() {
        // Read once, while this thread holds the lock: after the last unlock it is another's.
        let holds = holdCount
        for _ in 0..<holds { unlock() }
    }
}
