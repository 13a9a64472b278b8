/// A registration installed in one container, with the instances its lifetime keeps there.
///
/// Entries are retained like any object: by the container's table, by the `Graph` instances and
/// queued actions of a resolution (its frames hold them unretained, see `Unretained`).
@usableFromInline
final class Entry: LockedEntryState, @unchecked Sendable {
    // Unchecked: its mutable state is `state`, guarded by `Resolution.lock` (see `Locked`).
    /// What an entry keeps; guarded by `Resolution.lock` (see ``Locked``).
    @usableFromInline
    @dynamicMemberLookup
    struct State {
        // The one-byte fields last, where they fill the dependencies' last word. Each entry's
        // bytes count at launch: its memory is touched there for the first time.
        /// The `Shared` instance, once made.
        var shared: AnyBox?
        /// What few entries need, made by the first write that sets something (see ``Rare``).
        private var rare: Rare?
        /// Its place in registration order within its container, for listings; 0 until installed.
        var sequence = 0
        /// Keys its factory resolved, in the order first seen (the dependency graph's edges).
        var dependencies = Dependencies()
        /// True while its factory (or an `onResolve` action) runs: meeting it again is a cycle.
        var isMaking = false
        /// Whether its values are `Sendable`, as the types at the registration's call site said (see
        /// ``RegistrationBuilder``): a value made on an actor leaves that actor only if it is.
        var isSendable = false

        init(isSendable: Bool) { self.isSendable = isSendable }

        /// A field of ``Rare`` (`state.making`, `state.weakObject`, …): `nil` until set; a write that
        /// sets something makes `rare` first (clearing what was never set makes nothing).
        subscript<Value>(dynamicMember field: ReferenceWritableKeyPath<Rare, Value?>) -> Value? {
            get { rare?[keyPath: field] }
            set {
                if rare == nil, newValue != nil { rare = Rare() }
                rare?[keyPath: field] = newValue
            }
        }
    }

    /// What an entry keeps only for some lifetimes, factories or failures, out of line: one word in
    /// every entry instead of five, and no weak reference to set up and tear down in each. Guarded
    /// like the ``State`` that holds it (one entry's only: never copied to another).
    final class Rare {
        /// The `Weak` instance, while anything holds it.
        weak var weakObject: AnyObject?
        /// An async factory of this entry running now: later async resolves await it.
        var making: AsyncMaking?
        /// Why `prepare()` last failed to make it, for the message of a resolve that finds it not made.
        var preparationError: ResolutionError?
        /// In a `validate()` copy: how it failed, so what needs it later fails at once (where a trap
        /// could not be parked).
        var validationFailure: ResolutionError?
        /// In a `validate()` copy of a `New` or `Graph` that takes arguments (made once there, as a
        /// `Shared`): where a resolve without arguments finds the one made with them, as at run time.
        var madeWithArguments: MadeWithArguments?
    }

    /// Where a `validate()` copy's instance made with arguments serves a resolve without them: nowhere
    /// (a `New`, which keeps nothing at run time), or in the resolution that made it (a `Graph`).
    enum MadeWithArguments { case nowhere, inItsResolution }

    /// Keys a factory resolved, in the order first seen: the first four without a name in place, as
    /// their types (most factories resolve no more, and an array would cost each entry an
    /// allocation at launch; a key is three words, a type one), the rest in an array, and all of
    /// them in a set too once there are 16.
    struct Dependencies: Sequence {
        private var first: (any Any.Type, any Any.Type, any Any.Type, any Any.Type) = (
            Never.self, Never.self, Never.self, Never.self
        )
        private var more: [Key] = []
        private var all: Set<Key> = []
        private var inPlace: UInt8 = 0

        mutating func insert(_ key: Key) {
            let count = Int(inPlace) + more.count
            guard count < 16 else {
                guard all.insert(key).inserted else { return }
                return more.append(key)
            }
            guard !contains(key) else { return }
            if key.name == nil, inPlace < 4, more.isEmpty {
                switch inPlace {
                case 0: first.0 = key.type
                case 1: first.1 = key.type
                case 2: first.2 = key.type
                default: first.3 = key.type
                }
                inPlace += 1
            } else {
                more.append(key)
            }
            if count + 1 == 16 { all = Set(self) }
        }

        private func contains(_ key: Key) -> Bool {
            if key.name == nil {
                let id = key.typeID
                if inPlace > 0, ObjectIdentifier(first.0) == id { return true }
                if inPlace > 1, ObjectIdentifier(first.1) == id { return true }
                if inPlace > 2, ObjectIdentifier(first.2) == id { return true }
                if inPlace > 3, ObjectIdentifier(first.3) == id { return true }
            }
            return !more.isEmpty && more.contains(key)
        }

        func makeIterator() -> IndexingIterator<[Key]> {
            let types = [first.0, first.1, first.2, first.3].prefix(Int(inPlace))
            return (types.map { Key($0, name: nil) } + more).makeIterator()
        }
    }

    let spec: RegistrationSpec

    /// A registration's entry, made where the registration is written; the first container that
    /// installs it takes it as it is (see ``Module/takeEntries(into:numberedFrom:)``).
    init(_ spec: consuming RegistrationSpec) {
        let isSendable = spec.isSendable
        self.spec = spec
        super.init(State(isSendable: isSendable))
    }

    /// Its place in registration order within its container. Lock held.
    var sequence: Int { state.sequence }

    var key: Key { spec.key }

    /// Whether `prepare()` makes it: a `Shared` that is eager, async or isolated to an actor.
    var needsPreparing: Bool {
        lifetime == .shared && (!spec.factory.isolation.isNone || spec.isEager || spec.factory.isAsync)
    }
    var lifetime: Lifetime { spec.lifetime }

    /// Whether what it makes may leave the actor its factory runs on, asked for as `key`: a `Sendable`
    /// value, and not through an `as:` alias of an actor-isolated factory (the value's conformance
    /// to the alias may be isolated to that actor, so the existential must not leave it).
    func isSendable(as key: Key) -> Bool {
        state.isSendable && (key.typeID == ObjectIdentifier(spec.type) || spec.factory.isolation.actor == nil)
    }

    /// The type its factory makes, when its `Sendable` value is asked for as `key` through an alias
    /// that keeps it on its factory's actor (see ``isSendable(as:)``): for messages.
    func servedThrough(as key: Key) -> String? {
        state.isSendable && !isSendable(as: key) ? TypeName.of(spec.type) : nil
    }

    /// When `prepare()` makes it: 0, a synchronous factory isolated to an actor other than the main
    /// actor (`{ @DatabaseActor in … }` too, which is made by awaiting it); 1, an async factory;
    /// 2, the rest (main-actor and eager ones).
    var preparePhase: Int {
        let factory = spec.factory
        if case .globalActor = factory.isolation, !factory.isAsync || factory.isActorClosure { return 0 }
        return factory.isAsync ? 1 : 2
    }

    func recordDependency(on key: Key) { state.dependencies.insert(key) }

    /// The instance this lifetime keeps, if any (`Graph`: the resolution in progress's).
    var kept: AnyBox? {
        switch lifetime {
        case .shared: return state.shared
        case .new: return nil
        case .graph: return Resolution.state.graphValues[ObjectIdentifier(self)]?.value
        case .weak: return state.weakObject.flatMap { weakValue($0) }
        case .scoped:
            // Inside a run of its scope, the run's instance; else the container's.
            guard let run = scopeRun else { return state.shared }
            return run.value?[spec.runKey]?.value
        }
    }

    /// The async run of its factory making its instance now, which later async resolves wait for:
    /// for a `Scoped` one inside a run of its scope, the run's own (runs never wait for each other).
    var making: AsyncMaking? {
        get { if let run = scopeRun { run.making[spec.runKey] } else { state.making } }
        set { if let run = scopeRun { run.making[spec.runKey] = newValue } else { state.making = newValue } }
    }

    /// For a `Scoped` one, the live `withScope` run of its scope this task is in, if any. Lock held.
    private var scopeRun: ScopeRun? { lifetime == .scoped ? ScopeRun.innermost(of: spec.scope) : nil }

    /// Why it cannot be had here: a `Scoped` one of a run-only scope, outside every live run of it.
    var runRequired: ResolutionError.Reason? {
        guard lifetime == .scoped, let scope = spec.scope, scope.requiresRun, scopeRun == nil
        else { return nil }
        return .scopeRunRequired(scope: scope.name)
    }

    /// Keeps a new instance as its lifetime says; what the resolution in progress stored is
    /// listed in `state.made`, so a failure can take it back.
    func keep(_ made: AnyBox) -> ResolutionError.Reason? {
        switch lifetime {
        case .shared, .scoped:
            if let run = scopeRun {
                let key = spec.runKey
                run.value?[key] = (self, made)
                // Taken back from that run, which may be over when the resolution fails.
                Resolution.state.undo.append { run.value?.removeValue(forKey: key) }
            } else {
                state.shared = made
                // Made now: why an earlier `prepare()` failed is no longer news (clearing sets up nothing).
                state.preparationError = nil
                Resolution.state.made.append(self)
            }
        case .new:
            break
        case .graph:
            Resolution.state.graphValues[ObjectIdentifier(self)] = (self, made, Resolution.state.graphValues.count)
        case .weak:
            // Kept by a weak reference, which only a class instance (of its dynamic type) can have.
            let value = made.anyValue
            guard Conformance.isClass(type(of: value)) else {
                return .weakRequiresClass(instanceType: TypeName.of(type(of: value)))
            }
            state.weakObject = value as AnyObject
            Resolution.state.made.append(self)
        }
        return nil
    }

    /// A `Weak` registration's value again, from the object its weak reference kept: a value of the
    /// registered type, as its factory made it.
    private func weakValue(_ object: AnyObject) -> AnyBox? {
        func boxed<Value>(as _: Value.Type) -> AnyBox? {
            guard let value = object as? Value else { return nil }
            return AnyBox.holding(value)
        }
        return boxed(as: spec.type)
    }

    /// Drops the kept instances, returning them so the caller releases them when its state is
    /// consistent again (their `deinit` may resolve).
    func releaseInstances() -> Any? {
        // An async run still making one keeps it no more (see `runAsyncFactory`).
        defer { (state.shared, state.weakObject, state.making) = (nil, nil, nil) }
        return state.shared ?? state.weakObject
    }

    /// A copy with the same registration and recorded edges, and no instances. For `validate()`,
    /// one that makes its instance once (a `Shared`, unless `Weak`), and that keeps what an actor or
    /// an async factory made here already (as after `prepare()`). For another install of its
    /// registration (`installed`), one that keeps instances of its own in a `withScope` run too. Lock held.
    func freshCopy(forValidation: Bool = false, installed: Bool = false) -> Entry {
        var spec = spec
        if installed { spec.ownExtras() }
        // An actor's or async `New` or `Graph` stays one: a synchronous resolve never gets it, not even
        // after prepare().
        let isMadeOnlyByAwait =
            (lifetime == .new || lifetime == .graph)
            && (spec.factory.isAsync || spec.factory.isolation.actor != nil && !spec.factory.isolation.isMainActor)
        if forValidation, lifetime != .weak, !isMadeOnlyByAwait { spec.lifetime = .shared }
        let copy = Entry(spec)
        (copy.state.sequence, copy.state.isSendable) = (state.sequence, state.isSendable)
        if forValidation, lifetime == .new || lifetime == .graph, spec.factory.takesArguments {
            copy.state.madeWithArguments = lifetime == .graph ? .inItsResolution : .nowhere
        }
        if forValidation, spec.factory.isAwaited {
            copy.state.shared = state.shared
        }
        copy.state.dependencies = state.dependencies
        return copy
    }
}

/// What a container's table holds for one key: the entry that serves it, and for an alias slot
/// how to turn the entry's values into the alias type.
struct Slot {
    let entry: Entry
    let alias: AliasSpec?

    /// The key it is found by: its alias's type, or its entry's, with its entry's name.
    var key: Key { Key(alias?.type ?? entry.spec.type, name: entry.spec.name) }
}
