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

/// A thread-specific data key, named where the platform module is imported.
@usableFromInline typealias ThreadKey = pthread_key_t

/// Per-thread state that must follow synchronous work exactly: the container that is running a
/// factory on this thread, and whether this thread is a validation probe.
///
/// A task-local cannot serve here: binding one costs an allocation per factory call, while a
/// factory always runs synchronously on the thread that resolves it, so a thread-specific slot
/// says precisely "this container is making something right now, on this thread".

@usableFromInline
enum ThreadScope {
    @usableFromInline
    static let runningContainerKey: pthread_key_t = makeKey()
    static let probeKey: pthread_key_t = makeKey()

    private static func makeKey() -> pthread_key_t {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "DependencyInjection: pthread_key_create failed (\(status)).")
        return key
    }

    /// The container running a factory on this thread, if any. The pointer is unretained: the
    /// container is kept alive by the resolve call that set it until that call restores the slot.
    @inlinable
    static var runningContainer: DIContainer? {
        guard let pointer = runningContainerPointer else { return nil }
        return Unmanaged<DIContainer>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// The unretained pointer behind ``runningContainer``.
    @inlinable
    static var runningContainerPointer: UnsafeMutableRawPointer? {
        pthread_getspecific(runningContainerKey)
    }

    /// ``runningContainerPointer``, read with the key a container keeps a copy of (which spares
    /// the once-only initialization check of ``runningContainerKey`` on the fast paths).
    @inlinable @inline(__always)
    static func runningContainerPointer(key: ThreadKey) -> UnsafeMutableRawPointer? {
        pthread_getspecific(key)
    }

    /// Makes the container at `pointer` (unretained) the running one, or none for `nil`; also
    /// how a step restores the one it found (`key`: see above).
    static func setRunningContainerPointer(_ pointer: UnsafeMutableRawPointer?, key: ThreadKey) {
        pthread_setspecific(key, pointer)
    }

    /// Makes `container` the running one and returns the one it replaces.
    static func exchangeRunningContainer(_ container: DIContainer?, key: ThreadKey) -> UnsafeMutableRawPointer? {
        let previous = pthread_getspecific(key)
        setRunningContainerPointer(container.map { Unmanaged.passUnretained($0).toOpaque() }, key: key)
        return previous
    }

    /// The probe this thread reports to while `validate()` runs factories on it.
    static var probe: ValidationProbe? {
        get {
            guard let pointer = pthread_getspecific(probeKey) else { return nil }
            return Unmanaged<ValidationProbe>.fromOpaque(pointer).takeUnretainedValue()
        }
        set {
            pthread_setspecific(probeKey, newValue.map { Unmanaged.passUnretained($0).toOpaque() })
        }
    }

    /// Marks the main dispatch queue, which is where the main actor runs: on Linux,
    /// `dispatch_main()` retires the main thread and a worker drains the main queue, so
    /// "main thread" is the wrong question there.
    private static let mainQueueMarker: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    /// Whether code running here runs on the main actor's executor.
    static var isOnMainActor: Bool {
        DispatchQueue.getSpecific(key: mainQueueMarker) == true
    }
}
