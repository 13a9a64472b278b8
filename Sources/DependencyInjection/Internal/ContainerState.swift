/// Everything a container guards with its ``ReentrantQueue``.
///
/// It lives behind a pointer the container owns, so reading it from the inlinable fast path
/// neither retains anything nor pays for dynamic exclusivity checks of class properties; the
/// queue is what makes access exclusive.
@usableFromInline
struct ContainerState {
    /// One step of the resolution in progress on the thread that holds the queue.
    ///
    /// Its references are unretained: pushing and popping a frame retains and releases nothing. That is sound because an entry cannot be deallocated while a frame names it: the
    /// table (or a queued action, or the caller that passed the entry in) keeps it, and the table
    /// cannot drop it meanwhile — `register`, `reset` and `releaseInstances` are refused on this
    /// container while a frame exists (``DIContainer/refuseMutationDuringResolution(_:)``), and
    /// every other thread is kept out by the queue, held for the whole resolution.
    struct Frame {
        /// The root registration whose factory is running, unretained.
        let unretainedRoot: Unmanaged<AnyEntry>
        /// The slot that was asked for (an alias, or the root itself), unretained.
        let unretainedRequested: Unmanaged<AnyEntry>

        init(root: AnyEntry, requested: AnyEntry) {
            unretainedRoot = .passUnretained(root)
            unretainedRequested = .passUnretained(requested)
        }

        /// The root registration whose factory is running.
        var root: AnyEntry { unretainedRoot.takeUnretainedValue() }
        /// The slot that was asked for (an alias, or the root itself).
        var requested: AnyEntry { unretainedRequested.takeUnretainedValue() }
    }

    @usableFromInline var table = RegistrationTable()
    /// `registerDependencies()` has yet to run for this container.
    @usableFromInline var needsBootstrap: Bool
    /// Whether this container is ``DIContainer/current`` wherever no factory runs: true for
    /// `shared` until any container is first bound to a task (`activate`, `withOverrides`), and
    /// never again after. While it holds, the static API skips the task-local lookup, and a
    /// top-level resolution leaves the thread's running-container slot alone (empty, it already
    /// means this container). Read and written under this container's queue.
    @usableFromInline var isCurrentByDefault: Bool
    /// How many factories of this container are running (0 outside any resolution).
    @usableFromInline var depth = 0
    var frames = FrameStack()
    /// An `onResolve` action waiting for the top-level resolution in progress to be made.
    struct PendingAction {
        let root: any RootRegistration
        let requested: AnyEntry
        let action: (Resolver) throws -> Void
    }

    var pendingActions: [PendingAction] = []
    /// While this container resolves inside another container's resolution on the same thread
    /// (a parent reached from a child), that container; `nil` otherwise. Set and cleared by the
    /// top-level step; `unowned(unsafe)` because that container is mid-resolution below us on
    /// this thread's stack, so it outlives the link.
    unowned(unsafe) var outer: DIContainer?
    /// `Graph` instances of the resolution in progress on the thread that holds the queue, by
    /// root entry; kept only by the outermost container of that resolution (see `graphOwner`),
    /// so every container it passes through shares them, and no other thread sees them.
    var graphValues: [ObjectIdentifier: Any] = [:]
    /// How many registrations were installed, for ordering listings.
    var installedCount = 0
    /// Whether `reset()` arms `registerDependencies()` again (`shared`, and copies made from it).
    var bootstrapsAfterReset: Bool

    init(bootstraps: Bool) {
        needsBootstrap = bootstraps
        bootstrapsAfterReset = bootstraps
        // Only `shared` bootstraps when made.
        isCurrentByDefault = bootstraps
    }

    /// The resolution path so far, as the user asked for each step.
    var path: [String] { frames.all.map(\.requested.key.displayName) }
}

/// The frames of the resolution in progress, innermost last.
///
/// A stack in a buffer of its own rather than an `Array`: a push is a capacity check and a
/// store (no uniqueness check, no retains, as `Frame` is trivial). The buffer lives as long as
/// the container and is freed by its `deinit`.
struct FrameStack {
    private var base: UnsafeMutablePointer<ContainerState.Frame>?
    private(set) var count = 0
    private var capacity = 0

    var last: ContainerState.Frame? { count == 0 ? nil : base.unsafelyUnwrapped[count - 1] }

    /// Every frame, outermost first.
    var all: [ContainerState.Frame] { Array(UnsafeBufferPointer(start: base, count: count)) }

    mutating func push(_ frame: ContainerState.Frame) {
        if count == capacity { grow() }
        (base.unsafelyUnwrapped + count).initialize(to: frame)
        count += 1
    }

    mutating func pop() {
        count -= 1
    }

    private mutating func grow() {
        let newCapacity = Swift.max(8, capacity * 2)
        let grown = UnsafeMutablePointer<ContainerState.Frame>.allocate(capacity: newCapacity)
        if let base {
            grown.moveInitialize(from: base, count: count)
            base.deallocate()
        }
        base = grown
        capacity = newCapacity
    }

    /// Frees the buffer; called once, when the container is deallocated.
    func deallocate() {
        base?.deallocate()
    }
}
