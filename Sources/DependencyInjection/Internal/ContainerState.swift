/// Everything a container guards with its ``ReentrantQueue``.
///
/// It lives behind a pointer the container owns, so reading it from the inlinable fast path
/// neither retains anything nor pays for dynamic exclusivity checks of class properties; the
/// queue is what makes access exclusive.
@usableFromInline
struct ContainerState {
    /// One step of the resolution in progress on the thread that holds the queue.
    struct Frame {
        /// The registration whose factory is running.
        let root: any RootRegistration
        /// The slot that was asked for (an alias, or the root itself).
        let requested: AnyEntry
    }

    @usableFromInline var table = RegistrationTable()
    /// `registerDependencies()` has yet to run for this container.
    @usableFromInline var needsBootstrap: Bool
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
