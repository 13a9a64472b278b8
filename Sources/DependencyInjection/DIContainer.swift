/// A dependency container: registrations in, instances out.
///
/// Most apps use the process-wide ``shared`` container through the static API and the property
/// wrappers:
///
///     DIContainer.register {
///         Shared(AppConfigurationImpl() as AppConfiguration)
///         Shared { resolve in RouterImpl(config: resolve()) as Router }
///     }
///     let router = DIContainer.resolve(Router.self)
///
/// Every static member acts on ``current``: the container bound to the running task
/// (``activate(_:)-swift.method``, ``withOverrides(_:operation:)-swift.type.method``, the
/// `DependencyInjectionTesting` traits), else ``shared``. Each has an instance twin for
/// containers of your own.
///
/// Registration and resolution are serialized by a reentrant lock: any number of threads may
/// register and resolve at once, a `Shared` instance is made exactly once, and a factory may
/// resolve further dependencies on its own thread without deadlock.
public final class DIContainer: @unchecked Sendable {
    @usableFromInline let queue = ReentrantQueue()
    @usableFromInline let state: UnsafeMutablePointer<ContainerState>

    /// The container this one falls back to for what it lacks.
    public let parent: DIContainer?

    /// The process-wide container. It runs `registerDependencies()` once before its first
    /// registration or resolution when `DIContainer` conforms to ``DependencyRegistering``.
    public static let shared = DIContainer(parent: nil, bootstraps: true)

    @usableFromInline
    static let boundContainer = TaskLocal<DIContainer?>(wrappedValue: nil)

    /// The container the static API and the property wrappers use right now.
    ///
    /// While a container runs a factory, that container (so what it makes resolves its own
    /// property wrappers from it); otherwise the container bound to this task by
    /// ``activate(_:)-swift.method`` or ``withOverrides(_:operation:)-swift.type.method``;
    /// otherwise ``shared``.
    @inlinable
    public static var current: DIContainer {
        if let running = ThreadScope.runningContainer { return running }
        return boundContainer.get() ?? shared
    }

    /// An empty, independent container. It never runs `registerDependencies()`.
    public convenience init() {
        self.init(parent: nil, bootstraps: false)
    }

    /// An empty container that falls back to `parent` for what it lacks.
    ///
    /// The parent never sees the child's registrations, and a service registered in the
    /// parent is made by the parent, with the parent's instances and dependencies.
    public convenience init(parent: DIContainer) {
        self.init(parent: parent, bootstraps: false)
    }

    init(parent: DIContainer?, bootstraps: Bool) {
        self.parent = parent
        state = .allocate(capacity: 1)
        state.initialize(to: ContainerState(bootstraps: bootstraps))
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
    }
}

// MARK: - Registering

extension DIContainer {
    /// Registers everything the builder lists on ``current``; traps on a registration error.
    ///
    ///     DIContainer.register {
    ///         Shared(RouterImpl() as Router)
    ///         featureModule
    ///         if useMocks { New(MockPayments() as Payments) }
    ///     }
    public static func register(@RegistrationBuilder _ registrations: () -> Module) {
        current.register(registrations())
    }

    /// Registers one registration on ``current``; traps on a registration error.
    public static func register<Value, Scope>(_ registration: Registration<Value, Scope>) {
        current.register(Module(registration))
    }

    /// Registers a module on ``current``; traps on a registration error.
    public static func register(_ module: Module) {
        current.register(module)
    }

    /// Registers on ``current``, throwing instead of trapping; on error nothing changes.
    ///
    ///     try DIContainer.tryRegister(Shared(Engine(), as: Router.self)) // Engine is no Router: throws
    public static func tryRegister(@RegistrationBuilder _ registrations: () -> Module) throws {
        try current.tryRegister(registrations())
    }

    /// Registers one registration on ``current``, throwing instead of trapping.
    public static func tryRegister<Value, Scope>(_ registration: Registration<Value, Scope>) throws {
        try current.tryRegister(Module(registration))
    }

    /// Registers a module on ``current``, throwing instead of trapping.
    public static func tryRegister(_ module: Module) throws {
        try current.tryRegister(module)
    }

    /// Registers everything the builder lists; traps on a registration error.
    public func register(@RegistrationBuilder _ registrations: () -> Module) {
        register(registrations())
    }

    /// Registers one registration; traps on a registration error.
    public func register<Value, Scope>(_ registration: Registration<Value, Scope>) {
        register(Module(registration))
    }

    /// Registers a module; traps on a registration error.
    public func register(_ module: Module) {
        do { try install(module) } catch { Self.fail(error) }
    }

    /// Registers everything the builder lists, throwing instead of trapping.
    public func tryRegister(@RegistrationBuilder _ registrations: () -> Module) throws {
        try tryRegister(registrations())
    }

    /// Registers one registration, throwing instead of trapping.
    public func tryRegister<Value, Scope>(_ registration: Registration<Value, Scope>) throws {
        try tryRegister(Module(registration))
    }

    /// Registers a module, throwing a ``ResolutionError`` instead of trapping.
    ///
    /// Every registration is checked before any is installed, and `eager()` registrations are
    /// made once all are installed; if anything fails, the container is left as it was.
    public func tryRegister(_ module: Module) throws {
        try install(module)
    }

    /// The one registration path behind every API.
    func install(_ module: Module) throws(ResolutionError) {
        let replaced = try queue.sync { () throws(ResolutionError) -> [AnyEntry] in
            try refuseMutationDuringResolution("register")
            bootstrapIfNeeded()
            if let problem = module.plans.lazy.compactMap({ $0.problem() }).first { throw problem }
            let before = state.pointee.table
            var replaced: [AnyEntry] = []
            var eager: [any RootRegistration] = []
            for plan in module.plans {
                let entries = plan.makeEntries()
                let root = entries[0].root
                state.pointee.installedCount += 1
                root.sequence = state.pointee.installedCount
                for entry in entries {
                    if let old = state.pointee.table.set(entry, for: entry.key) { replaced.append(old) }
                }
                if plan.isEager { eager.append(root) }
            }
            do throws(ResolutionError) {
                for entry in eager { try entry.probe(in: self) }
            } catch {
                state.pointee.table = before
                throw error
            }
            return replaced
        }
        // Replaced entries (and the instances they kept) are released here, outside the lock,
        // so a `deinit` that resolves sees a consistent container.
        withExtendedLifetime(replaced) {}
    }

    func refuseMutationDuringResolution(_ operation: String) throws(ResolutionError) {
        guard let frame = state.pointee.frames.last else { return }
        throw error(.mutationDuringResolution(operation: operation), for: frame.requested.key)
    }

    /// Runs `registerDependencies()` if it is due. Called with the queue held.
    func bootstrapIfNeeded() {
        guard state.pointee.needsBootstrap else { return }
        state.pointee.needsBootstrap = false
        guard let registering = DIContainer.self as? any DependencyRegistering.Type else { return }
        // The static API inside registerDependencies() must reach this container, whatever
        // is bound to the task: make it the running container for the duration.
        let previous = ThreadScope.exchangeRunningContainer(self)
        defer { ThreadScope.restoreRunningContainer(previous) }
        registering.registerDependencies()
    }
}

// MARK: - Resolving

extension DIContainer {
    /// Resolves a `T` from ``current``; traps with the ``ResolutionError`` message on failure.
    ///
    ///     let router = DIContainer.resolve(Router.self)
    ///     bar(router: DIContainer.resolve())          // inferred
    ///     let cache = DIContainer.resolve(Store.self, name: "cache")
    ///
    /// `Optional<T>` resolves to `nil` when `T` is not registered.
    @inlinable
    public static func resolve<T>(_ type: T.Type = T.self, name: String? = nil) -> T {
        current.resolve(type, name: name)
    }

    /// Resolves a `T` made with arguments from ``current``; traps on failure.
    ///
    ///     DIContainer.resolve(ViewModelProtocol.self, arguments: { "id_goes_here" })
    ///     DIContainer.resolve(PresenterProtocol.self) { ("argument 1", 23, "argument 3") }
    @inlinable
    public static func resolve<T, each Argument>(
        _ type: T.Type = T.self, name: String? = nil, arguments: () -> (repeat each Argument)
    ) -> T {
        current.resolve(type, name: name, arguments: arguments)
    }

    /// Resolves a `T` from ``current``, throwing a ``ResolutionError`` instead of trapping.
    public static func tryResolve<T>(_ type: T.Type = T.self, name: String? = nil) throws -> T {
        try current.tryResolve(type, name: name)
    }

    /// Resolves a `T` made with arguments from ``current``, throwing instead of trapping.
    public static func tryResolve<T, each Argument>(
        _ type: T.Type = T.self, name: String? = nil, arguments: () -> (repeat each Argument)
    ) throws -> T {
        try current.tryResolve(type, name: name, arguments: arguments)
    }

    /// Resolves a `T`; traps with the ``ResolutionError`` message on failure.
    @inlinable
    public func resolve<T>(_ type: T.Type = T.self, name: String? = nil) -> T {
        queue.lock()
        defer { queue.unlock() }
        // Fast path: an unnamed `Shared` instance that is already made, outside any
        // resolution (inside one, the lookup is also an edge to record).
        if name == nil, state.pointee.depth == 0, !state.pointee.needsBootstrap,
            let entry = state.pointee.table.entry(for: ObjectIdentifier(T.self)),
            // Entries are stored under `Key(Value.self)`, so the entry for `T` is a `Provider<T>`.
            let value = unsafeDowncast(entry, to: Provider<T>.self).fastValue
        {
            return value
        }
        return resolveOrFail(Key(T.self, name: name))
    }

    /// Resolves a `T` made with arguments; traps on failure.
    @inlinable
    public func resolve<T, each Argument>(
        _ type: T.Type = T.self, name: String? = nil, arguments: () -> (repeat each Argument)
    ) -> T {
        do { return try resolveWithArguments(type, name: name, arguments: arguments) } catch { Self.fail(error) }
    }

    /// Resolves a `T`, throwing a ``ResolutionError`` instead of trapping.
    ///
    ///     do {
    ///         let router = try DIContainer.tryResolve(Router.self)
    ///     } catch {
    ///         print(error)   // the type, the name, the resolution path and a hint
    ///     }
    public func tryResolve<T>(_ type: T.Type = T.self, name: String? = nil) throws -> T {
        try queue.sync { () throws(ResolutionError) -> T in try resolveLocked(Key(T.self, name: name)) }
    }

    /// Resolves a `T` made with arguments, throwing instead of trapping.
    public func tryResolve<T, each Argument>(
        _ type: T.Type = T.self, name: String? = nil, arguments: () -> (repeat each Argument)
    ) throws -> T {
        try resolveWithArguments(type, name: name, arguments: arguments)
    }

    @usableFromInline
    func resolveWithArguments<T, each Argument>(
        _ type: T.Type, name: String?, arguments: () -> (repeat each Argument)
    ) throws(ResolutionError) -> T {
        let values = arguments()
        return try withUnsafePointer(to: values) { (pointer) throws(ResolutionError) -> T in
            let pack = ArgumentPack(tupleType: (repeat each Argument).self, pointer: UnsafeRawPointer(pointer))
            return try queue.sync { () throws(ResolutionError) -> T in
                let key = Key(T.self, name: name)
                bootstrapIfNeeded()
                recordDependency(on: key)
                guard let (owner, provider) = lookup(key, as: T.self) else { throw missing(key) }
                return try owner.inQueue { () throws(ResolutionError) -> T in
                    try provider.provide(in: owner, requested: provider, arguments: pack)
                }
            }
        }
    }

    @usableFromInline
    func resolveOrFail<T>(_ key: Key) -> T {
        do { return try resolveLocked(key) } catch { Self.fail(error) }
    }

    /// The one resolution path behind every API. Called with the queue held.
    func resolveLocked<T>(_ key: Key) throws(ResolutionError) -> T {
        bootstrapIfNeeded()
        if let (owner, provider) = lookup(key, as: T.self) {
            recordDependency(on: key)
            // An ancestor's entry may only be read under the ancestor's lock (inside `inQueue`).
            if owner === self, let value = provider.fastValue { return value }
            return try owner.inQueue { () throws(ResolutionError) -> T in try provider.provide(in: owner, requested: provider, arguments: nil) }
        }
        if let optional = T.self as? any OptionalResolvable.Type {
            // `T` is the optional type itself, so the cast back cannot fail.
            if let value = try optional.resolveIfRegistered(in: self, name: key.name) as? T { return value }
        }
        // Recorded too, so the dependency graph shows what is missing.
        recordDependency(on: key)
        throw missing(key)
    }

    /// Resolves `Wrapped` if this container or an ancestor registers it; `nil` otherwise.
    func resolveIfRegistered<Wrapped>(_ key: Key, as type: Wrapped.Type) throws(ResolutionError) -> Wrapped? {
        guard let (owner, provider) = lookup(key, as: Wrapped.self) else { return nil }
        recordDependency(on: key)
        if owner === self, let value = provider.fastValue { return value }
        return try owner.inQueue { () throws(ResolutionError) -> Wrapped in try provider.provide(in: owner, requested: provider, arguments: nil) }
    }

    /// The container that registers `key` (this one or an ancestor) and its provider.
    func lookup<T>(_ key: Key, as type: T.Type) -> (DIContainer, Provider<T>)? {
        var container: DIContainer? = self
        while let candidate = container {
            let entry: AnyEntry?
            if candidate === self {
                entry = state.pointee.table.entry(for: key)
            } else {
                // An ancestor (`shared`, say) may not have run its registerDependencies() yet.
                entry = candidate.queue.sync {
                    candidate.bootstrapIfNeeded()
                    return candidate.state.pointee.table.entry(for: key)
                }
            }
            // Entries are stored under `Key(Value.self)`, so the entry for `T` is a `Provider<T>`.
            if let entry { return (candidate, unsafeDowncast(entry, to: Provider<T>.self)) }
            container = candidate.parent
        }
        return nil
    }

    /// Runs `body` holding this container's queue (an ancestor resolves under its own lock).
    func inQueue<R>(_ body: () throws(ResolutionError) -> R) throws(ResolutionError) -> R {
        try queue.sync(body)
    }

    func recordDependency(on key: Key) {
        state.pointee.frames.last?.root.recordDependency(on: key)
    }

    /// Runs one registration's factory as a step of the resolution path.
    ///
    /// The outermost step makes this container the running one on this thread, so wrappers of
    /// what its factories make resolve from it, and ends the top-level resolution afterwards
    /// (dropping `Graph` instances). Errors a factory throws that are not already a
    /// ``ResolutionError`` are wrapped in one that keeps them and names the path.
    func withFrame<V>(
        root: any RootRegistration, requested: AnyEntry, _ body: (Resolver) throws -> V
    ) throws(ResolutionError) -> V {
        let isTopLevel = state.pointee.depth == 0
        let previous = isTopLevel ? ThreadScope.exchangeRunningContainer(self) : nil
        state.pointee.depth += 1
        state.pointee.frames.append(ContainerState.Frame(root: root, requested: requested))
        var released: [Any] = []
        defer {
            state.pointee.frames.removeLast()
            state.pointee.depth -= 1
            if isTopLevel {
                state.pointee.pendingActions.removeAll()
                for entry in state.pointee.graphEntries { entry.endGraph(into: &released) }
                state.pointee.graphEntries.removeAll(keepingCapacity: true)
                ThreadScope.restoreRunningContainer(previous)
            }
        }
        let value: V
        do {
            value = try body(Resolver(self))
        } catch let error as ResolutionError {
            throw error
        } catch {
            throw self.error(.factoryFailed, for: requested.key, underlying: error)
        }
        if isTopLevel { try runPendingActions() }
        return value
    }

    /// Queues `root`'s `onResolve` action for when the top-level resolution has made everything.
    ///
    /// Deferring it is what lets two services point at each other whichever is resolved first:
    /// by the time it runs, every instance of this resolution is made and kept.
    func afterResolution(
        of root: any RootRegistration, requested: AnyEntry, _ action: @escaping (Resolver) throws -> Void
    ) {
        state.pointee.pendingActions.append(.init(root: root, requested: requested, action: action))
    }

    /// Runs queued `onResolve` actions, including those that running them queues. Queue held.
    private func runPendingActions() throws(ResolutionError) {
        while !state.pointee.pendingActions.isEmpty {
            let pending = state.pointee.pendingActions.removeFirst()
            // While its action runs, the registration counts as under construction again, so
            // an action that needs a new instance of its own registration is a cycle.
            let wasConstructing = pending.root.isConstructing
            pending.root.isConstructing = true
            defer { pending.root.isConstructing = wasConstructing }
            try withFrame(root: pending.root, requested: pending.requested, pending.action)
        }
    }

    func keepsGraphInstance(_ entry: any RootRegistration) {
        state.pointee.graphEntries.append(entry)
    }

    /// Traps with the error's message, or, on a `validate()` probe thread, reports it and
    /// parks the thread (a non-throwing factory cannot be unwound).
    @usableFromInline
    static func fail(_ error: ResolutionError) -> Never {
        if let probe = ThreadScope.probe { probe.parkAfterFailure(error) }
        fatalError(error.description)
    }
}

// MARK: - Scoping

extension DIContainer {
    /// Binds this container as ``current`` while `operation` runs (sync).
    ///
    ///     box.activate {
    ///         let screen = Screen()   // its wrappers resolve from box
    ///     }
    ///
    /// The binding is task-local: other tasks and threads are unaffected.
    public func activate<R>(_ operation: () throws -> R) rethrows -> R {
        // A factory running on this thread would otherwise take precedence over the binding.
        let previous = ThreadScope.exchangeRunningContainer(nil)
        defer { ThreadScope.restoreRunningContainer(previous) }
        return try Self.boundContainer.withValue(self, operation: operation)
    }

    /// Binds this container as ``current`` while `operation` runs (async).
    public func activate<R>(
        isolation: isolated (any Actor)? = #isolation, _ operation: () async throws -> R
    ) async rethrows -> R {
        try await Self.boundContainer.withValue(self, operation: operation)
    }
}

// MARK: - Housekeeping

extension DIContainer {
    /// Forgets every registration and instance of ``current``.
    ///
    /// For ``shared`` (and copies of it), `registerDependencies()` runs again before the next
    /// registration or resolution.
    public static func reset() {
        current.reset()
    }

    /// Drops the cached `Shared` and `Weak` instances of ``current``; keeps the registrations.
    public static func releaseInstances() {
        current.releaseInstances()
    }

    /// Forgets every registration and instance.
    public func reset() {
        let old = queue.sync { () -> RegistrationTable in
            failIfResolving("reset")
            let old = state.pointee.table
            state.pointee.table = RegistrationTable()
            state.pointee.needsBootstrap = state.pointee.bootstrapsAfterReset
            return old
        }
        withExtendedLifetime(old) {}
    }

    /// Drops cached `Shared` and `Weak` instances; keeps the registrations.
    public func releaseInstances() {
        let released = queue.sync { () -> [Any] in
            failIfResolving("releaseInstances")
            var released: [Any] = []
            for entry in state.pointee.table.entries { entry.releaseInstances(into: &released) }
            // Aliases may point at a root whose own slot was replaced: release those too.
            for entry in state.pointee.table.entries where entry.root !== entry {
                entry.root.releaseInstances(into: &released)
            }
            return released
        }
        withExtendedLifetime(released) {}
    }

    private func failIfResolving(_ operation: String) {
        do { try refuseMutationDuringResolution(operation) } catch { Self.fail(error) }
    }

    /// A copy with the same registrations (after `registerDependencies()` has run) and no
    /// instances; its ancestors are copied too, so nothing it makes reaches the source.
    func isolatedCopy() -> DIContainer {
        var roots: [ObjectIdentifier: AnyEntry] = [:]
        return isolatedCopy(roots: &roots)
    }

    /// `isolatedCopy()`, also filling `roots`: each source root's identity to its copy.
    func isolatedCopy(roots: inout [ObjectIdentifier: AnyEntry]) -> DIContainer {
        queue.sync {
            bootstrapIfNeeded()
            let copy = DIContainer(parent: parent?.isolatedCopy(), bootstraps: false)
            copy.state.pointee.bootstrapsAfterReset = state.pointee.bootstrapsAfterReset
            copy.state.pointee.installedCount = state.pointee.installedCount
            for entry in state.pointee.table.entries {
                copy.state.pointee.table.set(entry.freshCopy(roots: &roots), for: entry.key)
            }
            return copy
        }
    }
}
