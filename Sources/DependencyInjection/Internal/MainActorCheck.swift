// Whether code runs on the main actor, without trapping: on the main queue as Dispatch sees it, or
// on the process's main thread, which Swift's runtime counts as the main actor wherever it runs
// (`MainActor.assumeIsolated` passes there, inside another queue's `sync` too).
//
// Invariant: on Linux, `readlink` is given a buffer one byte longer than the length it may fill,
// and only the bytes it reports having written are read.
//
// The number it buys: code on the main thread inside `serial.sync { }` makes a main-actor service
// there, instead of waiting forever for the main queue its own thread is holding.

import Dispatch

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Android)
    import Android
#endif

/// Whether code runs on the main actor, without trapping.
enum MainActorCheck {
    /// Marks the main dispatch queue, which is where the main actor runs: on Linux,
    /// `dispatch_main()` retires the main thread and a worker drains the main queue, so
    /// "main thread" alone is the wrong question there.
    private static let marker: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    static var isOnMainActor: Bool { DispatchQueue.getSpecific(key: marker) == true || isMainThread }

    /// Whether this is the process's main thread, where no main-queue work runs meanwhile.
    private static var isMainThread: Bool {
        #if canImport(Darwin)
            return pthread_main_np() != 0
        #elseif os(Linux) || os(Android)
            // The main thread's ID is the process's: "/proc/thread-self" links to "<pid>/task/<tid>".
            var link = [CChar](repeating: 0, count: 64)
            let count = readlink("/proc/thread-self", &link, link.count - 1)
            let parts = link.prefix(max(count, 0)).split(separator: CChar(UInt8(ascii: "/")))
            return parts.count == 3 && parts[0] == parts[2]
        #else
            return false
        #endif
    }
}
