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
    /// The queue's mutex, read from here by the inlined fast paths: one load fewer per lock.
    @usableFromInline let mutex: UnsafeMutablePointer<PlatformMutex>
    @usableFromInline let state: UnsafeMutablePointer<ContainerState>
    /// What the ``Resolver``s this container hands to factories point at.
    @usableFromInline let reference = ContainerReference()
    /// ``ThreadScope/runningContainerKey``, kept here so the fast paths, which read this object
    /// anyway, need no once-only initialization check to read the thread's running container.
    @usableFromInline let runningKey: ThreadKey = ThreadScope.runningContainerKey

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
        mutex = queue.mutex
        state = .allocate(capacity: 1)
        state.initialize(to: ContainerState(bootstraps: bootstraps))
        reference.container = Unmanaged.passUnretained(self)
    }

    deinit {
        reference.container = nil
        state.pointee.frames.deallocate()
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
        current.register(registration)
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
        try current.tryRegister(registration)
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
    // Inlined where it is written, even into generic code: passing a `Registration` to a generic
    // function would cost the caller a runtime metadata lookup to destroy it.
    @inlinable @inline(__always)
    public func register<Value, Scope>(_ registration: consuming Registration<Value, Scope>) {
        do { try install(consume registration) } catch { Self.fail(error) }
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
        try install(registration)
    }

    /// Installs one registration: the path behind `register(Shared(…))`.
    ///
    /// Inlined into the caller, which may be generic code: there the registration is never
    /// copied or destroyed whole (which costs a runtime metadata lookup in generic code); its
    /// core moves into the root entry, and everything else happens in non-generic code.
    @inlinable @inline(__always)
    func install<Value, Scope>(_ registration: consuming Registration<Value, Scope>) throws(ResolutionError) {
        let aliases = registration.core.aliases
        let isEager = registration.core.isEager
        // The root entry depends on nothing the lock guards, so it is made before taking it;
        // it is made even when the registration turns out invalid (and then dropped).
        // (Free functions, not methods of `Registration`: see `makeRootEntry`.)
        let root = makeRootEntry((consume registration).core, lifetime: Scope.lifetime)
        // An eager registration may need rolling back: it takes the module path.
        if isEager { return try installEager(root, aliases: aliases) }
        // Otherwise nothing can fail after the checks: no module array, no existential box, no
        // generic collection code to instantiate.
        try install(root: root, aliases: aliases)
    }

    /// Installs an eager registration through the module path (kept out of line: the common
    /// path asks the runtime for no conformance of the root entry's type).
    @usableFromInline @inline(never)
    func installEager<Value>(_ root: RootEntry<Value>, aliases: [AliasInstaller]) throws(ResolutionError) {
        let plan = PreparedRegistration(
            root: root, aliases: aliases, problem: registrationProblem(root.key, aliases: aliases))
        try install(Module(plans: [plan]))
    }

    /// The non-generic part of ``install(_:)-(Registration<Value, Scope>)``: checks the
    /// registration (before taking the lock: nothing it reads is guarded), then installs it.
    @usableFromInline
    func install(root: AnyEntry, aliases: [AliasInstaller]) throws(ResolutionError) {
        let problem = registrationProblem(root.key, aliases: aliases)
        let replaced = try queue.sync { () throws(ResolutionError) -> [AnyEntry] in
            try refuseMutationDuringResolution("register")
            bootstrapIfNeeded()
            if let problem { throw problem }
            var replaced: [AnyEntry] = []
            installEntries(
                root: root, aliases: aliases, name: root.key.name, into: &state.pointee.table, replaced: &replaced)
            state.pointee.installedCount += 1
            root.sequence = state.pointee.installedCount
            return replaced
        }
        // Replaced entries (and the instances they kept) are released outside the lock.
        withExtendedLifetime(replaced) {}
    }

    /// Registers a module, throwing a ``ResolutionError`` instead of trapping.
    ///
    /// Every registration is checked before any is installed, and `eager()` registrations are
    /// made once all are installed; if anything fails, the container is left as it was.
    public func tryRegister(_ module: Module) throws {
        try install(module)
    }

    /// The registration path behind every API that takes a module.
    func install(_ module: Module) throws(ResolutionError) {
        let plans = module.plans
        let replaced = try queue.sync { () throws(ResolutionError) -> [AnyEntry] in
            try refuseMutationDuringResolution("register")
            bootstrapIfNeeded()
            for plan in plans {
                if let problem = plan.problem() { throw problem }
            }
            // Only eager registrations can fail after installing; snapshotting the table
            // otherwise would make every later `set` copy the whole table (quadratic).
            let before = plans.contains { $0.isEager } ? state.pointee.table : nil
            var replaced: [AnyEntry] = []
            var eager: [any RootRegistration] = []
            for plan in plans {
                let root = plan.install(into: &state.pointee.table, replaced: &replaced)
                state.pointee.installedCount += 1
                root.sequence = state.pointee.installedCount
                if plan.isEager { eager.append(root) }
            }
            do throws(ResolutionError) {
                for entry in eager { try entry.probe(in: self) }
            } catch {
                if let before { state.pointee.table = before }
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
        let previous = ThreadScope.exchangeRunningContainer(self, key: runningKey)
        defer { ThreadScope.setRunningContainerPointer(previous, key: runningKey) }
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
        // ``current``, spelled out so that no branch retains the container it calls: the running
        // container is kept alive by the resolve that set it, and `shared` lives for the process.
        let shared = Self.shared
        if let running = ThreadScope.runningContainerPointer(key: shared.runningKey) {
            return Unmanaged<DIContainer>.fromOpaque(running)._withUnsafeGuaranteedRef {
                $0.resolve(type, name: name)
            }
        }
        // Until anything binds a container to a task, `current` is `shared`: the flag that says
        // so is read under `shared`'s own lock, the one this resolve takes anyway, which spares
        // the task-local lookup (a third of a cached resolve). Another container is never
        // resolved from while `shared`'s lock is held here, so no lock-order inversion.
        shared.lockQueue()
        if shared.state.pointee.isCurrentByDefault {
            defer { shared.unlockQueue() }
            return shared.resolveHoldingQueue(type, name: name, runningSlotIsEmpty: true)
        }
        shared.unlockQueue()
        if let bound = boundContainer.get() { return bound.resolve(type, name: name) }
        return shared.resolve(type, name: name)
    }

    /// Resolves a `T` made with arguments from ``current``; traps on failure.
    ///
    ///     DIContainer.resolve(ViewModelProtocol.self, arguments: { "id_goes_here" })
    ///     DIContainer.resolve(PresenterProtocol.self) { ("argument 1", 23, "argument 3") }
    @inlinable
    public static func resolve<T, each Argument>(
        _ type: T.Type = T.self, name: String? = nil, arguments: () -> (repeat each Argument)
    ) -> T {
        // ``current`` as in ``resolve(_:name:)``; the arguments are made before any lock is taken.
        let values = arguments()
        let shared = Self.shared
        if let running = ThreadScope.runningContainerPointer(key: shared.runningKey) {
            return Unmanaged<DIContainer>.fromOpaque(running)._withUnsafeGuaranteedRef {
                $0.resolve(type, name: name, arguments: { values })
            }
        }
        shared.lockQueue()
        if shared.state.pointee.isCurrentByDefault {
            let tupleType = ObjectIdentifier((repeat each Argument).self)
            let made: T? = withUnsafePointer(to: values) {
                shared.fastResolveHoldingQueue(
                    name: name, runningSlotIsEmpty: true, arguments: UnsafeRawPointer($0), tupleType: tupleType)
            }
            shared.unlockQueue()
            if let made { return made }
            return shared.resolveOrFail(type, name: name, values: repeat each values)
        }
        shared.unlockQueue()
        return (boundContainer.get() ?? shared).resolve(type, name: name, arguments: { values })
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
        lockQueue()
        defer { unlockQueue() }
        return resolveHoldingQueue(type, name: name)
    }

    /// The body of ``resolve(_:name:)``, called with the queue held. `runningSlotIsEmpty` says
    /// the caller found no container running a factory on this thread (spares reading it again).
    @inlinable
    func resolveHoldingQueue<T>(_ type: T.Type, name: String?, runningSlotIsEmpty: Bool = false) -> T {
        // Fast paths, specialized in the caller's module: an unnamed registration of this
        // container that is a made `Shared` instance, or a `New` whose factory can be called
        // directly. Anything else (names, parents, other lifetimes, errors) takes the one
        // general path, `resolveOrFail`. The entry is used unretained: the table keeps it, and
        // cannot change while this thread holds the queue and resolves.
        if name == nil, !state.pointee.needsBootstrap,
            let entry = state.pointee.table.unretainedEntry(for: ObjectIdentifier(T.self)),
            let value: T = entry._withUnsafeGuaranteedRef({ fastResolve($0, runningSlotIsEmpty: runningSlotIsEmpty) })
        {
            return value
        }
        return resolveOrFail(Key(T.self, name: name))
    }

    /// The fast paths of ``resolveHoldingQueue(_:name:)`` for `entry`, found under `T`;
    /// `nil` sends the resolve down the general path.
    @inlinable @inline(__always)
    func fastResolve<T>(_ entry: AnyEntry, runningSlotIsEmpty: Bool) -> T? {
        // Entries are stored under `Key(Value.self)`, so the entry for `T` is a `Provider<T>`.
        if let value = unsafeDowncast(entry, to: Provider<T>.self).fastValue {
            // Inside a resolution the lookup is also an edge of the dependency graph.
            if state.pointee.depth != 0 { recordDependency(on: entry) }
            return value
        }
        // A `new…` kind says the entry is a `RootEntry<T>` with a factory of that case.
        switch entry.fastFactory {
        case .newSimple:
            guard let frame = enterFactory(of: entry, runningSlotIsEmpty: runningSlotIsEmpty) else { return nil }
            let value = unsafeDowncast(entry, to: RootEntry<T>.self).makeSimple()
            leaveFactory(of: entry, frame)
            return value
        case .newPlain:
            guard let frame = enterFactory(of: entry, runningSlotIsEmpty: runningSlotIsEmpty) else { return nil }
            do {
                let value = try unsafeDowncast(entry, to: RootEntry<T>.self).makePlain(Resolver(self))
                leaveFactory(of: entry, frame)
                return value
            } catch {
                failInFactory(of: entry, frame, error)
            }
        case .none, .newArguments:
            return nil
        }
    }

    /// Resolves a `T` made with arguments; traps on failure.
    @inlinable
    public func resolve<T, each Argument>(
        _ type: T.Type = T.self, name: String? = nil, arguments: () -> (repeat each Argument)
    ) -> T {
        let values = arguments()
        let tupleType = ObjectIdentifier((repeat each Argument).self)
        lockQueue()
        let made: T? = withUnsafePointer(to: values) {
            fastResolveHoldingQueue(
                name: name, runningSlotIsEmpty: false, arguments: UnsafeRawPointer($0), tupleType: tupleType)
        }
        unlockQueue()
        if let made { return made }
        return resolveOrFail(type, name: name, values: repeat each values)
    }

    /// The fast path of ``resolve(_:name:arguments:)``, specialized in the caller's module for
    /// `T` only (the arguments are a pointer to a tuple of the type `tupleType` names): an unnamed
    /// `New` of this container whose factory takes exactly these argument types. `nil` sends the
    /// resolve down the general path. Called with the queue held.
    @inlinable
    func fastResolveHoldingQueue<T>(
        name: String?, runningSlotIsEmpty: Bool, arguments: UnsafeRawPointer, tupleType: ObjectIdentifier
    ) -> T? {
        guard name == nil, !state.pointee.needsBootstrap,
            let entry = state.pointee.table.unretainedEntry(for: ObjectIdentifier(T.self))
        else { return nil }
        return entry._withUnsafeGuaranteedRef { entry in
            guard entry.fastFactory == .newArguments else { return nil }
            let root = unsafeDowncast(entry, to: RootEntry<T>.self)
            guard root.takesArguments(tupleType),
                let frame = enterFactory(of: entry, runningSlotIsEmpty: runningSlotIsEmpty)
            else { return nil }
            do {
                let value = try root.makeWithArguments(Resolver(self), arguments)
                leaveFactory(of: entry, frame)
                return value
            } catch {
                failInFactory(of: entry, frame, error)
            }
        }
    }

    /// The general path of ``resolve(_:name:arguments:)``: resolves or traps.
    @usableFromInline
    func resolveOrFail<T, each Argument>(_ type: T.Type, name: String?, values: repeat each Argument) -> T {
        do {
            return try resolveWithArguments(type, name: name, arguments: { (repeat each values) })
        } catch {
            Self.fail(error)
        }
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
                try resolveLocked(Key(T.self, name: name), arguments: pack)
            }
        }
    }

    @usableFromInline
    func resolveOrFail<T>(_ key: Key) -> T {
        do { return try resolveLocked(key) } catch { Self.fail(error) }
    }

    /// The one resolution path behind every API. Called with the queue held.
    func resolveLocked<T>(_ key: Key, arguments: ArgumentPack? = nil) throws(ResolutionError) -> T {
        bootstrapIfNeeded()
        // Recorded whether or not it resolves, so the dependency graph also shows what is missing.
        recordDependency(on: key)
        if let value: T = try provideRegistered(key, arguments: arguments) { return value }
        if arguments == nil, let optional = T.self as? any OptionalResolvable.Type {
            // `T` is the optional type itself, so the cast back cannot fail.
            if let value = try optional.resolveIfRegistered(in: self, name: key.name) as? T { return value }
        }
        throw missing(key)
    }

    /// Resolves `Wrapped` if this container or an ancestor registers it; `nil` otherwise.
    func resolveIfRegistered<Wrapped>(_ key: Key, as type: Wrapped.Type) throws(ResolutionError) -> Wrapped? {
        try provideRegistered(key, arguments: nil)
    }

    /// Resolves `key` from this container, else from the nearest ancestor that registers it;
    /// `nil` when none does. Called with the queue held.
    ///
    /// Each container looks its entry up and runs it in one critical section of its own lock,
    /// so an ancestor that is reset or re-registered meanwhile never runs a stale entry. Locks
    /// are always taken child first, then parent, so nesting them cannot deadlock.
    func provideRegistered<T>(_ key: Key, arguments: ArgumentPack?) throws(ResolutionError) -> T? {
        if let entry = state.pointee.table.entry(for: key) {
            // Entries are stored under `Key(Value.self)`, so the entry for `T` is a `Provider<T>`.
            let provider = unsafeDowncast(entry, to: Provider<T>.self)
            if arguments == nil, let value = provider.fastValue { return value }
            return try provider.provide(in: self, requested: provider, arguments: arguments)
        }
        guard let parent else { return nil }
        return try parent.inQueue { () throws(ResolutionError) -> T? in
            // An ancestor (`shared`, say) may not have run its registerDependencies() yet.
            parent.bootstrapIfNeeded()
            return try parent.provideRegistered(key, arguments: arguments)
        }
    }

    /// Runs `body` holding this container's queue (an ancestor resolves under its own lock).
    func inQueue<R>(_ body: () throws(ResolutionError) -> R) throws(ResolutionError) -> R {
        try queue.sync(body)
    }

    func recordDependency(on key: Key) {
        guard let frame = state.pointee.frames.last else { return }
        frame.unretainedRoot._withUnsafeGuaranteedRef { $0.recordDependency(on: key) }
    }

    /// Records `entry`'s slot as a dependency of the step in progress (from the fast paths).
    @usableFromInline
    func recordDependency(on entry: AnyEntry) {
        recordDependency(on: entry.key)
    }

    /// Runs one registration's factory as a step of the resolution path.
    ///
    /// The outermost step makes this container the running one on this thread, so wrappers of
    /// what its factories make resolve from it, and ends the top-level resolution afterwards
    /// (running queued `onResolve` actions, then dropping `Graph` instances). Errors a factory
    /// throws that are not already a ``ResolutionError`` are wrapped in one that keeps them and
    /// names the path.
    func withFrame<V>(
        root: AnyEntry, requested: AnyEntry, _ body: (Resolver) throws -> V
    ) throws(ResolutionError) -> V {
        let frame = beginFrame(root: root, requested: requested, runningSlotIsEmpty: false)
        defer { endFrame(frame) }
        let value: V
        do {
            value = try body(Resolver(self))
        } catch let error as ResolutionError {
            throw error
        } catch {
            throw self.error(.factoryFailed, for: requested.key, underlying: error)
        }
        try completeFrame(frame)
        return value
    }

    /// What ``endFrame(_:)`` restores: the bookkeeping of one step of the resolution path.
    @usableFromInline
    struct FactoryFrame {
        /// The running container before this step, when this step had to change it.
        let previousRunningContainer: UnsafeMutableRawPointer?
        let isTopLevel: Bool
        /// Whether the step made this container the running one (and must restore the previous).
        let changedRunningContainer: Bool
    }

    /// Starts a step: pushes its frame and, at top level, makes this the running container.
    /// Called with the queue held; every step starts here, the inlined fast paths' too.
    @inline(__always)
    func beginFrame(root: AnyEntry, requested: AnyEntry, runningSlotIsEmpty: Bool) -> FactoryFrame {
        let isTopLevel = state.pointee.depth == 0
        var previous: UnsafeMutableRawPointer? = nil
        var changed = false
        if isTopLevel {
            // Writing the slot costs a library call; when it already names this container
            // (inside `registerDependencies()`, say), neither the write nor the restore is needed.
            previous = runningSlotIsEmpty ? nil : ThreadScope.runningContainerPointer(key: runningKey)
            let this = Unmanaged.passUnretained(self).toOpaque()
            // An empty slot already means this container when it is `current` by default: then
            // the slot is left alone (two library calls fewer per top-level resolution).
            if previous != this, previous != nil || !state.pointee.isCurrentByDefault {
                ThreadScope.setRunningContainerPointer(this, key: runningKey)
                changed = true
                // Another container mid-resolution on this thread (a child that reached this
                // parent): this resolution is part of that one, and shares its `Graph` instances.
                if let previous {
                    let outer = Unmanaged<DIContainer>.fromOpaque(previous).takeUnretainedValue()
                    if outer.state.pointee.depth > 0 { state.pointee.outer = outer }
                }
            }
        }
        state.pointee.depth += 1
        state.pointee.frames.push(ContainerState.Frame(root: root, requested: requested))
        return FactoryFrame(
            previousRunningContainer: previous, isTopLevel: isTopLevel, changedRunningContainer: changed)
    }

    /// Completes a step whose factory returned: at top level, runs the queued `onResolve` actions
    /// while the step's frame is still current.
    @inline(__always)
    func completeFrame(_ frame: FactoryFrame) throws(ResolutionError) {
        if frame.isTopLevel, !state.pointee.pendingActions.isEmpty { try runPendingActions() }
    }

    /// Ends a step, returned or failed: pops its frame and, at top level, ends the resolution.
    @inline(__always)
    func endFrame(_ frame: FactoryFrame) {
        state.pointee.frames.pop()
        state.pointee.depth -= 1
        guard frame.isTopLevel else { return }
        if !state.pointee.pendingActions.isEmpty { state.pointee.pendingActions.removeAll() }
        state.pointee.outer = nil
        if !state.pointee.graphValues.isEmpty { state.pointee.graphValues.removeAll() }
        if frame.changedRunningContainer {
            ThreadScope.setRunningContainerPointer(frame.previousRunningContainer, key: runningKey)
        }
    }

    /// The container that keeps the `Graph` instances of the resolution in progress on this
    /// thread: the outermost one. Its queue is held by this thread for the whole resolution,
    /// which is what makes reading and writing its state from here safe. Queue held.
    var graphOwner: DIContainer {
        if let outer = state.pointee.outer { return outer.graphOwner }
        // Not yet in a step of its own (looking for a kept instance first): the resolution in
        // progress on this thread, if any, is another container's.
        if state.pointee.depth == 0, let running = ThreadScope.runningContainer, running !== self,
            running.state.pointee.depth > 0
        {
            return running.graphOwner
        }
        return self
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

    /// Starts running `root`'s factory from the inlined fast path: the bookkeeping of
    /// `RootEntry.obtain` around ``beginFrame(root:requested:)``, without generic code. `root` is
    /// a `RootEntry` (the fast path checked its class), so it is its own root and the slot asked
    /// for. Returns `nil` when the entry is already being made (a cycle), which the general path
    /// reports. Called with the queue held.
    @usableFromInline
    func enterFactory(of root: AnyEntry, runningSlotIsEmpty: Bool) -> FactoryFrame? {
        if root.isConstructing { return nil }
        if state.pointee.depth != 0 { recordDependency(on: root) }
        root.isConstructing = true
        return beginFrame(root: root, requested: root, runningSlotIsEmpty: runningSlotIsEmpty)
    }

    /// Ends what ``enterFactory(of:)`` started once the factory returned, completing the step
    /// (a failing `onResolve` action it runs traps, as the general path's `resolve` does).
    @usableFromInline
    func leaveFactory(of root: AnyEntry, _ frame: FactoryFrame) {
        do {
            try completeFrame(frame)
        } catch {
            failInFactory(of: root, frame, error)
        }
        root.isConstructing = false
        endFrame(frame)
    }

    /// Traps for a factory called from the inlined fast path that threw, with the message the
    /// general path gives: the error describes the path while the factory's frame is current;
    /// the frame is ended and the queue released before trapping, as when the error unwinds.
    @usableFromInline
    func failInFactory(of root: AnyEntry, _ frame: FactoryFrame, _ error: any Error) -> Never {
        let failure = (error as? ResolutionError) ?? self.error(.factoryFailed, for: root.key, underlying: error)
        root.isConstructing = false
        endFrame(frame)
        unlockQueue()
        Self.fail(failure)
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
        Self.shared.noteTaskBinding()
        let previous = ThreadScope.exchangeRunningContainer(nil, key: runningKey)
        defer { ThreadScope.setRunningContainerPointer(previous, key: runningKey) }
        return try Self.boundContainer.withValue(self, operation: operation)
    }

    /// Binds this container as ``current`` while `operation` runs (async).
    public func activate<R>(
        isolation: isolated (any Actor)? = #isolation, _ operation: () async throws -> R
    ) async rethrows -> R {
        Self.shared.noteTaskBinding()
        return try await Self.boundContainer.withValue(self, operation: operation)
    }

    /// Records on `shared` that a task may have a bound container from now on; set before the
    /// first binding and never cleared (a task that inherited a binding can outlive its scope).
    func noteTaskBinding() {
        queue.sync { state.pointee.isCurrentByDefault = false }
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
