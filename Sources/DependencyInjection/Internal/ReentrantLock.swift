// The library's one lock: a recursive POSIX mutex on the heap, with the resolution state it guards.
//
// Invariant: the mutex never moves (a pthread mutex must not): it lives at a heap address of its
// own, allocated and initialized in `init`, and never handed out. It is never destroyed: the one
// instance is `Resolution.lock`, a `static let` that lives as long as the process.
// `holdCount`, `value` and `releasedAfterUnlock` are read and written only by the thread holding
// the mutex, which orders every access from two threads. What a holder drops waits in
// `releasedAfterUnlock` until its last unlock: a `deinit` may resolve, or wait for another thread
// that does (the one exception, a value a factory was given and dropped, is in docs/Design.md, "The rule").
//
// The number it buys: a recursive `pthread_mutex_t` costs a few nanoseconds per lock and
// unlock and allocates nothing; a `DispatchQueue.sync` with an identity check, the reentrant
// alternative without pointers, was ~20x slower on Linux.

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

/// A lock that the thread holding it may take again (a recursive POSIX mutex), with the state it
/// guards as its `value`.
///
/// A factory resolves further dependencies, directly or through property wrappers, on the thread
/// that already holds the lock, so it must be reentrant.
///
/// Not generic, and no subclass of the generic ``Locked``: its metadata needs no making at run
/// time (that took a launch several microseconds). Its `value` follows ``Locked``'s invariants.
final class ReentrantLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// How many times the owner holds the lock; read and written only by the owner.
    private var holdCount = 0
    // `value`: the state it guards, read and written only by the thread holding it, as ``Locked``'s
    // value. `releasedAfterUnlock`: what to release once the owner lets go of the lock completely;
    // owner only, and every access is one append, read or swap, so release builds skip the
    // run-time exclusivity check for both.
    #if DEBUG
        final var value = ResolutionState()
        private var releasedAfterUnlock: [Any] = []
    #else
        @exclusivity(unchecked) final var value = ResolutionState()
        @exclusivity(unchecked) private var releasedAfterUnlock: [Any] = []
    #endif

    init() {
        mutex = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        checkPOSIX(pthread_mutexattr_init(&attributes), "pthread_mutexattr_init")
        checkPOSIX(pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE)), "pthread_mutexattr_settype")
        checkPOSIX(pthread_mutex_init(mutex, &attributes), "pthread_mutex_init")
        checkPOSIX(pthread_mutexattr_destroy(&attributes), "pthread_mutexattr_destroy")
    }

    func lock() {
        checkPOSIX(pthread_mutex_lock(mutex), "pthread_mutex_lock")
        holdCount += 1
    }

    func unlock() {
        holdCount -= 1
        guard holdCount == 0, !releasedAfterUnlock.isEmpty else {
            return checkPOSIX(pthread_mutex_unlock(mutex), "pthread_mutex_unlock")
        }
        let released = releasedAfterUnlock
        releasedAfterUnlock = []
        checkPOSIX(pthread_mutex_unlock(mutex), "pthread_mutex_unlock")
        withExtendedLifetime(released) {}
    }

    /// Takes the lock if no other thread holds it; never waits.
    func tryLock() -> Bool {
        let status = pthread_mutex_trylock(mutex)
        guard status == 0 else {
            precondition(status == EBUSY, "DependencyInjection: pthread_mutex_trylock failed (\(status)).")
            return false
        }
        holdCount += 1
        return true
    }

    /// Whether this thread holds the lock.
    var isHeldByCurrentThread: Bool {
        guard tryLock() else { return false }
        defer { unlock() }
        return holdCount > 1
    }

    /// Keeps `value` until this thread lets go of the lock completely. Call only while holding it.
    func releaseAfterUnlock(_ value: consuming Any?) {
        // Moved, not copied: a copy of an `Any?` goes through `Optional`'s generic value witnesses.
        if let value = consume value { releasedAfterUnlock.append(value) }
    }

    /// Runs `body` holding the lock.
    @inline(__always)
    func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Releases every hold this thread has on the lock, for a thread that will never return to the
    /// code that took them (a parked validation probe) or that takes them back (``relock(_:)``).
    /// Call only while holding the lock; returns how many holds it released.
    @discardableResult
    func unlockCompletely() -> Int {
        // Read once, while this thread holds the lock: after the last unlock it is another's.
        let holds = holdCount
        for _ in 0..<holds { unlock() }
        return holds
    }

    /// Takes the lock `holds` times, as ``unlockCompletely()`` found it.
    func relock(_ holds: Int) { for _ in 0..<holds { lock() } }
}

/// Traps unless a POSIX call (`function`) returned 0: a lock or thread call that fails leaves the
/// library's invariants unknown.
@inline(__always)
func checkPOSIX(_ status: Int32, _ function: StaticString) {
    precondition(status == 0, "DependencyInjection: \(function) failed (\(status)).")
}
