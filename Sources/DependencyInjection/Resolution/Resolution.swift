import Dispatch

/// The process-wide lock and the state of the resolution in progress.
///
/// One lock serves every container. A factory may resolve from its container, a parent, a
/// child or an unrelated container, in any order, on any thread: with a single lock there is no
/// lock order to invert, so containers cannot deadlock each other, and a registration's closure
/// (installed in several containers by `withOverrides` copies or a shared `Module`) never runs
/// concurrently with itself. Resolving takes nanoseconds; a factory that does real work holds
/// every resolve in the process waiting, which is why factories should only assemble objects.
///
/// A synchronous resolution holds the lock from its first step to its last, so the state of the
/// resolution in progress belongs to whichever thread holds the lock: it lives here, not in
/// thread-local storage.
enum Resolution {
    static let lock = ReentrantLock()
    /// The resolution in progress; only the thread holding ``lock`` touches it (see ``Locked``).
    static var state: ResolutionState {
        _read { yield lock.value }
        _modify { yield &lock.value }
    }
    /// How many steps one resolution may take: far more than any real graph (a longer path is
    /// a cycle through many registrations).
    static let maximumDepth = 1000
    /// Stack a step leaves for what it calls (factories, reporting an error), or half of a
    /// smaller thread's stack: a resolution that would go deeper is a ``ResolutionError`` instead
    /// of a stack overflow.
    static let stackReserve = 128 * 1024
}

/// Guarded by ``Resolution/lock``: read and written only by the thread that holds it.
struct ResolutionState {
    /// One step of the resolution in progress: a factory or `onResolve` action running for
    /// `entry` in `container`; `entry` is `nil` for a container made current mid-resolution
    /// (`activate`, `registerDependencies()`, a batch of `eager()` registrations). The container is
    /// reached through its reference: the caller that runs the step holds it, and retaining a
    /// container (which has a side table, for its weak references) takes the runtime's slow path.
    struct Frame {
        /// Its container's `ContainerReference` (what a resolver holds), as an identity.
        let reference: ObjectIdentifier
        /// The container and the entry, not retained: a frame is pushed by a method of its container
        /// (`run`, whose caller holds the entry) and popped before that method returns (see `Unretained`).
        let container: Unretained<DIContainer>
        let step: Unretained<Entry>?
        let requested: Key

        init(_ container: DIContainer, entry: Entry?, requested: Key) {
            (reference, self.container) = (ObjectIdentifier(container.reference), Unretained(container))
            (step, self.requested) = (entry.map(Unretained.init), requested)
        }

        /// The entry whose factory (or `onResolve` action) this step runs, retained.
        var entry: Entry? { step?.with { $0 } }
    }

    var frames: [Frame] = []
    /// `onResolve` actions waiting for the top-level resolution to have made everything.
    var pendingActions: [() -> Result<Void, ResolutionError>] = []
    /// `Graph` instances of the resolution in progress; the entry is kept with its value so its
    /// identity cannot be reused by another entry while the value is here. `order` is how many
    /// there were before it: a rollback drops those at or past its savepoint's count.
    var graphValues: GraphValues = [:]
    typealias GraphValues = [ObjectIdentifier: (entry: Entry, value: AnyBox, order: Int)]
    /// Entries whose `Shared` or `Weak` instance this resolution stored: if it fails, they
    /// are taken back, so nothing half-made (its `onResolve` not run) is ever kept.
    var made: [Entry] = []
    /// The `New` and `Weak` values (a kept `Weak` too) handed to a factory or an `onResolve` action: a
    /// factory's are let go once what it made is kept (`keepMade`), an action's when the top-level
    /// resolution ends, both under the lock; on failure, after the lock with the rest (it may have
    /// dropped them, and a `deinit` may resolve). See docs/Design.md, "The state of a resolution".
    var handedOut: [AnyBox] = []
    /// The storage of the last install's list of entries, empty (see `DIContainer.install`).
    var spareEntries: [Entry] = []
    /// What else to take back if the resolution fails (a lazy wrapper read during it, a scope
    /// run's instance); each returns what it took, to be released after the lock.
    var undo: [() -> Any?] = []
    /// The container the outermost call asked (held by that call), for messages.
    var origin: ContainerReference?
    /// Whether any container was ever bound to a task: until then ``DIContainer/current`` is
    /// `shared` wherever no factory runs, and reading the task-local can be skipped.
    var anyTaskBinding = false
    /// The actor an async resolve made this thread run a factory on (see `resolveAsync`).
    var runningActor: (any Actor)?
    /// The `validate()` probe resolving now, if any (it holds the lock while it does).
    var probe: ValidationProbe?
    /// A property wrapper's failure in the factory running now in a `validate()` copy: the factory
    /// fails with it once it returns (see `DIContainer.deferToValidation`).
    var failedInjection: (depth: Int, error: ResolutionError)?
    /// Containers whose `eager()` registrations are being made, with their registries as they
    /// were before: what a failure puts back.
    var installing: [(container: DIContainer, registry: DIContainer.Registry)] = []
    /// The resolutions set aside on this thread (`withResolutionSetAside`), outermost first.
    var setAside: [ResolutionState] = []
    /// Async factory runs waiting for another task's run of one that keeps its value (`Shared`, `Weak`,
    /// `Scoped`), to find cycles across tasks.
    var asyncWaits: [(waiter: AsyncMaking, target: AsyncMaking)] = []
    /// How many async factory runs are in progress: until one is, a top-level resolution need not
    /// look for the run it is part of (see `AsyncMaking.running`).
    var asyncRuns = 0

    /// A top-level resolution is open on this thread: from its start until what it made is kept
    /// (its actions run) or dropped. A resolve meanwhile (a factory's, or a `deinit`'s) is part of it.
    var isResolving = false
    /// The top-level resolution runs its queued `onResolve` actions now: the first frame is an action's.
    var isRunningActions = false
    /// How long the factories nested in the one running now took (debug builds: see `SlowFactory`).
    var nestedFactoryTime: UInt64 = 0

    /// Where the top-level resolve in progress was written, once a strict test exists (see `Resolution.noteCallSite`).
    var callSite: (file: StaticString, line: UInt)?

    /// This resolution and those set aside on this thread, outermost first: what asks what the thread
    /// is in the middle of reads them all.
    var stack: [ResolutionState] { setAside + [self] }
    /// The steps of all of them (`stack`), outermost first.
    var allFrames: [Frame] { setAside.flatMap(\.frames) + frames }

    /// The resolution path so far, as the user asked for each step.
    var path: [String] { allFrames.compactMap { $0.step == nil ? nil : $0.requested.displayName } }

    /// Nothing to finish: no instance kept, no `Graph` instance, no `onResolve` action queued, no `undo`.
    var madeNothing: Bool { made.isEmpty && graphValues.isEmpty && pendingActions.isEmpty && undo.isEmpty }

    /// What a nested resolve or scope finds when it begins (how many of each there are); if it fails, what
    /// came after is dropped.
    typealias Savepoint = (made: Int, actions: Int, undo: Int, graph: Int, handedOut: Int)

    var savepoint: Savepoint { (made.count, pendingActions.count, undo.count, graphValues.count, handedOut.count) }

    /// The state of the resolution in progress on this thread, replaced by that of none: what is not
    /// the resolution's own (whether a task was ever bound, the async runs and their waits, the time of
    /// nested factories) stays. Lock held.
    static func takeResolution() -> ResolutionState {
        var taken = ResolutionState()
        swap(&taken, &Resolution.state)
        (Resolution.state.anyTaskBinding, Resolution.state.asyncWaits, Resolution.state.asyncRuns) = (
            taken.anyTaskBinding, taken.asyncWaits, taken.asyncRuns
        )
        // A resolution set aside in a factory: its factories' time is nested in that one's.
        Resolution.state.nestedFactoryTime = taken.nestedFactoryTime
        return taken
    }
}

extension DIContainer {
    /// Resolves a `T` from the container `source` reaches (``current`` when `nil`): what every typed
    /// API calls. Inlinable, so that reading the `T` out of its box is specialized in the caller's module.
    @inlinable
    static func resolved<T>(
        _ type: T.Type, name: String?, _ arguments: Arguments, from source: ContainerReference? = nil,
        in container: DIContainer? = nil, file: StaticString? = nil, line: UInt = 0, trapsOnFailure: Bool = false
    ) throws(ResolutionError) -> T {
        let value = try resolveBox(
            T.self, name: name, arguments, from: source, in: container, file: file, line: line,
            trapsOnFailure: trapsOnFailure)
        return unbox(value)
    }

    /// The value (an `AnyBox`) of `type` from `container`, else the one `source` reaches (``current``
    /// when `nil`), with the container read and the resolution made under one hold of the lock.
    @usableFromInline
    static func resolveBox(
        _ type: any Any.Type, name: String?, _ arguments: Arguments, from source: ContainerReference?,
        in container: DIContainer? = nil, file: StaticString? = nil, line: UInt = 0, trapsOnFailure: Bool = false
    ) throws(ResolutionError) -> AnyBox {
        // Each container is reached without retaining it where that is sound (see `Unretained`).
        // `container` is the caller's, alive until this returns.
        let given = container.map(Unretained.init)
        return try MainActorHop.resolving(trapsOnFailure: trapsOnFailure) { () throws(ResolutionError) in
            try Resolution.lock.withLock { () throws(ResolutionError) in
                Resolution.noteCallSite(file, line)
                let key = Key(type, name: name)
                func resolve(in container: Unretained<DIContainer>) throws(ResolutionError) -> AnyBox {
                    try container.with { container in
                        Result { () throws(ResolutionError) in
                            try container.resolveLocked(key, arguments)
                        }
                    }.get()
                }
                if let given { return try resolve(in: given) }
                // Inside a step, the static API's container (``current``) and a factory's own resolver
                // reach the container of the step running now (its frame read in place: a copy would
                // retain each of its fields).
                if let top = Resolution.state.frames.indices.last,
                    source == nil || Resolution.state.frames[top].reference == source.map(ObjectIdentifier.init)
                {
                    return try resolve(in: Resolution.state.frames[top].container)
                }
                // `shared`, where it is current (it is never deallocated).
                if source == nil, !Resolution.state.anyTaskBinding { return try resolve(in: Unretained(shared)) }
                guard let source else { return try currentLocked.resolveLocked(key, arguments) }
                // A resolver's container is reached through a weak reference: this strong one may become
                // the last (its owner let go meanwhile, on another thread); released after the lock.
                let container = source.container
                defer { Resolution.lock.releaseAfterUnlock(container) }
                return try container.resolveLocked(key, arguments)
            }
        }
    }

    /// The value of a box of a slot of `T`, which always holds a `T` (see `Factory` and `AliasSpec`).
    @inlinable
    static func unbox<T>(_ value: AnyBox) -> T { value.value(as: T.self) }

    /// ``resolved(_:name:_:from:)``, trapping with the error's message on failure.
    @inlinable
    static func resolvedOrFail<T>(
        _ type: T.Type, name: String?, _ arguments: Arguments, from source: ContainerReference? = nil,
        in container: DIContainer? = nil, file: StaticString, line: UInt
    ) -> T {
        do {
            return try resolved(
                type, name: name, arguments, from: source, in: container, file: file, line: line, trapsOnFailure: true)
        } catch {
            fail(error, file: file, line: line)
        }
    }

    /// Step 3 of the one resolution path (docs/Design.md, "The resolution path"): what `resolveBox`
    /// and a lazy wrapper's first read call; `resolveAll`, `eager()`, `validate()` and the async API
    /// call ``resolveStep(_:_:)`` inside `asOneResolution`. Returns an `AnyBox` of the requested type;
    /// called with ``Resolution/lock`` held.
    ///
    /// At top level (no step in progress on this thread) the resolution is one transaction: once
    /// the value is made, queued `onResolve` actions run; if anything fails, every instance made
    /// on the way is dropped, and the container is as it was.
    func resolveLocked(_ key: Key, _ arguments: Arguments) throws(ResolutionError) -> AnyBox {
        guard Resolution.state.isResolving else {
            return try asOneResolution(isFrame: false) { () throws(ResolutionError) in try resolveStep(key, arguments) }
        }
        // Nested (a factory's resolve): a failure drops what this resolve made, so a factory that
        // catches it goes on without it. Not through `asOneResolution`, and with the state read in
        // helpers: each step's stack stays as small (debug builds give every access a frame).
        // `registerDependencies()` first: what it registers eagerly is not this resolve's to drop.
        bootstrapLineage()
        let savepoint = Self.savepoint()
        do {
            return try resolveStep(key, arguments)
        } catch {
            dropMade(since: savepoint)
            throw error
        }
    }

    @inline(never)
    private static func savepoint() -> ResolutionState.Savepoint { Resolution.state.savepoint }

    /// Lets go of the values handed out past the first `count`, each taken out on its own (so that the
    /// array keeps its storage) and released outside the access to the state: its `deinit` may resolve.
    private static func letGoOfHandedOut(downTo count: Int) {
        while Resolution.state.handedOut.count > count, let value = Resolution.state.handedOut.popLast() { _ = value }
    }

    /// Rolls back to `savepoint` (everything when `nil`); what that drops goes after the lock.
    @inline(never)
    private func dropMade(since savepoint: ResolutionState.Savepoint?) {
        Resolution.lock.releaseAfterUnlock(rollBack(to: savepoint))
    }

    /// Runs `body` as part of one resolution made current in this container (`isFrame`: a
    /// batch of eager registrations, `registerDependencies()`, `activate` inside a factory): at
    /// top level it is a transaction like ``resolveLocked(_:_:)``; nested, a failure drops what
    /// `body` made. Lock held.
    @inline(__always)
    func asOneResolution<R>(
        isFrame: Bool = true, _ body: () throws(ResolutionError) -> R
    ) throws(ResolutionError) -> R {
        let isTopLevel = !Resolution.state.isResolving
        // `registerDependencies()` registers before the resolution begins, in a transaction of its
        // own: what it made (an `eager()` instance) stays if the resolution fails.
        if isTopLevel { bootstrapLineage() }
        let savepoint = isTopLevel ? nil : Resolution.state.savepoint
        Resolution.state.isResolving = true
        // A top-level resolve sets it once a factory runs (see `instance(of:)`): a kept instance needs none.
        if isTopLevel, isFrame { Resolution.state.origin = reference }
        // The resolves of one async factory run share its `Graph` instances, as one resolve does.
        if isTopLevel, let run = AsyncMaking.running { Resolution.state.graphValues = run.graph }
        if isFrame {
            Resolution.state.frames.append(
                .init(self, entry: nil, requested: Key(DIContainer.self, name: nil)))
        }
        // What the resolution made or dropped is released once the lock is let go (a `deinit` may
        // resolve); a resolution that made nothing (a kept instance, a `New`) has nothing to hand over.
        // What `onResolve` actions were given (`handedOut`) is let go here, under the lock.
        defer {
            if isTopLevel {
                (Resolution.state.isResolving, Resolution.state.origin) = (false, nil)
                Self.letGoOfHandedOut(downTo: 0)  // what `onResolve` actions were given
                if Resolution.keepsCallSites { Resolution.state.callSite = nil }
            }
        }
        let result: R
        do {
            defer { if isFrame { _ = Resolution.state.frames.removeLast() } }
            result = try body()
        } catch {
            dropMade(since: savepoint)
            throw error
        }
        guard isTopLevel, !Resolution.state.madeNothing else { return result }
        do {
            try finishResolution()
        } catch {
            // If an action fails, the value goes away with the rest, once the resolution is closed.
            Resolution.lock.releaseAfterUnlock((result, rollBack(to: nil)))
            throw error
        }
        return result
    }

    /// Runs `body` with the resolution in progress on this thread (`registerDependencies()`) set
    /// aside and the lock released, so that other threads may resolve (`validate()`'s probes); then
    /// takes both back. Traps inside a factory, whose half-made state others must not see.
    static func settingAsideResolution<R>(_ body: () -> R) -> R {
        Resolution.lock.lock()
        guard Resolution.state.isResolving else {
            Resolution.lock.unlock()
            return body()
        }
        if !Resolution.state.path.isEmpty {  // a step set aside too (registerDependencies() reached in a factory)
            fatalError(
                "DependencyInjection: validate() was called inside a factory; call it before or after resolving.")
        }
        defer { Resolution.lock.unlock() }
        return withResolutionSetAside {
            // Other threads resolve meanwhile (the checks): nothing of this thread's is theirs.
            (Resolution.state.setAside, Resolution.state.probe, Resolution.state.runningActor) = ([], nil, nil)
            let holds = Resolution.lock.unlockCompletely()
            defer { Resolution.lock.relock(holds) }
            return body()
        }
    }

    /// Runs `body` as if no resolution were in progress on this thread; then puts the one in
    /// progress back. What is not the resolution's own (task bindings seen, async runs and waits)
    /// stays with the lock. So `registerDependencies()`, or a `register` with `eager()` registrations,
    /// in the middle of a resolution is a transaction of its own: what it made stays if that one
    /// fails, in `validate()` too, where a failure that parks abandons both (see `ValidationProbe`).
    /// Lock held.
    static func withResolutionSetAside<R, Failure: Error>(_ body: () throws(Failure) -> R) throws(Failure) -> R {
        var aside = ResolutionState.takeResolution()
        // Still this thread's probe, actor and call site; a park abandons the resolutions set aside too.
        (Resolution.state.probe, Resolution.state.runningActor, Resolution.state.callSite) = (
            aside.probe, aside.runningActor, aside.callSite
        )
        Resolution.state.setAside = aside.setAside + [aside]
        defer {
            (aside.anyTaskBinding, aside.asyncWaits, aside.asyncRuns, aside.nestedFactoryTime) = (
                Resolution.state.anyTaskBinding, Resolution.state.asyncWaits, Resolution.state.asyncRuns,
                Resolution.state.nestedFactoryTime
            )
            swap(&aside, &Resolution.state)
        }
        return try body()
    }

    /// One step: looks `key` up here and in the ancestors, and provides its value (an `AnyBox`). Also
    /// what `eager()`, `validate()` and the async API resolve with, inside a resolution scope.
    func resolveStep(_ key: Key, _ arguments: Arguments) throws(ResolutionError) -> AnyBox {
        // The edge points at what serves the step: `key`, or for an optional `T?` the `T`. This
        // container's own slot first, without retaining it (`lookup` would, see `resolveBox`).
        bootstrapIfNeeded()
        if registry.value.overriddenBy == nil, let slot = slots[key] {
            recordDependency(on: key)
            return try provide(slot, requested: key, arguments, origin: self)
        }
        if let (owner, slot) = lookup(key) {
            recordDependency(on: key)
            return try owner.provide(slot, requested: key, arguments, origin: self)
        }
        // `T?` is the `T` that is registered, else `nil`.
        guard let optional = key.type as? any OptionalResolvable.Type else {
            recordDependency(on: key)
            throw missing(key)
        }
        let wrapped = Key(optional.wrappedType, name: key.name)
        recordDependency(on: wrapped)
        guard let (owner, slot) = lookup(wrapped) else { return optional.box(nil) }
        return optional.box(try owner.provide(slot, requested: wrapped, arguments, origin: self))
    }

    /// The slot for `key` in this container or the nearest ancestor that has one; in a copy of an
    /// ancestor of a `withOverrides` copy, the override of that key, if there is one.
    @inline(__always)
    func lookup(_ key: Key) -> (DIContainer, Slot)? {
        bootstrapIfNeeded()
        if let slot = slots[key] { return override(of: key) ?? (self, slot) }
        return parent?.lookup(key)
    }

    /// The override of `key` in the `withOverrides` copies this copy of an ancestor serves, if any:
    /// the nearest copy's first (a child made inside an operation and overridden again: the inner
    /// copy's overrides win, the outer one's still count).
    private func override(of key: Key) -> (DIContainer, Slot)? {
        guard let overriders = registry.value.overriddenBy else { return nil }
        for reference in overriders {
            guard let copy = reference.weakContainer else { continue }
            // Reached through a weak reference: this strong one may become the last; released after the lock.
            Resolution.lock.releaseAfterUnlock(copy)
            if let slot = copy.slots[key], slot.entry.sequence > copy.registry.value.overridesAfter ?? .max {
                return (copy, slot)
            }
        }
        return nil
    }

    /// Records `key` as a dependency of the step in progress (an edge of the dependency graph).
    private func recordDependency(on key: Key) {
        guard let top = Resolution.state.frames.indices.last else { return }
        Resolution.state.frames[top].step?.with { $0.recordDependency(on: key) }
    }

    /// In a strict test, reports a resolve of `slot` if it is a production registration here. Lock held.
    func reportIfStrict(_ slot: Slot, requested: Key) {
        guard let strict = registry.value.strict, slot.entry.sequence <= strict.baseline else { return }
        // Reported once the lock is let go, on this thread: the testing product records an issue
        // there, which may wait for locks of its own (a test framework's) that must never be taken
        // under the library's.
        // In an async factory's code, the path begins with the async runs that asked.
        let runs = AsyncMaking.running?.chain.reversed().map(\.requested.displayName) ?? []
        let resolve = StrictResolve(requested, of: slot.entry, path: runs + pathReaching(requested))
        Resolution.lock.releaseAfterUnlock(AfterUnlock { strict.report(resolve) })
    }

    /// A value of `slot`'s type (an `AnyBox`), kept or made by this container, which owns the slot.
    private func provide(
        _ slot: Slot, requested: Key, _ arguments: Arguments, origin: DIContainer
    ) throws(ResolutionError) -> AnyBox {
        reportIfStrict(slot, requested: requested)
        // One instance serves every type of its registration: it cannot be decorated for an alias alone.
        if let alias = slot.alias,
            registry.value.decorators.contains(where: { $0.type == ObjectIdentifier(alias.type) })
        {
            throw error(.decoratedAlias(implementation: TypeName.of(slot.entry.spec.type)), for: requested).with {
                let isolation = slot.entry.spec.factory.isolation
                $0.factoryActor = isolation.actor.flatMap {
                    type(of: $0) is any GlobalActor.Type ? isolation.actorName : nil
                }
            }
        }
        return try instance(of: slot.entry, as: slot.alias, requested: requested, arguments, origin: origin)
    }

    /// `value`, made by `entry`, as the `alias` type if there is one.
    @inline(__always)
    func converted(
        _ value: AnyBox, to alias: AliasSpec?, of entry: Entry, requested: Key
    ) throws(ResolutionError) -> AnyBox {
        guard let alias else { return value }
        // Registration checked that the value's type conforms; where it could not tell from the
        // types alone, a value that does not is an error here, not a crash.
        guard let converted = alias.convert(value) else {
            Resolution.lock.releaseAfterUnlock(value)
            throw error(.aliasNotConforming(implementation: TypeName.of(entry.spec.type)), for: requested)
        }
        return converted
    }

    /// The instance of `entry` for this step: the one kept (once its isolation allows handing it out
    /// here), else one its factory makes now.
    private func instance(
        of entry: Entry, as alias: AliasSpec?, requested: Key, _ arguments: Arguments, origin: DIContainer
    ) throws(ResolutionError) -> AnyBox {
        if let reason = entry.runRequired { throw error(reason, for: requested) }
        // Read in place: a copy of the whole `Factory` would retain each of its references.
        let kept = entry.kept
        // An async factory of main-actor code not made yet needs awaiting, wherever (below).
        // (Its values are Sendable, so once made they are handed out anywhere.)
        let awaitsMainActor = entry.spec.factory.isAsync && entry.spec.factory.isolation.isMainActor
        try checkRunsOn(awaitsMainActor ? .none : isolation(of: entry), entry, requested: requested, kept: kept)
        // A kept instance made with arguments may be asked for again without them.
        // (Not a `validate()` copy's `New`, which keeps one only so that its factory runs once; nor its
        // `Graph`, outside the resolution that made it.)
        if arguments.type != entry.spec.factory.argumentType,
            !(arguments.isEmpty && kept != nil
                && (entry.state.madeWithArguments == nil
                    || (entry.state.madeWithArguments == .inItsResolution
                        && Resolution.state.made.contains { $0 === entry })))
        {
            // An argument inferred as a metatype is the real mistake: say that.
            throw argumentMismatch(entry, given: arguments.type, requested: requested)
        }
        if let kept {
            // A kept `Weak` is handed out as a made one is: its other holders may let go while the factory runs.
            if entry.lifetime == .weak, !Resolution.state.frames.isEmpty { Resolution.state.handedOut.append(kept) }
            return try converted(kept, to: alias, of: entry, requested: requested)
        }
        // Validation: a registration whose check failed fails at once, for the same reason (each
        // factory runs once per validate()); an async one too, which is not "not made yet" then.
        if let failure = entry.state.validationFailure {
            throw failure.reachedAgain(as: requested, of: entry).reached(through: Resolution.state.path)
        }
        guard case .sync(let make) = entry.spec.factory.make else {
            // Asked for by what its own async run (or one that asked for it) is making: a cycle, not
            // something to await. It goes through every run from that one on (outermost first).
            let runs = Array(AsyncMaking.running?.chain.reversed() ?? [])
            if let start = runs.firstIndex(where: { $0.entry === entry }) {
                let steps = runs[start...].map(\.requested.displayName) + Resolution.state.path
                let cycle = steps + [requested.displayName]
                throw error(.dependencyCycle(cycle: cycle), for: requested).with { $0.isAsyncCycle = true }
            }
            let actor = awaitsMainActor ? nil : entry.spec.factory.isolation.actorName
            throw error(.notYetMade(actor: actor), for: requested, underlying: entry.state.preparationError).with {
                $0.isMadeByPrepare = entry.needsPreparing
            }
        }
        if entry.state.isMaking { throw cycleError(reaching: entry, requested: requested) }
        // The container the outermost call asked, for messages, once the first factory runs.
        if Resolution.state.frames.isEmpty { Resolution.state.origin = origin.reference }
        return try run(entry, requested: requested) { resolver throws(ResolutionError) in
            #if DEBUG
                let timing = SlowFactory.start()
                defer { SlowFactory.end(timing, of: entry) }
            #endif
            let given = Resolution.state.handedOut.count
            let made = try Self.call(make, resolver, arguments.values, key: requested, in: self)
            #if DEBUG
                // Keeping it (its decorators, what it lets go of) is neither its own time nor its caller's:
                // nested time, which nothing reports (see `SlowFactory`).
                let (keeping, nested) = (DispatchTime.now().uptimeNanoseconds, Resolution.state.nestedFactoryTime)
                defer { Resolution.state.nestedFactoryTime = nested + DispatchTime.now().uptimeNanoseconds - keeping }
            #endif
            return try keepMade(made, of: entry, as: alias, requested: requested, given: given)
        }
    }

    /// The actor a value of `entry` here belongs to: its factory's, else that of a decorator or an
    /// `onResolve` action written on an actor (it runs there, with the value). Checked wherever a
    /// value is made or handed out, so a kept one never leaves that actor unless it is `Sendable`.
    func isolation(of entry: Entry) -> Factory.Isolation {
        guard case .none = entry.spec.factory.isolation else { return entry.spec.factory.isolation }
        let type = ObjectIdentifier(entry.spec.type)
        let decorator = registry.value.decorators.first { $0.type == type && !$0.isolation.isNone }
        return decorator?.isolation ?? entry.spec.onResolve.first { !$0.isolation.isNone }?.isolation ?? .none
    }

    /// Throws unless code of `isolation` (a factory's, a decorator's or an action's) may make a value of
    /// `entry` here, or unless its `kept` one may be handed out here: made on its actor only; once made,
    /// a Sendable instance is shared like any other, and a non-Sendable one stays on that actor.
    private func checkRunsOn(
        _ isolation: Factory.Isolation, _ entry: Entry, requested: Key, kept: AnyBox? = nil
    ) throws(ResolutionError) {
        switch isolation {
        case .none: return
        case .mainActor:
            guard kept == nil || !entry.isSendable(as: requested), !MainActorCheck.isOnMainActor else { return }
            // Made there for the caller only if its factory is main-actor code (not only a decorator's or action's).
            throw mainActorRequired(
                entry, requested: requested, canHop: kept == nil && entry.spec.factory.isolation.isMainActor)
        case .globalActor(let reference):
            let actor = reference.actor
            guard actor == nil || Resolution.state.runningActor !== actor,
                kept == nil || !entry.isSendable(as: requested)
            else { return }
            let name = TypeName.of(reference.type)
            let reason: ResolutionError.Reason =
                actor == nil
                ? .actorReleased(actor: name) : kept == nil ? .notYetMade(actor: name) : .notSendable(actor: name)
            throw error(reason, for: requested, underlying: kept == nil ? entry.state.preparationError : nil).with {
                if case .notSendable = reason {
                    $0.servedThrough = entry.servedThrough(as: requested)
                    $0.servedLifetime = entry.spec.writtenLifetime
                }
                $0.isMadeByPrepare = entry.needsPreparing
                $0.isSendable = entry.isSendable(as: requested)
            }
        }
    }

    /// A main-actor service asked for off the main actor. A Sendable one asked for at top level (no
    /// step in progress on this thread), or in a resolve an async factory's code made that kept
    /// nothing yet, is made on the main actor for the caller, with that whole resolve (see `MainActorHop`).
    func mainActorRequired(_ entry: Entry, requested: Key, canHop: Bool) -> ResolutionError {
        error(.mainActorRequired, for: requested).with { details in
            details.isSendable = entry.isSendable(as: requested)
            details.isMadeByPrepare = entry.needsPreparing
            details.servedThrough = entry.servedThrough(as: requested)
            details.servedLifetime = entry.spec.writtenLifetime
            if !entry.spec.factory.isolation.isMainActor { details.mainActorCode = "its Decorate or onResolve action" }
            // At top level, or in a resolve an async factory's code made that has kept nothing yet (no
            // instance, action or undo; no `Graph` value but the run's own, from its earlier resolves,
            // see `asOneResolution`), so that no `Shared` is made twice: that whole resolve is made
            // again on the main actor (`prepare()` makes async factories before main-actor ones).
            // The resolutions a `register` set aside included: the hop makes theirs again too.
            let isWhole = Resolution.state.stack.allSatisfy { state in
                state.frames.isEmpty
                    || AsyncMaking.running.map { run in
                        state.made.isEmpty && state.pendingActions.isEmpty && state.undo.isEmpty
                            && state.graphValues.count == run.graph.count
                    } ?? false
            }
            details.asksForMainActor = canHop && details.isSendable && isWhole && Resolution.state.probe == nil
        }
    }

    /// Keeps a value `entry`'s factory made, decorated by this container's decorators of its type,
    /// as its lifetime says (unless `keeping` is false: an async run that `releaseInstances()`
    /// overtook), and queues its `onResolve` actions (which get the value undecorated) for the end
    /// of the resolution; returns the decorated value, as `alias` if there is one. What its factory and
    /// decorators were given since `given` (a count of `handedOut`) goes once that value is kept and converted.
    func keepMade(
        _ value: AnyBox, of entry: Entry, as alias: AliasSpec?, requested: Key, keeping: Bool = true, given: Int = .max
    ) throws(ResolutionError) -> AnyBox {
        var decorated = value
        let handed: AnyBox  // as the `alias` type, if there is one
        do throws(ResolutionError) {
            for decorator in registry.value.decorators where decorator.type == ObjectIdentifier(entry.spec.type) {
                try checkRunsOn(decorator.isolation, entry, requested: requested)
                let next = try Self.call(
                    decorator.decorate, Resolver(self), decorated, key: requested, in: self, thrower: .decorator)
                // The value it replaced may go now: after the lock, as its `deinit` may resolve.
                Resolution.lock.releaseAfterUnlock(decorated)
                decorated = next
            }
            if keeping, let problem = entry.keep(decorated) { throw error(problem, for: requested) }
            handed = try converted(decorated, to: alias, of: entry, requested: requested)
        } catch {
            // What was made is dropped: released after the lock, as its `deinit` may resolve.
            Resolution.lock.releaseAfterUnlock((value, decorated))
            throw error
        }
        for action in entry.spec.onResolve {
            // While it runs, the registration counts as being made again, so an action that needs
            // a new instance of its own registration is a cycle.
            Resolution.state.pendingActions.append {
                Result { () throws(ResolutionError) in
                    try self.checkRunsOn(action.isolation, entry, requested: requested)
                    try self.run(entry, requested: requested) { resolver throws(ResolutionError) in
                        try Self.call(
                            { try action.run($1, $0) }, resolver, value, key: requested, in: self, thrower: .action)
                    }
                }
            }
        }
        // What its factory and decorators were given and did not keep goes once they returned (a `Weak` then is
        // made again); had one failed, the rollback would release it after the lock.
        Self.letGoOfHandedOut(downTo: given)
        if Resolution.state.frames.count > 1, entry.lifetime == .new || entry.lifetime == .weak {
            Resolution.state.handedOut.append(decorated)
        }
        return handed
    }

    /// Runs one step for `entry` (its factory, or an `onResolve` action) in a frame of its own.
    private func run<R>(
        _ entry: Entry, requested: Key, _ body: (Resolver) throws(ResolutionError) -> R
    ) throws(ResolutionError) -> R {
        let depth = Resolution.state.frames.count
        // The first steps are not checked: finding the stack takes Linux's main thread 80 µs (it reads
        // /proc/self/maps), more than a launch's resolves. Four leave a 128 KiB stack room for the
        // check in debug builds too, where a step's frames take about 14 KiB.
        guard depth < Resolution.maximumDepth, depth < 4 || ThreadStack.hasRoom(reserving: Resolution.stackReserve)
        else {
            throw error(.tooDeep(depth: depth), for: requested)
        }
        Resolution.state.frames.append(.init(self, entry: entry, requested: requested))
        entry.state.isMaking = true
        defer {
            entry.state.isMaking = false
            _ = Resolution.state.frames.removeLast()
        }
        return try body(Resolver(self))
    }

    /// Calls a user's closure (`thrower`: what it is, for the message); an error it throws that is
    /// not already a ``ResolutionError`` is wrapped in one that keeps it and names the path.
    static func call<Argument, R>(
        _ closure: (Resolver, Argument) throws -> R, _ resolver: Resolver, _ argument: Argument, key: Key,
        in container: DIContainer, thrower: ResolutionError.Thrower = .factory
    ) throws(ResolutionError) -> R {
        let made: R
        do {
            made = try closure(resolver, argument)
        } catch {
            _ = takeFailedInjection()
            throw error as? ResolutionError
                ?? container.error(.factoryFailed, for: key, underlying: error).with { $0.thrower = thrower }
        }
        // A property wrapper of what it made failed in a `validate()` copy: what it made is dropped.
        if let failure = takeFailedInjection() {
            Resolution.lock.releaseAfterUnlock(made)
            throw failure
        }
        return made
    }

    /// The property wrapper failure recorded for the factory running now, taken; a nested factory's
    /// is not (it runs in a frame of its own). Not inlined: a step's stack stays as small. Lock held.
    @inline(never)
    private static func takeFailedInjection() -> ResolutionError? {
        guard let failure = Resolution.state.failedInjection, failure.depth == Resolution.state.frames.count
        else { return nil }
        Resolution.state.failedInjection = nil
        return failure.error
    }

    /// Ends a top-level resolution that made its value: runs the queued `onResolve` actions (and
    /// those that running them queues); what the resolution holds is released once it is closed.
    private func finishResolution() throws(ResolutionError) {
        // Run in place and kept until the resolution is closed (or dropped with it if one fails):
        // an action may hold the last reference to an instance.
        var next = 0
        Resolution.state.isRunningActions = true
        defer { Resolution.state.isRunningActions = false }
        while next < Resolution.state.pendingActions.count {
            // A copy, so that no access to the state is open while the action runs.
            let action = Resolution.state.pendingActions[next]
            next += 1
            try action().get()
        }
        // The run's set as it was goes after the lock: a value this resolution replaced in it may be its last holder.
        if let run = AsyncMaking.running {
            Resolution.lock.releaseAfterUnlock(exchange(&run.graph, with: Resolution.state.graphValues))
        }
        // The kept entries, taken out one by one (so that `made` keeps its storage): one that this
        // container or an ancestor still serves is released here (its table keeps it, and outlives
        // this call); any other (dropped by a reset meanwhile) goes after the lock.
        while let entry = Resolution.state.made.popLast() {
            if !serves(entry) { Resolution.lock.releaseAfterUnlock(entry) }
        }
        // The other parts handed over whole, and only if they hold anything (a copy of the whole
        // state retains each of its parts; an empty one replaced still costs a release).
        if !Resolution.state.graphValues.isEmpty || !Resolution.state.pendingActions.isEmpty {
            Resolution.lock.releaseAfterUnlock((Resolution.state.graphValues, Resolution.state.pendingActions))
            (Resolution.state.graphValues, Resolution.state.pendingActions) = ([:], [])
        }
        if !Resolution.state.undo.isEmpty {
            Resolution.lock.releaseAfterUnlock(Resolution.state.undo)
            Resolution.state.undo = []
        }
    }

    /// Whether this container or an ancestor serves `entry` (read along `parent`: `lineage` would
    /// retain each container, which a container does on the slow path).
    private func serves(_ entry: Entry) -> Bool { slots[entry.key]?.entry === entry || parent?.serves(entry) == true }

    /// Drops what the resolution made since `savepoint` (all of it when `nil`): the instances it
    /// kept or handed out, its `Graph` instances and its queued actions; returns them, to be released later.
    func rollBack(to savepoint: ResolutionState.Savepoint?) -> Any {
        let state = Resolution.state
        let made = state.made.dropFirst(savepoint?.made ?? 0)
        let actions = state.pendingActions.dropFirst(savepoint?.actions ?? 0)
        let graph = state.graphValues.filter { $0.value.order >= savepoint?.graph ?? 0 }
        let undo = state.undo.dropFirst(savepoint?.undo ?? 0)
        let handedOut = state.handedOut.dropFirst(savepoint?.handedOut ?? 0)
        Resolution.state.handedOut.removeLast(handedOut.count)
        Resolution.state.made.removeLast(made.count)
        Resolution.state.pendingActions.removeLast(actions.count)
        Resolution.state.undo.removeLast(undo.count)
        for key in graph.keys { Resolution.state.graphValues[key] = nil }
        return (made.compactMap { $0.releaseInstances() }, undo.map { $0() }, state, made, actions, graph, handedOut)
    }
}

/// Lets resolution treat `Optional<T>` as "a `T` if one is registered, else `nil`".
protocol OptionalResolvable {
    static var wrappedType: any Any.Type { get }
    /// A box of `Self` holding the value of `box` (a `Wrapped`), or `nil`.
    static func box(_ box: AnyBox?) -> AnyBox
}

extension Optional: OptionalResolvable {
    static var wrappedType: any Any.Type { Wrapped.self }
    static func box(_ box: AnyBox?) -> AnyBox { AnyBox.holding(box.map { $0.value(as: Wrapped.self) }) }
}

/// Makes a `Sendable` main-actor service on the main actor for a thread that resolves it
/// synchronously off the main actor, at top level (no factory of its own running), or in a resolve an
/// async factory's code made that kept nothing yet (docs/Design.md, "The main-actor hop").
enum MainActorHop {
    /// Runs `attempt`; if it asks for the main actor, and this thread holds no lock the main actor
    /// would need, runs it again there, with this task's bindings, while this thread waits.
    @inline(__always)
    static func resolving<R>(
        trapsOnFailure: Bool = false, _ attempt: () throws(ResolutionError) -> R
    ) throws(ResolutionError) -> R {
        do {
            return try attempt()
        } catch {
            // Not for a synchronous `validate()`'s check, which blocks the main actor (its check fails
            // and is listed as not checked), unless failing would trap (then it waits, as before).
            guard error.details.asksForMainActor, !Resolution.lock.isHeldByCurrentThread,
                trapsOnFailure || !(ValidationProbe.blockedActor.get() is MainActor)
            else { throw error }
            return try withoutActuallyEscaping(attempt) { onMainActor($0) }.get()
        }
    }

    private static func onMainActor<R>(_ attempt: @escaping () throws(ResolutionError) -> R) -> Result<
        R, ResolutionError
    > {
        // The caller's context, carried explicitly: its container (`activate`, `withOverrides`, the
        // test traits), its `withScope` runs and the async factory run it is part of, if any.
        let bindings = (DIContainer.boundContainer.get(), ScopeRun.current.get(), AsyncMaking.current.get())
        // Taken out and run on the main actor, and written back, with `Resolution.lock` held; the
        // main actor drops the closure and the bindings (a run, a copy and what they hold) before this
        // thread goes on, and the result is taken out: nothing of the call outlives it on the main thread.
        let request = Locked<(() -> Result<R, ResolutionError>)?>({
            DIContainer.boundContainer.withValue(bindings.0) {
                ScopeRun.current.withValue(bindings.1) {
                    AsyncMaking.current.withValue(bindings.2) { Result { () throws(ResolutionError) in try attempt() } }
                }
            }
        })
        let outcome = Locked<Result<R, ResolutionError>?>(nil)
        let finished = DispatchSemaphore(value: 0)
        @Sendable func tryOnMainActor() {
            DispatchQueue.main.async {
                // The main thread never waits for the lock: its holder may need the main thread.
                guard Resolution.lock.tryLock() else { return tryOnMainActor() }
                outcome.value = request.value.take()!()
                // Unlocked first: what the resolution released runs then (a strict test's report
                // among it), before the caller goes on and its test may end.
                Resolution.lock.unlock()
                finished.signal()
            }
        }
        tryOnMainActor()
        finished.wait()
        return Resolution.lock.withLock { outcome.value.take()! }
    }
}

/// Debug builds: a synchronous factory that runs longer than 100 ms (its own time, without the
/// factories it resolves) holds the library's lock all that time, stalling every resolve in the
/// process; it is reported once, on standard error.
enum SlowFactory {
    static let limit: UInt64 = 100_000_000
    /// The registrations reported, by key and place: each once per process, also through the copies
    /// that `validate()`, `withOverrides` and the test traits make. Guarded by `Resolution.lock`.
    nonisolated(unsafe) private static var reported: Set<String> = []

    /// The time now and the nested time so far, set aside for this factory. Lock held.
    static func start() -> (started: UInt64, outer: UInt64) {
        defer { Resolution.state.nestedFactoryTime = 0 }
        return (DispatchTime.now().uptimeNanoseconds, Resolution.state.nestedFactoryTime)
    }

    /// Reports the factory of `entry` if its own time was over the limit. Lock held.
    static func end(_ timing: (started: UInt64, outer: UInt64), of entry: Entry) {
        let total = DispatchTime.now().uptimeNanoseconds - timing.started
        let own = total - min(total, Resolution.state.nestedFactoryTime)
        Resolution.state.nestedFactoryTime = timing.outer + total
        guard own > limit, reported.insert("\(entry.key.displayName) \(entry.spec.place)").inserted
        else { return }
        StandardError.write(
            "DependencyInjection: warning: the factory of \(entry.spec.summary) ran for \(own / 1_000_000) ms, "
                + "holding the library's lock, which stalls every resolve in the process meanwhile. Make it an "
                + "async factory (Shared { resolve async in … }) and make it at startup with "
                + "try await DIContainer.prepare().\n")
    }
}

/// Runs its action when it is released: handed to `releaseAfterUnlock`, once the lock is let go.
final class AfterUnlock {
    private let action: () -> Void
    init(_ action: @escaping () -> Void) { self.action = action }
    deinit { action() }
}
