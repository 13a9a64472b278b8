// How much stack this thread has left, from the thread's own stack bounds.
//
// Invariant: the addresses are only compared, never dereferenced: the marker's address is taken
// for the comparison alone, the bounds are kept in thread-specific slots as numbers, and on Linux
// `pthread_getattr_np` is looked up by name with `dlsym` and called through a function pointer of
// exactly its C signature (Swift's Glibc module leaves that GNU extension out); when the symbol is
// missing, or a call fails, the stack left cannot be told and every check passes.
//
// The number it buys: a resolution as deep as `Resolution.maximumDepth` (1,000 steps) is a
// `ResolutionError` instead of a stack overflow on any thread, whatever its stack size (512 KiB
// on Apple's secondary threads, 128 KiB on musl's), at the cost of one check per step from the
// fifth on (two thread-specific reads once the bounds are known).

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Android)
    import Android
#endif

/// How much stack this thread has left: what lets a deep resolution be reported as an error
/// before it overflows, whatever the thread's stack size.
enum ThreadStack {
    /// Each thread's lowest and highest stack address, found once per thread (the lookup can be
    /// slow).
    private static let lowestAddressKey = makeKey()
    private static let highestAddressKey = makeKey()

    private static func makeKey() -> pthread_key_t {
        var key = pthread_key_t()
        checkPOSIX(pthread_key_create(&key, nil), "pthread_key_create")
        return key
    }

    /// Whether more than `reserve` bytes of stack are left below the caller's frame (more than a
    /// half of the stack, on a stack smaller than twice `reserve`: musl's threads have 128 KiB, and a debug
    /// build under ThreadSanitizer needs more than 32 KiB for one step and its error);
    /// `true` when that cannot be told.
    static func hasRoom(reserving reserve: Int) -> Bool {
        var marker: UInt8 = 0
        let here = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
        let (lowest, highest) = bounds
        // Outside the thread's stack (AddressSanitizer keeps locals on a fake stack of its own):
        // the stack left cannot be told.
        guard lowest < here, here <= highest else { return true }
        return Int(bitPattern: here &- lowest) > min(reserve, Int(bitPattern: highest &- lowest) / 2)
    }

    private static var bounds: (UInt, UInt) {
        if let lowest = pthread_getspecific(lowestAddressKey), let highest = pthread_getspecific(highestAddressKey) {
            return (UInt(bitPattern: lowest), UInt(bitPattern: highest))
        }
        let (lowest, size) = findStack()
        let highest = size > 0 ? lowest &+ size : 0
        remember(lowest, in: lowestAddressKey)
        remember(highest, in: highestAddressKey)
        return (lowest, highest)
    }

    private static func remember(_ address: UInt, in key: pthread_key_t) {
        checkPOSIX(pthread_setspecific(key, UnsafeRawPointer(bitPattern: address)), "pthread_setspecific")
    }

    /// The thread's lowest stack address and the stack's size; a size of 0 when unknown.
    private static func findStack() -> (UInt, UInt) {
        #if canImport(Darwin)
            let thread = pthread_self()
            let size = UInt(pthread_get_stacksize_np(thread))
            return (UInt(bitPattern: pthread_get_stackaddr_np(thread)) - size, size)
        #else
            typealias GetAttributes = @convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pthread_getattr_np") else {
                return (0, 0)
            }
            let getAttributes = unsafeBitCast(symbol, to: GetAttributes.self)
            var attributes = pthread_attr_t()
            var address: UnsafeMutableRawPointer?
            var size = 0
            guard getAttributes(pthread_self(), &attributes) == 0 else { return (0, 0) }
            defer { checkPOSIX(pthread_attr_destroy(&attributes), "pthread_attr_destroy") }
            guard pthread_attr_getstack(&attributes, &address, &size) == 0 else { return (0, 0) }
            return (UInt(bitPattern: address), UInt(size))
        #endif
    }
}
