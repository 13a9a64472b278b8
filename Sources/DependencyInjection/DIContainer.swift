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
/// (``activate(_:)-swift.method``, ``withOverrides(_:isolation:operation:)-8hb9p``, the
/// `DependencyInjectionTesting` traits), else ``shared``. Each has an instance twin for
/// containers of your own.
///
/// Registration and resolution are serialized by one reentrant lock for all containers: any
/// number of threads may register and resolve at once, a `Shared` instance is made exactly
/// once, and a factory may resolve further dependencies (from this container, a parent, a child
/// or another container) on its own thread without deadlock.
public final class DIContainer: @unchecked Sendable {
    // Unchecked: the mutable state is `registry`, guarded by `Resolution.lock`.

    /// The container this one falls back to for what it lacks.
    public let parent: DIContainer?
    /// This container, its parent, the parent's parent, and so on.
    var lineage: UnfoldFirstSequence<DIContainer> { sequence(first: self) { $0.parent } }
    let registry: LockedRegistry
    /// How resolvers reach this container without keeping it alive.
    @usableFromInline let reference = ContainerReference()
    /// What a container holds; read and written only with `Resolution.lock` held (see ``Locked``).
    struct Registry {
        /// What each `(type, name)` resolves to.
        var slots = SlotTable()
        /// `registerDependencies()` has yet to run for this container.
        var needsBootstrap: Bool
        /// Whether `reset()` arms `registerDependencies()` again (`shared`, and copies made from it).
        var bootstrapsAfterReset: Bool
        /// How many registrations were installed, for ordering listings.
        var installedCount = 0
        /// In a copy (`withOverrides`, the test traits): the last registration copied from its source.
        var copiedCount = 0
        /// The place in listings (`resolveAll`) of a slot whose copied registration an override
        /// replaced: the original's, so swapping one stage keeps a pipeline's order.
        var places: [Key: Int] = [:]
        /// Its ``Decorate`` registrations, in registration order.
        var decorators: [Decorator] = []
        /// Strict tests: resolves of registrations up to `baseline` (production) are reported (see
        /// `reportResolvesOfCurrentRegistrations`).
        var strict: (baseline: Int, report: @Sendable (StrictResolve) -> Void)?
        /// The same type and name registered twice in one `register` call or `Module`, for `validate()`.
        var duplicates: [ResolutionError] = []
        /// A throwaway copy that `validate()` resolves in.
        var isValidationCopy = false
        /// In a `withOverrides` copy (the test traits' too): the last registration copied from the
        /// container first overridden. What is registered after it overrides, for the copies of its
        /// ancestors too (see `lookup`).
        var overridesAfter: Int?
        /// In a copy of an ancestor of such copies: those copies, nearest first, whose overrides win here.
        var overriddenBy: [ContainerReference]?
    }

    var slots: SlotTable {
        _read { yield registry.value.slots }
        _modify { yield &registry.value.slots }
    }

    /// The process-wide container. It runs `registerDependencies()` once before its first
    /// registration or resolution when `DIContainer` conforms to ``DependencyRegistering``.
    public static let shared = DIContainer(parent: nil, bootstraps: true)

    static let boundContainer = TaskLocal<DIContainer?>(wrappedValue: nil)

    /// The container the static API and the property wrappers use right now.
    ///
    /// While a container runs a factory on this thread, that container (so what it makes
    /// resolves its own property wrappers from it); otherwise the container bound to this task
    /// by ``activate(_:)-swift.method`` or ``withOverrides(_:isolation:operation:)-8hb9p``;
    /// otherwise ``shared``.
    public static var current: DIContainer { Resolution.lock.withLock { currentLocked } }

    /// ``current``, with the lock held (so the resolution in progress, if any, is this thread's).
    @inline(__always)
    static var currentLocked: DIContainer {
        if let top = Resolution.state.frames.indices.last { return Resolution.state.frames[top].container.with { $0 } }
        if Resolution.state.anyTaskBinding, let bound = boundContainer.get() { return bound }
        return shared
    }

    /// An empty, independent container. It never runs `registerDependencies()`.
    public convenience init() { self.init(parent: nil, bootstraps: false) }

    /// An empty container that falls back to `parent` for what it lacks.
    ///
    /// The parent never sees the child's registrations, and a service registered in the
    /// parent is made by the parent, with the parent's instances and dependencies.
    public convenience init(parent: DIContainer) { self.init(parent: parent, bootstraps: false) }

    init(parent: DIContainer?, bootstraps: Bool) {
        self.parent = parent
        registry = LockedRegistry(Registry(needsBootstrap: bootstraps, bootstrapsAfterReset: bootstraps))
        reference.weakContainer = self
    }

    /// Runs `registerDependencies()` if it is due, with this container current. Lock held.
    @inline(__always) func bootstrapIfNeeded() { if registry.value.needsBootstrap { bootstrap() } }

    /// ``bootstrapIfNeeded()`` here and in each ancestor. Lock held.
    func bootstrapLineage() {
        bootstrapIfNeeded()
        parent?.bootstrapLineage()
    }

    private func bootstrap() {
        registry.value.needsBootstrap = false
        guard let registering = DIContainer.self as? any DependencyRegistering.Type else { return }
        do throws(ResolutionError) {
            try Self.withResolutionSetAside { () throws(ResolutionError) in
                try asOneResolution { registering.registerDependencies() }
            }
        } catch {
            Self.fail(error)
        }
        // A strict test's container that the test reset: what `registerDependencies()` registered
        // again is production too.
        if let strict = registry.value.strict, strict.baseline < registry.value.installedCount {
            registry.value.strict = (registry.value.installedCount, strict.report)
        }
    }

    /// Traps with the error's message; on a `validate()` probe's thread (or task), reports it and
    /// parks the thread instead (a non-throwing factory cannot be unwound). `file` and `line` are the caller's.
    @usableFromInline
    static func fail(_ error: ResolutionError, file: StaticString = #fileID, line: UInt = #line) -> Never {
        if let probe = Resolution.lock.withLock({ Resolution.state.probe }) { probe.parkAfterFailure(error) }
        ValidationProbe.parkInTask(error)
        fatalError(error.description, file: file, line: line)
    }

    /// A property wrapper's value of `T`; a failure traps naming its declaration (`file`, `line`).
    /// While `validate()` makes the wrapper's owner, the failure is recorded instead (see
    /// ``deferToValidation(_:file:line:)``) and the wrapper is left empty.
    @inlinable
    static func injected<T>(_ type: T.Type, name: String?, file: StaticString, line: UInt) -> T? {
        do { return try resolved(type, name: name, .none, file: file, line: line) } catch {
            deferToValidation(error, file: file, line: line)
            return nil
        }
    }

    /// In a factory of a `validate()` copy, records a property wrapper's failure: the factory fails
    /// with it once it returns (see `call` and `runAsyncFactory`), so its owner is dropped and the
    /// report names the declaration. The same where the resolve is to be made again on the main
    /// actor (`asksForMainActor`: the hop gets the failure). Anywhere else, traps with the error's message.
    @usableFromInline
    static func deferToValidation(_ error: ResolutionError, file: StaticString, line: UInt) {
        let deferred = Resolution.lock.withLock { () -> Bool in
            let failure = asWrappers(error).with { $0.declaration = "\(file):\(line)" }
            if let top = Resolution.state.frames.last, top.step != nil {
                // Also where the resolve will be made again on the main actor (`asksForMainActor`): the
                // owner is dropped, and the failure passed up to the hop.
                guard error.details.asksForMainActor || top.container.with({ $0.registry.value.isValidationCopy })
                else { return false }
                let depth = Resolution.state.frames.count
                if Resolution.state.failedInjection?.depth != depth {
                    Resolution.state.failedInjection = (depth, failure)
                }
                return true
            }
            // In an async factory (a global actor's closure is one), outside the lock.
            guard let making = AsyncMaking.running, making.isValidating else { return false }
            if making.failedInjection == nil { making.failedInjection = failure }
            return true
        }
        if !deferred { failInWrapper(error, file: file, line: line) }
    }

    /// Traps with a property wrapper's failure, as ``asWrappers(_:)`` says it.
    static func failInWrapper(_ error: ResolutionError, file: StaticString, line: UInt) -> Never {
        fail(Resolution.lock.withLock { asWrappers(error) }, file: file, line: line)
    }

    /// `error`, a property wrapper's: if the wrapper asked for what is missing itself (not a factory
    /// behind it), the fix of a name goes in the wrapper; a cycle its owner is on is broken by making
    /// a wrapper lazy. Both the trap and `validate()` say so. Lock held.
    private static func asWrappers(_ error: ResolutionError) -> ResolutionError {
        error.with {
            $0.isWrapperRequest = $0.path.count <= Resolution.state.path.count + 1
            // The owner being made is on the cycle (it closed at this resolve, or beyond it), or a
            // wrapper's owner below is (`isWrapperCycle` set there already).
            if case .dependencyCycle(let cycle) = $0.reason, let owner = Resolution.state.path.last {
                $0.isWrapperCycle = $0.isWrapperCycle || cycle.contains(owner)
            }
        }
    }

    /// ``current``, for a `@LazyInject` made now. While `validate()` makes the wrapper's owner (in a
    /// factory of its copy, synchronous or async), a dependency registered nowhere, which would trap
    /// on first read, is recorded as an `@Inject`'s failure is (``deferToValidation(_:file:line:)``);
    /// nothing is resolved.
    static func currentForLazy<T>(_: T.Type, name: String?, file: StaticString, line: UInt) -> DIContainer {
        let key = Key(T.self, name: name)
        let (container, missing) = Resolution.lock.withLock { () -> (DIContainer, ResolutionError?) in
            let container = currentLocked
            // In a factory (synchronous, or an async run's) of a validation copy: the wrapper resolves
            // from `container`, so that is where its dependency must be.
            guard Resolution.state.frames.last?.step != nil || AsyncMaking.running != nil,
                container.registry.value.isValidationCopy, !(T.self is any OptionalResolvable.Type)
            else { return (container, nil) }
            guard let entry = container.lookup(key)?.1.entry else { return (container, container.missing(key)) }
            // A `New` or `Graph` that takes arguments is never made without them (a kept instance may be handed out).
            guard entry.state.madeWithArguments != nil else { return (container, nil) }
            return (container, container.argumentMismatch(entry, given: Void.self, requested: key))
        }
        if let missing { deferToValidation(missing, file: file, line: line) }
        return container
    }

    /// A property wrapper left empty by ``deferToValidation(_:file:line:)``, read before its owner
    /// was dropped (in the owner's `init`): nothing can be returned, so this traps (or parks a
    /// `validate()` probe thread) with the wrapper's failure.
    @usableFromInline
    static func failedInjection<T>() -> T {
        let failure = Resolution.lock.withLock {
            Resolution.state.failedInjection?.error ?? AsyncMaking.running?.failedInjection
        }
        guard let failure else {
            fatalError(
                "DependencyInjection: a property wrapper of type '\(TypeName.of(T.self))' was read in an object "
                    + "that validate() made and dropped, its dependency missing (see the report's problems). "
                    + "To fix, keep nothing a factory makes while validate() runs (the report is what it returns).")
        }
        fail(failure, file: #fileID, line: #line)
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
    ///
    /// In an `actor` method, a registration in the block whose value is not `Sendable` and whose
    /// closure Swift does not isolate to the actor (it does not use `self`) is made on the actor
    /// and stays there, as if its closure were isolated to it.
    public static func register(
        @RegistrationBuilder _ registrations: () -> Module, isolation: isolated (any Actor)? = #isolation,
        file: StaticString = #fileID, line: UInt = #line
    ) { current.register(registrations().bound(to: isolation), file: file, line: line) }

    /// Registers one registration on ``current``; traps on a registration error.
    @inlinable
    public static func register<Value, Scope>(
        _ registration: Registration<Value, Scope>, file: StaticString = #fileID, line: UInt = #line
    ) { current.register(Module(registration), file: file, line: line) }

    /// Registers one registration of a `Sendable` value on ``current``; traps on a registration error.
    @inlinable
    public static func register<Value: Sendable, Scope>(
        _ registration: consuming Registration<Value, Scope>, file: StaticString = #fileID, line: UInt = #line
    ) { current.register(Module(registration), file: file, line: line) }

    /// Registers a module on ``current``; traps on a registration error.
    public static func register(_ module: Module, file: StaticString = #fileID, line: UInt = #line) {
        current.register(module, file: file, line: line)
    }

    /// Registers on ``current``, throwing instead of trapping; on error nothing changes.
    ///
    ///     try DIContainer.tryRegister(Shared(Engine(), as: Router.self)) // Engine is no Router: throws
    public static func tryRegister(
        @RegistrationBuilder _ registrations: () -> Module, isolation: isolated (any Actor)? = #isolation
    ) throws {
        try current.tryRegister(registrations().bound(to: isolation))
    }

    /// Registers one registration on ``current``, throwing instead of trapping.
    @inlinable
    public static func tryRegister<Value, Scope>(_ registration: Registration<Value, Scope>) throws {
        try current.tryRegister(Module(registration))
    }

    /// Registers one registration of a `Sendable` value on ``current``, throwing instead of trapping.
    @inlinable
    public static func tryRegister<Value: Sendable, Scope>(_ registration: consuming Registration<Value, Scope>) throws
    {
        try current.tryRegister(Module(registration))
    }

    /// Registers a module on ``current``, throwing instead of trapping.
    public static func tryRegister(_ module: Module) throws { try current.tryRegister(module) }

    /// Registers everything the builder lists; traps on a registration error.
    public func register(
        @RegistrationBuilder _ registrations: () -> Module, isolation: isolated (any Actor)? = #isolation,
        file: StaticString = #fileID, line: UInt = #line
    ) { register(registrations().bound(to: isolation), file: file, line: line) }

    /// Registers one registration; traps on a registration error.
    @inlinable
    public func register<Value, Scope>(
        _ registration: Registration<Value, Scope>, file: StaticString = #fileID, line: UInt = #line
    ) { register(Module(registration), file: file, line: line) }

    /// Registers one registration of a `Sendable` value; traps on a registration error.
    @inlinable
    public func register<Value: Sendable, Scope>(
        _ registration: consuming Registration<Value, Scope>, file: StaticString = #fileID, line: UInt = #line
    ) { register(Module(registration), file: file, line: line) }

    /// Registers a module; traps on a registration error.
    public func register(_ module: consuming Module, file: StaticString = #fileID, line: UInt = #line) {
        do { try install(module) } catch { Self.fail(error, file: file, line: line) }
    }

    /// Registers everything the builder lists, throwing instead of trapping.
    public func tryRegister(
        @RegistrationBuilder _ registrations: () -> Module, isolation: isolated (any Actor)? = #isolation
    ) throws {
        try tryRegister(registrations().bound(to: isolation))
    }

    /// Registers one registration, throwing instead of trapping.
    @inlinable
    public func tryRegister<Value, Scope>(_ registration: Registration<Value, Scope>) throws {
        try tryRegister(Module(registration))
    }

    /// Registers one registration of a `Sendable` value, throwing instead of trapping.
    @inlinable
    public func tryRegister<Value: Sendable, Scope>(_ registration: consuming Registration<Value, Scope>) throws {
        try tryRegister(Module(registration))
    }

    /// Registers a module, throwing a ``ResolutionError`` instead of trapping.
    ///
    /// Every registration is checked before any is installed, and `eager()` registrations are
    /// made once all are installed; if anything fails, the container is left as it was.
    public func tryRegister(_ module: consuming Module) throws { try install(module) }

    /// The registration path behind every API that takes registrations.
    private func install(_ module: consuming Module) throws(ResolutionError) {
        var module = module
        try Resolution.lock.withLock { () throws(ResolutionError) in
            for container in instanceOwners { try container.refuseMutationDuringResolution("register") }
            bootstrapIfNeeded()
            // The list of the last install's entries, emptied, if no other install holds it now: one
            // registration at a time (a generic helper's, say) then allocates no list of its own.
            var entries: [Entry] = []
            swap(&entries, &Resolution.state.spareEntries)
            let decorators = module.takeEntries(into: &entries, numberedFrom: registry.value.installedCount + 1)
            // Emptied under the lock: every entry in it is in the table now, or in `replaced`.
            func recycle() {
                entries.removeAll(keepingCapacity: true)
                swap(&entries, &Resolution.state.spareEntries)
            }
            for entry in entries {
                // Where it was written: a module's line, not the register call's, which the trap names.
                guard let problem = RegistrationSpec.problem(of: entry)?.with({ $0.registeredAt = entry.spec.place })
                else { continue }
                // Released once the lock is let go: their closures may hold the last reference to
                // something of the user's (as may the entries a registration replaces, below).
                Resolution.lock.releaseAfterUnlock(entries)
                throw problem
            }
            // Only eager registrations can fail once installed; snapshotting otherwise would make
            // every later write copy the whole table.
            let before = entries.contains { $0.spec.isEager } ? registry.value : nil
            let firstNew = registry.value.installedCount + 1
            registry.value.installedCount += entries.count
            if entries.count > 1 {
                slots.reserveCapacity(slots.count + entries.reduce(0) { $0 + 1 + $1.spec.aliases.count })
            }
            var replaced: [Slot] = []
            func put(_ slot: Slot, at key: Key) {
                guard let old = slots.updateValue(slot, forKey: key) else { return }
                replaced.append(old)
                if old.entry.sequence <= registry.value.copiedCount, registry.value.places[key] == nil {
                    registry.value.places[key] = old.entry.sequence
                }
                // The same type and name twice in this call, for `validate()` (one module included twice
                // registers the same lines again: no duplicate).
                let (first, spec) = (old.entry.spec, slot.entry.spec)
                guard old.entry.sequence >= firstNew, (first.fileID, first.line) != (spec.fileID, spec.line) else {
                    return
                }
                let reason = ResolutionError.Reason.duplicateRegistration(first: first.summary, second: spec.summary)
                registry.value.duplicates.append(ResolutionError(reason: reason, key: key))
            }
            for entry in entries {
                put(Slot(entry: entry, alias: nil), at: entry.key)
                // Registering a type as itself adds nothing: its own slot already serves it.
                for alias in entry.spec.aliases where alias.type != entry.spec.type {
                    put(Slot(entry: entry, alias: alias), at: Key(alias.type, name: entry.spec.name))
                }
            }
            // Each only if there is something: appending nothing still reallocates an empty array.
            // A `Decorate` written where one the container has came from (its module registered again,
            // or as an override of itself) applies once; several from one place in this call (a loop) all do.
            if !decorators.isEmpty {
                let known = registry.value.decorators
                registry.value.decorators += decorators.filter { new in
                    !known.contains { $0.type == new.type && $0.site == new.site }
                }
            }
            if !replaced.isEmpty { Resolution.lock.releaseAfterUnlock(replaced) }
            guard var before else { return recycle() }
            do throws(ResolutionError) {
                try Self.withResolutionSetAside { () throws(ResolutionError) in
                    // Known to the state too: a parked `validate()` probe never returns here, and puts it back.
                    Resolution.state.installing.append((self, before))
                    defer { _ = Resolution.state.installing.removeLast() }
                    try asOneResolution { () throws(ResolutionError) in
                        // Async and actor-isolated ones are made by `prepare()`.
                        // Through a slot it serves: a later line of this call may have taken its own type's
                        // (then another registration, perhaps with arguments, would be made instead).
                        for entry in entries where entry.spec.isEager && !entry.spec.needsAwaiting {
                            guard let key = servedKeys(of: entry).first else { continue }
                            _ = try resolveStep(key, .none)
                        }
                    }
                }
            } catch {
                // The container as it was; what the failed attempt installed is released after the write.
                swap(&registry.value, &before)
                Resolution.lock.releaseAfterUnlock(before)
                throw error
            }
            recycle()
        }
    }

    /// Throws when a factory or action of this container is running on this thread, or an async
    /// factory of it in this task. Lock held.
    func refuseMutationDuringResolution(_ operation: String) throws(ResolutionError) {
        let running =
            Resolution.state.allFrames.last { $0.reference == ObjectIdentifier(reference) && $0.step != nil }?.requested
            ?? AsyncMaking.running?.chain.first { $0.owner === reference }?.requested
        if let running { throw error(.mutationDuringResolution(operation: operation), for: running) }
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
    public static func resolve<T>(
        _ type: T.Type = T.self, name: String? = nil, file: StaticString = #fileID, line: UInt = #line
    ) -> T { resolvedOrFail(type, name: name, .none, file: file, line: line) }

    /// Resolves a `T` made with arguments from ``current``; traps on failure.
    ///
    ///     DIContainer.resolve(ViewModelProtocol.self, arguments: { "id_goes_here" })
    ///     DIContainer.resolve(PresenterProtocol.self) { ("argument 1", 23, "argument 3") }
    @inlinable
    public static func resolve<T, each Argument>(
        _ type: T.Type = T.self, name: String? = nil, arguments: () -> (repeat each Argument),
        file: StaticString = #fileID, line: UInt = #line
    ) -> T {
        resolvedOrFail(type, name: name, Arguments(arguments), file: file, line: line)
    }

    /// Resolves a `T` from ``current``, throwing a ``ResolutionError`` instead of trapping.
    @inlinable
    public static func tryResolve<T>(
        _ type: T.Type = T.self, name: String? = nil, file: StaticString = #fileID, line: UInt = #line
    ) throws -> T {
        try resolved(type, name: name, .none, file: file, line: line)
    }

    /// Resolves a `T` made with arguments from ``current``, throwing instead of trapping.
    @inlinable
    public static func tryResolve<T, each Argument>(
        _ type: T.Type = T.self, name: String? = nil, arguments: () -> (repeat each Argument),
        file: StaticString = #fileID, line: UInt = #line
    ) throws -> T {
        try resolved(type, name: name, Arguments(arguments), file: file, line: line)
    }

    /// Resolves a `T`; traps with the ``ResolutionError`` message on failure.
    @inlinable
    public func resolve<T>(
        _ type: T.Type = T.self, name: String? = nil, file: StaticString = #fileID, line: UInt = #line
    ) -> T { Self.resolvedOrFail(type, name: name, .none, in: self, file: file, line: line) }

    /// Resolves a `T` made with arguments; traps on failure.
    @inlinable
    public func resolve<T, each Argument>(
        _ type: T.Type = T.self, name: String? = nil, arguments: () -> (repeat each Argument),
        file: StaticString = #fileID, line: UInt = #line
    ) -> T {
        Self.resolvedOrFail(type, name: name, Arguments(arguments), in: self, file: file, line: line)
    }

    /// Resolves a `T`, throwing a ``ResolutionError`` instead of trapping.
    ///
    ///     do {
    ///         let router = try box.tryResolve(Router.self)
    ///     } catch {
    ///         print(error)   // the type, the name, the resolution path and a hint
    ///     }
    @inlinable
    public func tryResolve<T>(
        _ type: T.Type = T.self, name: String? = nil, file: StaticString = #fileID, line: UInt = #line
    ) throws -> T {
        try Self.resolved(type, name: name, .none, in: self, file: file, line: line)
    }

    /// Resolves a `T` made with arguments, throwing instead of trapping.
    @inlinable
    public func tryResolve<T, each Argument>(
        _ type: T.Type = T.self, name: String? = nil, arguments: () -> (repeat each Argument),
        file: StaticString = #fileID, line: UInt = #line
    ) throws -> T {
        try Self.resolved(type, name: name, Arguments(arguments), in: self, file: file, line: line)
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
        let isResolving = Resolution.lock.withLock {
            Resolution.state.anyTaskBinding = true
            return Resolution.state.isResolving
        }
        guard isResolving else { return try Self.boundContainer.withValue(self, operation: operation) }
        // Inside a factory the running container takes precedence over the task's binding: make
        // this one the running container for the operation (this thread holds the lock anyway).
        return try Resolution.lock.withLock {
            Resolution.state.frames.append(
                .init(self, entry: nil, requested: Key(DIContainer.self, name: nil)))
            defer { _ = Resolution.state.frames.removeLast() }
            return try Self.boundContainer.withValue(self, operation: operation)
        }
    }

    /// Binds this container as ``current`` while `operation` runs (async).
    public func activate<R>(
        isolation: isolated (any Actor)? = #isolation, _ operation: () async throws -> R
    ) async rethrows -> R {
        Resolution.lock.withLock { Resolution.state.anyTaskBinding = true }
        return try await Self.boundContainer.withValue(self, operation: operation)
    }
}

// MARK: - Housekeeping

extension DIContainer {
    /// Forgets every registration and instance of ``current``.
    ///
    /// For ``shared`` (and copies of it), `registerDependencies()` runs again before the next
    /// registration or resolution. What ``prepare()-swift.type.method`` made goes too: call it again.
    public static func reset() { current.reset() }

    /// Drops the cached `Shared`, `Weak` and `Scoped` instances of ``current``; keeps the registrations.
    ///
    /// What ``prepare()-swift.type.method`` made (async and actor-isolated `Shared` services) goes
    /// too: a synchronous resolve of it is ``ResolutionError/Reason/notYetMade(actor:)`` until
    /// `try await DIContainer.prepare()` runs again.
    public static func releaseInstances() { current.releaseInstances() }

    /// Removes the registration of `type` (with `name`) from ``current``; `true` when there was one.
    ///
    ///     DIContainer.unregister(Router.self)
    ///     DIContainer.unregister(Store.self, name: "cache")
    @discardableResult
    public static func unregister<T>(_ type: T.Type, name: String? = nil) -> Bool {
        current.unregister(type, name: name)
    }

    /// Drops the instances ``current`` keeps for `scope`; keeps the registrations.
    ///
    ///     DIContainer.releaseInstances(in: .session)   // sign-out
    public static func releaseInstances(in scope: DIScope) { current.releaseInstances(in: scope) }

    /// Drops the instances this container keeps for `scope` (not those of a
    /// ``withScope(_:_:)-swift.method`` run, which it releases itself); keeps the registrations.
    /// In a `withOverrides` copy of a child container, also those of its parents' copies.
    public func releaseInstances(in scope: DIScope) {
        mutate("releaseInstances") { instanceOwners.flatMap { $0.releasedInstances(in: scope) } }
    }

    /// Forgets every registration (decorators too) and instance (in a `withOverrides` copy of a child
    /// container, its parents' copies' instances too).
    public func reset() {
        mutate("reset") { () -> (SlotTable, [Decorator], [Any]) in
            defer { (slots, registry.value.decorators, registry.value.duplicates) = (SlotTable(), [], []) }
            defer { registry.value.places = [:] }
            defer { registry.value.needsBootstrap = registry.value.bootstrapsAfterReset }
            return (slots, registry.value.decorators, instanceOwners.dropFirst().flatMap { $0.releasedInstances() })
        }
    }

    /// Drops cached `Shared`, `Weak` and `Scoped` instances; keeps the registrations. In a
    /// `withOverrides` copy of a child container, also those of its parents' copies. What
    /// ``prepare()-swift.method`` made goes too: call it again before a synchronous resolve of it.
    public func releaseInstances() { mutate("releaseInstances") { instanceOwners.flatMap { $0.releasedInstances() } } }

    /// Its instances (only those of `scope`, if one is given), dropped (to be released once the lock
    /// is let go). Lock held.
    private func releasedInstances(in scope: DIScope? = nil) -> [Any] {
        slots.values.compactMap { scope == nil || $0.entry.spec.scope == scope ? $0.entry.releaseInstances() : nil }
    }

    /// This container, and in a `withOverrides` copy the copies of its ancestors too: made for it
    /// alone, they may keep what they made with its overrides (see `lookup`), so its `reset()` and
    /// `releaseInstances()` drop their instances as well, and it changes nothing while one of their
    /// factories runs. Lock held.
    private var instanceOwners: [DIContainer] { registry.value.overridesAfter == nil ? [self] : Array(lineage) }

    /// Removes the slot of `type` (with `name`); `true` when there was one.
    ///
    /// Removing an alias slot removes only that alias; removing a registration's own type
    /// leaves its aliases served. Refused (a trap) while a factory of this container runs. The
    /// instances that only the removed slot kept are released after the lock is.
    @discardableResult
    public func unregister<T>(_ type: T.Type, name: String? = nil) -> Bool {
        mutate("unregister") { () -> Slot? in
            // What `registerDependencies()` registers is there to unregister, and does not come back later.
            bootstrapIfNeeded()
            registry.value.places[Key(T.self, name: name)] = nil
            return slots.removeValue(forKey: Key(T.self, name: name))
        } != nil
    }

    /// Runs `change` with the lock held, unless a factory of this container is running (a trap).
    /// What `change` took out is released once the lock is let go (a `deinit` may resolve).
    @discardableResult
    private func mutate<R>(_ operation: String, _ change: () -> R) -> R {
        Resolution.lock.withLock {
            do throws(ResolutionError) {
                for container in instanceOwners { try container.refuseMutationDuringResolution(operation) }
            } catch {
                Self.fail(error)
            }
            let taken = change()
            Resolution.lock.releaseAfterUnlock(taken)
            return taken
        }
    }

    /// Makes this copy's overrides (see ``Registry/overridesAfter``) win in its ancestors' copies,
    /// for what those serve. Lock held.
    func letAncestorsUseOverrides() {
        registry.value.overridesAfter = registry.value.overridesAfter ?? registry.value.installedCount
        // Each ancestor's copy gets every copy below it that overrides (a copy made of a child of a
        // copy has two), nearest first.
        var overriders: [ContainerReference] = []
        for container in lineage {
            if !overriders.isEmpty { container.registry.value.overriddenBy = overriders }
            if container.registry.value.overridesAfter != nil { overriders.append(container.reference) }
        }
    }

    /// A copy with the same registrations (after `registerDependencies()` has run) and no
    /// instances; its ancestors are copied too, so nothing it makes reaches the source.
    /// `copies` maps each source entry to its copy.
    func isolatedCopy(copies: inout [ObjectIdentifier: Entry], forValidation: Bool = false) -> DIContainer {
        Resolution.lock.withLock {
            bootstrapIfNeeded()
            let parent = parent?.isolatedCopy(copies: &copies, forValidation: forValidation)
            // The registry as it is (bootstrapped), each slot then pointing at a copy of its entry.
            var copied = registry.value
            copied.copiedCount = copied.installedCount
            // A `validate()` copy's probes are not the test's resolves: strict mode does not see them.
            copied.isValidationCopy = forValidation
            if forValidation { copied.strict = nil }
            copied.overriddenBy = nil
            for (key, slot) in slots {
                let id = ObjectIdentifier(slot.entry)
                let entry = copies[id] ?? slot.entry.freshCopy(forValidation: forValidation)
                copies[id] = entry
                copied.slots.updateValue(Slot(entry: entry, alias: slot.alias), forKey: key)
            }
            let copy = DIContainer(parent: parent, bootstraps: false)
            copy.registry.value = copied
            if copied.overridesAfter != nil { copy.letAncestorsUseOverrides() }
            return copy
        }
    }
}
