/// Everything a container guards with its ``ReentrantQueue``.
///
/// It lives behind a pointer the container owns, so reading it from the inlinable fast path
/// neither retains anything nor pays for dynamic exclusivity checks of class properties; the
/// queue is what makes access exclusive.
@usableFromInline
struct ContainerState {
    /// One step of the resolution in progress on the thread that holds the queue.
    ///
    /// Its references are `unowned(unsafe)`: pushing and popping a frame retains and releases
    /// nothing. That is sound because an entry cannot be deallocated while a frame names it: the
    /// table (or a queued action, or the caller that passed the entry in) keeps it, and the table
    /// cannot drop it meanwhile — `register`, `reset` and `releaseInstances` are refused on this
    /// container while a frame exists (``DIContainer/refuseMutationDuringResolution(_:)``), and
    /// every other thread is kept out by the queue, held for the whole resolution.
    struct Frame {
        /// The root registration whose factory is running.
        unowned(unsafe) let root: AnyEntry
        /// The slot that was asked for (an alias, or the root itself).
        unowned(unsafe) let requested: AnyEntry
    }

    @usableFromInline var table = RegistrationTable()
    /// `registerDependencies()` has yet to run for this container.
    @usableFromInline var needsBootstrap: Bool
    /// On `shared` only: whether any container has ever been bound to a task (`activate`,
    /// `withOverrides`). Until then `current` is `shared` wherever no factory runs, so the static
    /// API skips the task-local lookup. Read and written under `shared`'s queue.
    @usableFromInline var taskBindingMayExist = false
    /// How many factories of this container are running (0 outside any resolution).
    @usableFromInline var depth = 0
    var frames: [Frame] = []
    /// An `onResolve` action waiting for the top-level resolution in progress to be made.
    struct PendingAction {
        let root: any RootRegistration
        let requested: AnyEntry
        let action: (Resolver) throws -> Void
    }

    var pendingActions: [PendingAction] = []
    /// Entries that keep a `Graph` instance for the top-level resolution in progress.
    var graphEntries: [any RootRegistration] = []
    /// How many registrations were installed, for ordering listings.
    var installedCount = 0
    /// Whether `reset()` arms `registerDependencies()` again (`shared`, and copies made from it).
    var bootstrapsAfterReset: Bool

    init(bootstraps: Bool) {
        needsBootstrap = bootstraps
        bootstrapsAfterReset = bootstraps
    }

    /// The resolution path so far, as the user asked for each step.
    var path: [String] { frames.map(\.requested.key.displayName) }
}
