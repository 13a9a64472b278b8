// A detached POSIX thread that runs one Swift closure and ends: `validate()`'s probe threads.
//
// Invariant: `start` hands the closure to the new thread as one retained reference through
// `pthread_create`'s context pointer (`Unmanaged.passRetained`), and the thread's entry function
// takes that reference back exactly once (`takeRetainedValue`) before it runs the closure; if
// `pthread_create` fails, no thread took it, and `start` takes it back itself before it traps. The
// thread is detached: nobody joins it, and its resources go when the closure returns.
//
// The number it buys: no Foundation in the library (`Thread` was its only use there), so a server
// that uses only Dispatch and the C library does not link it.

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Android)
    import Android
#endif

enum DetachedThread {
    /// Each thread's stack: 8 MiB, what Foundation's `Thread` got on Linux (the pthread default
    /// there, measured), so a probe may go as deep as before (its factory and everything it
    /// resolves, up to `Resolution.maximumDepth` steps); `Thread`'s default on Apple platforms is
    /// 512 KiB. Address space only: pages are touched as the stack grows.
    static let stackSize = 8 << 20

    /// Starts a thread that runs `body`, then ends.
    static func start(_ body: @escaping @Sendable () -> Void) {
        var attributes = pthread_attr_t()
        checkPOSIX(pthread_attr_init(&attributes), "pthread_attr_init")
        defer { checkPOSIX(pthread_attr_destroy(&attributes), "pthread_attr_destroy") }
        checkPOSIX(
            pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED)), "pthread_attr_setdetachstate")
        checkPOSIX(pthread_attr_setstacksize(&attributes, stackSize), "pthread_attr_setstacksize")
        let context = Unmanaged.passRetained(Closure(body))
        #if canImport(Glibc) || canImport(Android)
            var thread = pthread_t()
        #else
            var thread: pthread_t?
        #endif
        let status = pthread_create(&thread, &attributes, { runClosure($0) }, context.toOpaque())
        if status != 0 { context.release() }
        checkPOSIX(status, "pthread_create")
    }
}

/// The closure a thread runs, as an object (a context pointer can carry only an object).
private final class Closure {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}

/// The thread's entry function: takes back the reference `start` passed, and runs the closure.
private func runClosure(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    Unmanaged<Closure>.fromOpaque(context!).takeRetainedValue().body()
    return nil
}
