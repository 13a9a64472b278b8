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

/// The POSIX mutex type, named where the platform module is imported.
@usableFromInline typealias PlatformMutex = pthread_mutex_t

/// Serializes registration and resolution for one container and lets the thread that holds it
/// enter again.
///
/// A recursive POSIX mutex records its owner thread and a recursion count, so a factory that
/// resolves further dependencies (directly, or through property wrappers of what it makes) on the
/// thread that already holds the queue re-enters instead of deadlocking. Unlike a
/// `DispatchQueue.sync` with a queue-identity check, it costs a few nanoseconds, allocates
/// nothing, and keeps working when a factory hops through another queue and back on the same
/// thread.
@usableFromInline
final class ReentrantQueue: @unchecked Sendable {
    // The mutex lives at a fixed heap address: a pthread mutex must never move.
    @usableFromInline let mutex: UnsafeMutablePointer<PlatformMutex>

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

    @inlinable @inline(__always)
    func lock() {
        pthread_mutex_lock(mutex)
    }

    @inlinable @inline(__always)
    func unlock() {
        pthread_mutex_unlock(mutex)
    }

    /// Runs `body` while holding the queue; re-entrant on the owning thread.
    @inlinable @inline(__always)
    func sync<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}

extension DIContainer {
    /// Takes this container's queue (``ReentrantQueue/lock()``) through the mutex pointer the
    /// container keeps.
    @inlinable @inline(__always)
    func lockQueue() {
        pthread_mutex_lock(mutex)
    }

    /// Releases this container's queue.
    @inlinable @inline(__always)
    func unlockQueue() {
        pthread_mutex_unlock(mutex)
    }
}
