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
/// The one place in the library that touches memory by pointer. A factory resolves further
/// dependencies, directly or through property wrappers, on the thread that already holds the
/// lock, so it must be reentrant; a recursive `pthread_mutex_t` costs a few nanoseconds and
/// allocates nothing (a `DispatchQueue.sync` with an identity check is ~20x slower on Linux).
///
/// Not generic, and no subclass of the generic ``Locked``: its metadata needs no making at run
/// time (that took a launch several microseconds). Its `value` follows ``Locked``'s invariants.
final class ReentrantLock: @unchecked Sendable {
    /// The state it guards: read and written only by the thread holding it, as ``Locked``'s value.
    #if DEBUG
        final var value: ResolutionState
    #else
        @exclusivity(unchecked) final var value: ResolutionState
    #endif
    // Invariant that makes the pointer sound: a pthread mutex must never move, so it lives at a
    // heap address of its own, allocated and initialized here, destroyed and freed in `deinit`,
    // and never handed out.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// How many times the owner holds the lock; read and written only by the owner.
    private var holdCount = 0
    /// What to release once the owner lets go of the lock completely: a `deinit` may resolve, or
    /// wait for another thread that does, so none runs while the lock is held. Owner only; not
    /// checked for exclusive access at run time (every access is one append, read or swap).
    @exclusivity(unchecked) private var releasedAfterUnlock: [Any] = []

    init(_ state: ResolutionState) {
        mutex = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        let status = pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
        precondition(status == 0, "DependencyInjection: pthread_mutex_init failed (\(status)).")
        value = state
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
        guard holdCount == 0, !releasedAfterUnlock.isEmpty else {
            pthread_mutex_unlock(mutex)
            return
        }
        let released = releasedAfterUnlock
        releasedAfterUnlock = []
        pthread_mutex_unlock(mutex)
        withExtendedLifetime(released) {}
    }

    /// Takes the lock if no other thread holds it; never waits.
    func tryLock() -> Bool {
        guard pthread_mutex_trylock(mutex) == 0 else { return false }
        holdCount += 1
        return true
    }

    /// Whether this thread holds the lock.
    var isHeldByCurrentThread: Bool {
        guard tryLock() else { return false }
        defer { unlock() }
        return holdCount > 1
    }

    /// Writes `text` to standard error, unbuffered (for warnings: the library never prints otherwise).
    static func writeToStandardError(_ text: String) {
        // File descriptor 2 is standard error; the buffer is the string's own, valid during the call.
        var text = text
        text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
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

/// A made value of any type, as the container keeps and hands it out, with the type it was made as.
///
/// One class for every type: a value of a type seen for the first time makes no generic metadata
/// (a generic `Box<Value>` class had its metadata made for each type, and every call site that
/// cast to it looked that metadata up by its mangled name). The value lives in the object's own
/// tail-allocated bytes; handing it back as the type asked for is a comparison of `type` and a copy.
@usableFromInline
final class AnyBox: ManagedBuffer<AnyBox.Header, UInt8> {
    @usableFromInline
    struct Header {
        /// The type of the value in the bytes.
        @usableFromInline let type: any Any.Type
        @usableFromInline init(type: any Any.Type) { self.type = type }
    }

    // Invariant that makes the pointers sound: an `AnyBox` is made only by `holding(_:)`, which
    // initializes one `Value` at the first `Value`-aligned address of its bytes (it allocates
    // enough for any alignment) and records `Value.self` in the header, which nothing writes again.
    // `value(as:)` reads that address as a `T` only when `T.self` is that type, and `deinit`
    // destroys it as that type.
    @inlinable
    static func holding<Value>(_ value: Value) -> AnyBox {
        let size = MemoryLayout<Value>.size + MemoryLayout<Value>.alignment
        let box = unsafeDowncast(create(minimumCapacity: size) { _ in Header(type: Value.self) }, to: AnyBox.self)
        box.withUnsafeMutablePointerToElements { address(of: Value.self, in: $0).initialize(to: value) }
        return box
    }

    @inlinable
    static func address<Value>(of _: Value.Type, in bytes: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<Value> {
        UnsafeMutableRawPointer(bytes).alignedUp(for: Value.self).assumingMemoryBound(to: Value.self)
    }

    /// Whether the value is a `T` (exactly: an `any P` value is not a value of its dynamic type).
    @inlinable
    func holds<T>(_: T.Type) -> Bool {
        withUnsafeMutablePointerToHeader { ObjectIdentifier($0.pointee.type) == ObjectIdentifier(T.self) }
    }

    /// A copy of the value, which must be a `T` (see ``holds(_:)``).
    @inlinable
    func value<T>(as _: T.Type) -> T {
        withUnsafeMutablePointers { header, bytes in
            guard ObjectIdentifier(header.pointee.type) == ObjectIdentifier(T.self) else {
                preconditionFailure("DependencyInjection: a \(header.pointee.type) is not a \(T.self).")
            }
            return Self.address(of: T.self, in: bytes).pointee
        }
    }

    deinit {
        withUnsafeMutablePointers { header, bytes in
            func destroy<Value>(_: Value.Type) { Self.address(of: Value.self, in: bytes).deinitialize(count: 1) }
            destroy(header.pointee.type)
        }
    }
}

/// An object reached without retaining it: a container or an entry of the resolution in progress
/// (retaining a container takes the runtime's slow path, as its weak references give it a side
/// table; retains and releases are a third of a launch's resolves).
struct Unretained<Object: AnyObject> {
    // Invariant that makes it sound: one is made only for an object that the code making it keeps
    // alive for as long as the value exists. A frame of the resolution in progress is pushed by a
    // method of its container (`run`, whose caller holds the entry) and popped before that method
    // returns, so its container and entry are alive while it is on the stack; `resolveBox` makes
    // one for a container its caller passes (alive until it returns) or for `shared` (never released).
    private let object: Unmanaged<Object>

    init(_ object: Object) { self.object = .passUnretained(object) }

    /// Runs `body` with the object (a reference it returns is retained, as any other).
    func with<R>(_ body: (Object) -> R) -> R { object._withUnsafeGuaranteedRef(body) }
}

/// How much stack this thread has left: what lets a deep resolution be reported as an error
/// before it overflows, whatever the thread's stack size (512 KiB on Apple's secondary threads).
enum ThreadStack {
    /// Each thread's lowest and highest stack address, found once per thread (the lookup can be
    /// slow). The slots hold addresses as numbers, never dereferenced.
    private static let lowestAddressKey = makeKey()
    private static let highestAddressKey = makeKey()

    private static func makeKey() -> pthread_key_t {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "DependencyInjection: pthread_key_create failed (\(status)).")
        return key
    }

    /// Whether more than `reserve` bytes of stack are left below the caller's frame (more than a
    /// quarter of the stack, on a stack smaller than four times `reserve`: musl's threads have 128 KiB);
    /// `true` when that cannot be told.
    static func hasRoom(reserving reserve: Int) -> Bool {
        var marker: UInt8 = 0
        // The address is only compared, never dereferenced.
        let here = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
        let (lowest, highest) = bounds
        // Outside the thread's stack (AddressSanitizer keeps locals on a fake stack of its own):
        // the stack left cannot be told.
        guard lowest < here, here <= highest else { return true }
        return Int(bitPattern: here &- lowest) > min(reserve, Int(bitPattern: highest &- lowest) / 4)
    }

    private static var bounds: (UInt, UInt) {
        if let lowest = pthread_getspecific(lowestAddressKey), let highest = pthread_getspecific(highestAddressKey) {
            return (UInt(bitPattern: lowest), UInt(bitPattern: highest))
        }
        let (lowest, size) = findStack()
        let highest = size > 0 ? lowest &+ size : 0
        pthread_setspecific(lowestAddressKey, UnsafeRawPointer(bitPattern: lowest))
        pthread_setspecific(highestAddressKey, UnsafeRawPointer(bitPattern: highest))
        return (lowest, highest)
    }

    /// The thread's lowest stack address and the stack's size; a size of 0 when unknown.
    private static func findStack() -> (UInt, UInt) {
        #if canImport(Darwin)
            let thread = pthread_self()
            let size = UInt(pthread_get_stacksize_np(thread))
            return (UInt(bitPattern: pthread_get_stackaddr_np(thread)) - size, size)
        #else
            // Swift's Glibc module leaves out the GNU extension `pthread_getattr_np`: it is looked
            // up by name. The cast is sound because the symbol has exactly this C signature.
            typealias GetAttributes = @convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pthread_getattr_np") else {
                return (0, 0)
            }
            let getAttributes = unsafeBitCast(symbol, to: GetAttributes.self)
            var attributes = pthread_attr_t()
            var address: UnsafeMutableRawPointer?
            var size = 0
            guard getAttributes(pthread_self(), &attributes) == 0 else { return (0, 0) }
            defer { pthread_attr_destroy(&attributes) }
            guard pthread_attr_getstack(&attributes, &address, &size) == 0 else { return (0, 0) }
            return (UInt(bitPattern: address), UInt(size))
        #endif
    }
}

/// Mutable state that only the thread holding ``Resolution/lock`` reads or writes.
///
/// Swift checks exclusive access to a class's stored `var` at run time, which costs a
/// thread-local lookup per access (most of a resolve's time); `value` opts out of that check.
@usableFromInline
class Locked<Value>: @unchecked Sendable {
    // Unchecked, and sound, because of two invariants every use keeps:
    // 1. `value` is read and written only with `Resolution.lock` held, so accesses from two
    //    threads never overlap (the lock's acquire and release order them).
    // 2. On the holding thread, no access is open while user code runs: each is one read, one
    //    write or one in-place mutation of a standard collection, and a value that a write
    //    replaces or removes is handed back to the caller and released after the access ends
    //    (a `deinit` may resolve, and so access `value` again).
    #if DEBUG
        // Debug builds (and so the test suite, sanitizers included) keep Swift's run-time check,
        // which traps on any access that breaks the second invariant.
        final var value: Value
    #else
        @exclusivity(unchecked) final var value: Value
    #endif

    init(_ value: Value) { self.value = value }
}

/// ``Locked`` for the two states every launch makes, an entry's and a container's registry, as
/// classes of their own: a generic class's metadata (and a subclass's of it) is made at run time,
/// the first time a process uses it. The same invariants hold.
@usableFromInline
class LockedInstances: @unchecked Sendable {
    // Unchecked, and sound, by ``Locked``'s invariants.
    #if DEBUG
        final var value: Entry.Instances
    #else
        @exclusivity(unchecked) final var value: Entry.Instances
    #endif

    init(_ value: Entry.Instances) { self.value = value }
}

/// A container's registry, guarded as ``Locked``'s value (see ``LockedInstances``).
final class LockedRegistry: @unchecked Sendable {
    // Unchecked, and sound, by ``Locked``'s invariants.
    #if DEBUG
        final var value: DIContainer.Registry
    #else
        @exclusivity(unchecked) final var value: DIContainer.Registry
    #endif

    init(_ value: DIContainer.Registry) { self.value = value }
}
