/// One slot's worth of registration: what `(type, name)` resolves to.
///
/// Entries are only read and written while their container's ``ReentrantQueue`` is held;
/// that is the invariant that makes the `@unchecked Sendable` conformances below sound.
@usableFromInline
class AnyEntry: @unchecked Sendable {
    @usableFromInline let key: Key
    // The bookkeeping of a root registration, stored here rather than as protocol requirements of
    // ``RootRegistration`` so that the resolution path reads and writes it without generic or
    // witness-table calls. Only root entries (`entry.root === entry`) use these; an alias leaves
    // them untouched. Like ``Provider/fastValue``, they are only touched with the container's
    // queue held, so the dynamic exclusivity checks would add nothing but calls.
    /// Keys its factory resolved, recorded while resolving (the dependency graph's edges).
    @exclusivity(unchecked) final var dependencies: [Key] = []
    /// True while its factory (or `onResolve`) runs: meeting it again on the way down is a cycle.
    @usableFromInline @exclusivity(unchecked) final var isConstructing = false
    /// Which factory the inlined fast path may call directly, read without a downcast or a
    /// metadata lookup; ``FastFactory/none`` sends every resolve down the general path.
    /// (Next to `isConstructing`, so the two bytes share a word.)
    @usableFromInline final let fastFactory: FastFactory
    /// Its place in registration order within its container, for listings.
    @exclusivity(unchecked) final var sequence = 0

    init(key: Key, fastFactory: FastFactory = .none) {
        self.key = key
        self.fastFactory = fastFactory
    }

    /// The root registration this entry serves.
    var root: any RootRegistration { fatalError("AnyEntry.root must be overridden") }

    /// Moves cached instances into `released`, so the caller drops them after unlocking.
    func releaseInstances(into released: inout [Any]) {}

    /// A copy with the same factory and no instances; aliases share their root's copy.
    func freshCopy(roots: inout [ObjectIdentifier: AnyEntry]) -> AnyEntry {
        fatalError("AnyEntry.freshCopy must be overridden")
    }

    /// Resolves this slot once without arguments, as `eager()` and `validate()` do.
    /// Called with the container's queue held.
    func probe(in container: DIContainer) throws(ResolutionError) {
        fatalError("AnyEntry.probe must be overridden")
    }
}

/// What the inlined fast path may do with an entry beyond returning its `fastValue`: call the
/// factory of a `RootEntry` whose lifetime is `New` and that has no `onResolve`. An entry with
/// one of the `new…` kinds is a `RootEntry` of the type it is stored under, and its factory is
/// of the matching case.
@usableFromInline
enum FastFactory: UInt8 {
    case none
    /// `Factory.simple`
    case newSimple
    /// `Factory.plain`
    case newPlain
    /// `Factory.arguments`
    case newArguments
}

/// The registration behind one or more slots: its own type's slot and its aliases'.
protocol RootRegistration: AnyEntry {
    var info: RegistrationInfo { get }
    /// The alias types it was registered with (`as: …`), in order; cheap, unlike `info`.
    var aliasTypes: [any Any.Type] { get }
    /// Whether `validate()` can resolve it alone: not when it needs arguments or the main actor.
    var uncheckableReason: String? { get }
}

extension AnyEntry {
    /// Records an edge of the dependency graph on this root entry.
    final func recordDependency(on dependency: Key) {
        // Called on every resolve inside a factory: compares type identities first, and names
        // only when they match.
        let known = dependencies.withUnsafeBufferPointer { recorded in
            recorded.contains { $0.typeID == dependency.typeID && $0.name == dependency.name }
        }
        if !known { dependencies.append(dependency) }
    }
}

/// Arguments for one resolution, passed down without boxing: the address of a tuple
/// `(repeat each Argument)` and that tuple's type, which the factory checks before reading it.
@usableFromInline
struct ArgumentPack {
    let tupleType: any Any.Type
    let pointer: UnsafeRawPointer

    static func describe(_ tupleType: any Any.Type) -> String {
        let name = TypeName.of(tupleType)
        if name == "()" { return "no arguments" }
        return name.hasPrefix("(") ? name : "(\(name))"
    }
}

/// An entry that produces `Value`; the table stores one under `Key(Value.self, name)`, so a
/// lookup by `ObjectIdentifier(Value.self)` can downcast without checking.
@usableFromInline
class Provider<Value>: AnyEntry, @unchecked Sendable {
    /// A `Shared` instance that may be returned without any further bookkeeping: set only for
    /// shared, non-main-actor registrations, cleared by `releaseInstances`.
    ///
    /// Unchecked exclusivity: it is only touched while the container's queue is held, which
    /// already makes every access exclusive; the dynamic check cost the fast path a runtime call.
    @usableFromInline @exclusivity(unchecked) final var fastValue: Value?

    func provide(
        in container: DIContainer, requested: AnyEntry, arguments: ArgumentPack?
    ) throws(ResolutionError) -> Value {
        fatalError("Provider.provide must be overridden")
    }

    override func releaseInstances(into released: inout [Any]) {
        if let fastValue { released.append(fastValue) }
        fastValue = nil
    }

    override func probe(in container: DIContainer) throws(ResolutionError) {
        _ = try provide(in: container, requested: self, arguments: nil)
    }
}

/// How a root entry makes its value.
@usableFromInline
enum Factory<Value> {
    /// A function without parameters (an expression or an initializer), stored as given.
    case simple(() -> Value)
    case plain((Resolver) throws -> Value)
    case mainActor(@MainActor (Resolver) throws -> Value)
    case arguments(ArgumentsFactory<Value>)
}

/// A factory that takes arguments, reading them from an ``ArgumentPack`` of its `tupleType`.
@usableFromInline
struct ArgumentsFactory<Value> {
    @usableFromInline let tupleType: any Any.Type
    @usableFromInline let call: (Resolver, UnsafeRawPointer) throws -> Value

    @inlinable
    init<each Argument>(_ function: @escaping (Resolver, repeat each Argument) throws -> Value) {
        tupleType = (repeat each Argument).self
        call = { resolver, pointer in
            // The caller checked that the pack's tuple type is `tupleType`.
            let arguments = pointer.assumingMemoryBound(to: (repeat each Argument).self).pointee
            return try function(resolver, repeat each arguments)
        }
    }

    var argumentTypes: [String] {
        let described = ArgumentPack.describe(tupleType)
        guard described != "no arguments" else { return [] }
        return [String(described.dropFirst().dropLast())]
    }
}

/// The entry a registration creates for its own type.
@usableFromInline
final class RootEntry<Value>: Provider<Value>, RootRegistration, @unchecked Sendable {
    /// The registration as written (minus its lifetime), moved in whole; described only when
    /// ``info`` is read.
    @usableFromInline let core: RegistrationCore<Value>
    @usableFromInline let lifetime: Lifetime

    @inlinable var factory: Factory<Value> { core.factory }
    var onResolve: ((Value, Resolver) throws -> Void)? { core.onResolveAction }

    /// Calls a `.simple` factory (the caller knows the case from ``AnyEntry/fastFactory``).
    @inlinable @inline(__always)
    func makeSimple() -> Value {
        switch factory {
        case .simple(let make): return make()
        default: preconditionFailure("DependencyInjection: fastFactory does not match the factory.")
        }
    }

    /// Calls a `.plain` factory (the caller knows the case from ``AnyEntry/fastFactory``).
    @inlinable @inline(__always)
    func makePlain(_ resolver: Resolver) throws -> Value {
        switch factory {
        case .plain(let make): return try make(resolver)
        default: preconditionFailure("DependencyInjection: fastFactory does not match the factory.")
        }
    }

    /// Whether the factory takes arguments of the tuple type `tupleType` identifies.
    @inlinable @inline(__always)
    func takesArguments(_ tupleType: ObjectIdentifier) -> Bool {
        switch factory {
        case .arguments(let factory): return ObjectIdentifier(factory.tupleType) == tupleType
        default: return false
        }
    }

    /// Calls an `.arguments` factory with a tuple of the type it takes (see ``takesArguments(_:)``).
    @inlinable @inline(__always)
    func makeWithArguments(_ resolver: Resolver, _ arguments: UnsafeRawPointer) throws -> Value {
        switch factory {
        case .arguments(let factory): return try factory.call(resolver, arguments)
        default: preconditionFailure("DependencyInjection: fastFactory does not match the factory.")
        }
    }

    private var sharedValue: Value?
    private weak var weakObject: AnyObject?

    // Required: registration calls it on a class found at run time (see `RootEntryTypes`).
    required init(
        key: Key, lifetime: Lifetime, core: __owned RegistrationCore<Value>
    ) {
        self.lifetime = lifetime
        var fastFactory = FastFactory.none
        if lifetime == .new, core.onResolveAction == nil {
            switch core.factory {
            case .simple: fastFactory = .newSimple
            case .plain: fastFactory = .newPlain
            case .arguments: fastFactory = .newArguments
            case .mainActor: break
            }
        }
        self.core = core
        super.init(key: key, fastFactory: fastFactory)
    }

    override var root: any RootRegistration { self }

    var aliasTypes: [any Any.Type] { core.aliases.map(\.type) }

    var info: RegistrationInfo {
        var argumentTypes: [String] = []
        var isMainActor = false
        switch factory {
        case .simple, .plain: break
        case .mainActor: isMainActor = true
        case .arguments(let box): argumentTypes = box.argumentTypes
        }
        return RegistrationInfo(
            typeName: key.typeName, name: key.name, lifetime: lifetime,
            aliases: aliasTypes.map(TypeName.of), argumentTypes: argumentTypes, isMainActor: isMainActor,
            isEager: core.isEager, fileID: core.fileID, line: core.line)
    }

    /// Whether a made instance may be handed out through `fastValue` (and aliases' caches).
    var allowsFastValue: Bool {
        guard lifetime == .shared else { return false }
        if case .mainActor = factory { return false }
        return true
    }

    override func provide(
        in container: DIContainer, requested: AnyEntry, arguments: ArgumentPack?
    ) throws(ResolutionError) -> Value {
        // A `Shared` (or live `Weak`, or current `Graph`) made with arguments keeps its instance;
        // asking for it again without arguments is not an error.
        if arguments == nil, case .arguments = factory, let kept = keptValue(in: container) { return kept }
        switch (factory, arguments) {
        case (.simple(let make), nil):
            return try obtain(in: container, requested: requested) { _ in make() }
        case (.plain(let make), nil):
            return try obtain(in: container, requested: requested, make)
        case (.mainActor(let make), nil):
            guard ThreadScope.isOnMainActor else { throw container.error(.mainActorRequired, for: requested.key) }
            return try obtain(in: container, requested: requested) { resolver in
                try Self.runOnMainActor(make, resolver)
            }
        case (.arguments(let factory), let pack?)
        where ObjectIdentifier(factory.tupleType) == ObjectIdentifier(pack.tupleType):
            return try obtain(in: container, requested: requested) { resolver in
                try factory.call(resolver, pack.pointer)
            }
        case (.arguments(let factory), let pack):
            throw container.error(
                .argumentMismatch(
                    expected: ArgumentPack.describe(factory.tupleType),
                    received: pack.map { ArgumentPack.describe($0.tupleType) } ?? "no arguments"),
                for: requested.key)
        case (_, let pack?):
            throw container.error(
                .argumentMismatch(expected: "no arguments", received: ArgumentPack.describe(pack.tupleType)),
                for: requested.key)
        }
    }

    /// Returns the kept instance for this lifetime, or makes one inside a resolution frame.
    private func obtain(
        in container: DIContainer, requested: AnyEntry, _ make: (Resolver) throws -> Value
    ) throws(ResolutionError) -> Value {
        if let kept = keptValue(in: container) { return kept }
        if isConstructing {
            throw container.cycleError(reaching: self, requested: requested)
        }
        isConstructing = true
        defer { isConstructing = false }
        return try container.withFrame(root: self, requested: requested) { resolver in
            let value = try make(resolver)
            try keep(value, in: container, requested: requested)
            if let onResolve { container.afterResolution(of: self, requested: requested) { try onResolve(value, $0) } }
            return value
        }
    }

    private func keptValue(in container: DIContainer) -> Value? {
        switch lifetime {
        case .shared: return sharedValue
        case .new: return nil
        // Stored from a `Value` under this entry's identity, so the cast cannot fail.
        case .graph: return container.graphOwner.state.pointee.graphValues[ObjectIdentifier(self)] as? Value
        case .weak:
            // The object was stored from a `Value`, so the cast only fails once it is released.
            return weakObject.flatMap { $0 as? Value }
        }
    }

    private func keep(_ value: Value, in container: DIContainer, requested: AnyEntry) throws(ResolutionError) {
        switch lifetime {
        case .shared:
            sharedValue = value
            if allowsFastValue { fastValue = value }
        case .new:
            break
        case .graph:
            container.graphOwner.state.pointee.graphValues[ObjectIdentifier(self)] = value
        case .weak:
            let instanceType = type(of: value as Any)
            guard instanceType is AnyObject.Type else {
                throw container.error(.weakRequiresClass(instanceType: TypeName.of(instanceType)), for: requested.key)
            }
            weakObject = value as AnyObject
        }
    }

    private static func runOnMainActor(
        _ make: @MainActor (Resolver) throws -> Value, _ resolver: Resolver
    ) throws -> Value {
        // The caller checked that this runs on the main queue, the main actor's executor.
        nonisolated(unsafe) var result: Result<Value, any Error>?
        MainActor.assumeIsolated {
            result = Result { try make(resolver) }
        }
        return try result!.get()
    }

    override func releaseInstances(into released: inout [Any]) {
        super.releaseInstances(into: &released)
        if let sharedValue { released.append(sharedValue) }
        sharedValue = nil
        weakObject = nil
    }

    var uncheckableReason: String? {
        switch factory {
        case .simple, .plain: nil
        case .mainActor: "its factory runs on the main actor"
        case .arguments(let factory): "it needs arguments \(ArgumentPack.describe(factory.tupleType))"
        }
    }

    override func freshCopy(roots: inout [ObjectIdentifier: AnyEntry]) -> AnyEntry {
        if let copy = roots[ObjectIdentifier(self)] { return copy }
        let copy = RootEntry(key: key, lifetime: lifetime, core: core)
        copy.dependencies = dependencies
        copy.sequence = sequence
        roots[ObjectIdentifier(self)] = copy
        return copy
    }
}

/// An entry for an alias (`as: Router.self`): served by another type's root entry.
final class AliasEntry<Root, Value>: Provider<Value>, @unchecked Sendable {
    let target: RootEntry<Root>

    init(key: Key, target: RootEntry<Root>) {
        self.target = target
        super.init(key: key)
    }

    override var root: any RootRegistration { target }

    override func provide(
        in container: DIContainer, requested: AnyEntry, arguments: ArgumentPack?
    ) throws(ResolutionError) -> Value {
        let instance = try target.provide(in: container, requested: requested, arguments: arguments)
        // Registration checked that `Root` conforms to `Value`; this cast only fails where that
        // check could not be made, and then the failure is an error, not a crash.
        guard let value = instance as? Value else {
            throw container.error(.aliasNotConforming(implementation: TypeName.of(Root.self)), for: key)
        }
        if target.allowsFastValue { fastValue = value }
        return value
    }

    override func freshCopy(roots: inout [ObjectIdentifier: AnyEntry]) -> AnyEntry {
        // The root is copied once and shared by every alias that points at it, as in the source.
        let root = unsafeDowncast(target.freshCopy(roots: &roots), to: RootEntry<Root>.self)
        return AliasEntry(key: key, target: root)
    }
}
