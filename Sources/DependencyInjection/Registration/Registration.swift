/// One registration: how to make a `Value`, for how long to keep it, and under which types.
///
/// Write it through its lifetime aliases, ``Shared``, ``New``, ``Weak`` and ``Graph``:
///
///     DIContainer.register {
///         Shared(AppConfigurationImpl() as AppConfiguration)          // an expression, made lazily
///         Shared(RouterImpl.init, as: Router.self, DeeplinkHandler.self) // an initializer, with aliases
///         Shared(Checkout.init)                                       // autowired: parameters resolved
///         Shared { resolve in RouterImpl(config: resolve()) }           // a resolver closure
///         New { _, id in ConcreteViewModel(id: id) as ViewModelProtocol } // a factory with arguments
///     }
///
/// Registering again for a type, or for one of its aliases, replaces that one slot.
///
/// A registration is an immutable value and `Sendable`, like ``Module``: its synchronous
/// factory and `onResolve` actions only ever run under the library's resolution lock, so the
/// same closure never runs concurrently with itself, even in several containers at once.
public struct Registration<Value, Scope: DependencyLifetime>: @unchecked Sendable {
    /// Its entry, made here: the first container that registers it installs it as it is, any other
    /// installs a copy. A class reference, so that generic code (an app's helper registering types it
    /// is generic over) copies and destroys a registration with one retain and release, never
    /// through `Registration<Value, Scope>`'s metadata, which a first-time type would have to make.
    @usableFromInline var entry: Entry

    @usableFromInline
    init(_ factory: Factory, aliasList: [AliasSpec], fileID: String, line: Int) {
        entry = Entry(
            RegistrationSpec(
                type: Value.self, factory: factory, lifetime: Scope.lifetime, aliases: aliasList, fileID: fileID,
                line: line))
    }

    /// The `as:` types, made where they are written (a generic caller passing the pack on would have
    /// its metadata made at run time at every registration).
    @inlinable @inline(__always)
    static func aliasList<each Alias>(_: repeat (each Alias).Type) -> [AliasSpec] {
        var list: [AliasSpec] = []
        repeat list.append(AliasSpec(Value.self, as: (each Alias).self))
        return list
    }

    /// A synchronous factory without arguments. Not inlined: what a registration's line compiles to
    /// at its call site is this call, and an app's launch reads every line's code once. `consuming`:
    /// the closure and actor are stored as they come (the optimizer would otherwise borrow them in
    /// a copy of this initializer, and each registration would retain and release both).
    @usableFromInline @inline(never)
    init(
        sync make: consuming @escaping (Resolver, Any) throws -> AnyBox, canUnwind: Bool,
        isolation: consuming (any Actor)?,
        aliasList: [AliasSpec], fileID: String, line: Int
    ) {
        self.init(
            Factory(isolation: .init(isolation), canUnwind: canUnwind, .sync(make)), aliasList: aliasList,
            fileID: fileID, line: line)
    }

    /// Registers a function without parameters, typically an initializer.
    ///
    ///     Shared(RouterImpl.init, as: Router.self, DeeplinkHandler.self)
    ///     Shared { Counter() }
    ///
    /// A closure (or expression) keeps the isolation of the code it is written in, as Swift
    /// gives it: written in main-actor code (or anywhere in a module with default MainActor
    /// isolation) it only ever runs on the main actor; written in nonisolated code (a
    /// `registerDependencies()`, a global `Module`, a `nonisolated` function) it runs on any thread.
    @inlinable @inline(__always)
    public init<Failure: Error, each Alias>(
        _ make: @escaping () throws(Failure) -> Value, as aliases: repeat (each Alias).Type,
        fileID: String = #fileID, line: Int = #line, isolation: isolated (any Actor)? = #isolation
    ) {
        self.init(
            sync: { _, _ in AnyBox.holding(try make()) }, canUnwind: true, isolation: isolation,
            aliasList: Self.aliasList(repeat each aliases), fileID: fileID, line: line)
    }

    /// Registers a closure that resolves the value's own dependencies.
    ///
    ///     Shared { resolve in RouterImpl(config: resolve()) }
    ///     Shared { resolve in try ConfiguredRouter(config: resolve.tryResolve()) }
    ///
    /// A throwing factory's error reaches `tryResolve` as a ``ResolutionError`` that keeps it.
    @inlinable @inline(__always)
    public init<Failure: Error, each Alias>(
        _ make: @escaping (Resolver) throws(Failure) -> Value, as aliases: repeat (each Alias).Type,
        fileID: String = #fileID, line: Int = #line, isolation: isolated (any Actor)? = #isolation
    ) {
        self.init(
            sync: { resolver, _ in AnyBox.holding(try make(resolver)) }, canUnwind: Failure.self != Never.self,
            isolation: isolation, aliasList: Self.aliasList(repeat each aliases), fileID: fileID, line: line)
    }

    /// Registers an initializer (or any function) whose parameters are registered services:
    /// each is resolved by its type when an instance is made.
    ///
    ///     final class Checkout { init(payments: Payments, logger: Logger) { … } }
    ///     Shared(Checkout.init)
    ///     New(ReceiptPrinter.init, as: Printer.self)
    ///
    /// A missing parameter is reported like any missing dependency, with its path; the
    /// parameters are edges of ``DIContainer/dependencyGraph()``.
    ///
    /// Disfavored, so that `Shared(RouterImpl.init)` picks `init()` where a type has both.
    @_disfavoredOverload
    public init<Failure: Error, First, each Rest, each Alias>(
        _ make: @escaping (First, repeat each Rest) throws(Failure) -> Value, as aliases: repeat (each Alias).Type,
        fileID: String = #fileID, line: Int = #line, isolation: isolated (any Actor)? = #isolation
    ) {
        self.init(
            { resolve in
                try make(try resolve.tryResolve(First.self), repeat try resolve.tryResolve((each Rest).self))
            },
            as: repeat each aliases, fileID: fileID, line: line, isolation: isolation)
    }

    /// Registers a factory that takes arguments, supplied at resolution.
    ///
    ///     New({ resolve, id in ConcreteViewModel(id: id) }, as: ViewModelProtocol.self)
    ///     DIContainer.resolve(ViewModelProtocol.self, arguments: { "id_goes_here" })
    ///
    /// Any number of arguments of any types works; resolving with other argument types is a
    /// ``ResolutionError`` naming the expected and the received types.
    @inlinable
    public init<First, each Rest, each Alias>(
        _ make: @escaping (Resolver, First, repeat each Rest) throws -> Value,
        as aliases: repeat (each Alias).Type, fileID: String = #fileID, line: Int = #line,
        isolation: isolated (any Actor)? = #isolation
    ) {
        self.init(
            argumentsFactory(isolation: .init(isolation), make), aliasList: Self.aliasList(repeat each aliases),
            fileID: fileID, line: line)
    }

    // MARK: Main actor

    /// Registers a `@MainActor` function; it only ever runs on the main actor.
    ///
    ///     Shared { @MainActor in ProfileModel() }
    ///     Shared(ProfileModel.init)          // ProfileModel is @MainActor
    ///
    /// Resolving it synchronously anywhere else is a ``ResolutionError``, never a data race;
    /// ``DIContainer/resolveAsync(_:name:isolation:)-swift.type.method`` and ``DIContainer/prepare()-swift.type.method``
    /// make it on the main actor.
    public init<Failure: Error, each Alias>(
        _ make: @escaping @MainActor () throws(Failure) -> Value, as aliases: repeat (each Alias).Type,
        fileID: String = #fileID, line: Int = #line
    ) {
        self.init(
            // Untyped: a function without a resolver has no `resolve()` to fail (see `canUnwind`).
            { @MainActor (_: Resolver) throws in try make() }, as: repeat each aliases, fileID: fileID, line: line)
    }

    /// Registers a `@MainActor` closure that resolves the value's own dependencies.
    public init<Failure: Error, each Alias>(
        _ make: @escaping @MainActor (Resolver) throws(Failure) -> Value, as aliases: repeat (each Alias).Type,
        fileID: String = #fileID, line: Int = #line
    ) {
        self.init(
            sync: { resolver, _ in AnyBox.holding(try onMainActor(resolver) { try make($0) }) },
            canUnwind: Failure.self != Never.self, isolation: MainActor.shared,
            aliasList: Self.aliasList(repeat each aliases), fileID: fileID, line: line)
    }

    /// Registers a `@MainActor` initializer whose parameters are registered services.
    @_disfavoredOverload
    public init<Failure: Error, First, each Rest, each Alias>(
        _ make: @escaping @MainActor (First, repeat each Rest) throws(Failure) -> Value,
        as aliases: repeat (each Alias).Type, fileID: String = #fileID, line: Int = #line
    ) {
        self.init(
            { @MainActor resolve in
                try make(try resolve.tryResolve(First.self), repeat try resolve.tryResolve((each Rest).self))
            }, as: repeat each aliases, fileID: fileID, line: line)
    }

    /// Registers a `@MainActor` factory that takes arguments.
    public init<Failure: Error, First, each Rest, each Alias>(
        _ make: @escaping @MainActor (Resolver, First, repeat each Rest) throws(Failure) -> Value,
        as aliases: repeat (each Alias).Type, fileID: String = #fileID, line: Int = #line
    ) {
        self.init(
            mainActorArgumentsFactory(make), aliasList: Self.aliasList(repeat each aliases), fileID: fileID, line: line)
    }

    // MARK: Global actors and async factories

    /// Registers a function isolated to a global actor other than the main actor.
    ///
    ///     Shared { @DatabaseActor in Database() }
    ///
    /// It is made on that actor, by ``DIContainer/prepare()-swift.type.method`` or an async
    /// resolve; once made, a synchronous resolve returns it, and before that it is a
    /// ``ResolutionError`` that says to await it.
    public init<each Alias>(
        _ make: @Sendable @escaping @isolated(any) () -> Value, as aliases: repeat (each Alias).Type,
        fileID: String = #fileID, line: Int = #line
    ) where Value: Sendable {
        var factory = Factory(isolation: .init(make.isolation), .async { _ in AnyBox.holding(await make()) })
        factory.isActorClosure = true
        self.init(factory, aliasList: Self.aliasList(repeat each aliases), fileID: fileID, line: line)
    }

    /// Registers an async factory: the instance is made by awaiting it.
    ///
    ///     Shared { resolve async throws in try await RemoteConfig.load(client: resolve()) }
    ///
    /// A `Shared` one is made exactly once, however many tasks await it at once, by
    /// ``DIContainer/prepare()-swift.type.method`` or ``DIContainer/resolveAsync(_:name:isolation:)-swift.type.method``;
    /// after that, the synchronous `resolve` and the property wrappers return it. If the factory
    /// throws (or is cancelled), nothing is kept, and the next async resolve tries again.
    ///
    /// Like `Task { }`, the factory runs with the isolation of the code it is written in: written
    /// in main-actor code (or in a module with default MainActor isolation), it runs on the main
    /// actor, so its synchronous `resolve()` of main-actor services works.
    public init(
        @_inheritActorContext _ make: @Sendable @escaping @isolated(any) (Resolver) async throws -> Value,
        fileID: String = #fileID, line: Int = #line
    ) where Value: Sendable {
        self.init(Factory(async: make), aliasList: [], fileID: fileID, line: line)
    }

    /// Registers an async factory under other types too (see ``init(_:fileID:line:)``).
    // Two initializers, not one with an alias pack: Swift 6.3 drops `@_inheritActorContext` when
    // the pack is empty, so the form without aliases would lose the isolation of its code.
    public init<each Alias>(
        @_inheritActorContext _ make: @Sendable @escaping @isolated(any) (Resolver) async throws -> Value,
        as aliases: repeat (each Alias).Type, fileID: String = #fileID, line: Int = #line
    ) where Value: Sendable {
        self.init(Factory(async: make), aliasList: Self.aliasList(repeat each aliases), fileID: fileID, line: line)
    }

    /// The same registration under a name; several names of one type coexist.
    ///
    ///     Shared(PostgresStore.init, as: Store.self).named("primary")
    ///     DIContainer.resolve(Store.self, name: "primary")
    public func named(_ name: String) -> Self {
        changing {
            $0.name = name
            $0.ownExtras()
        }
    }

    /// Runs `action` for each new instance, once the resolution that made it has made
    /// everything it needs, and before that resolution returns.
    ///
    /// By the time `action` runs, every `Shared` instance of the resolution is made and kept,
    /// so two services can point at each other, whichever is resolved first:
    ///
    ///     Shared(Parent.init)
    ///         .onResolve { parent, resolve in parent.child = resolve() }
    ///         .onResolve { parent, _ in parent.isWired = true }
    ///     Shared { resolve in Child(parent: resolve()) }
    ///
    /// Several actions run in the order written. If one throws, the resolution fails and the
    /// instances it made are dropped, so the next resolve makes them (and runs the actions) again.
    ///
    /// Like a factory, `action` keeps the isolation of the code it is written in: written in
    /// main-actor code, it runs only on the main actor, and the value it gets is then handed out
    /// off the main actor only if it is `Sendable`.
    public func onResolve<Failure: Error>(
        _ action: @escaping (Value, Resolver) throws(Failure) -> Void, isolation: isolated (any Actor)? = #isolation
    ) -> Self {
        // Every value of this registration is a `Value` (see `Factory`).
        changing {
            $0.onResolve.append(
                (.init(isolation), Failure.self != Never.self, { try action($0.value(as: Value.self), $1) }))
        }
    }

    /// A copy with `change` applied to its spec (a new entry: one is never changed once made).
    func changing(_ change: (inout RegistrationSpec) -> Void) -> Self {
        var (copy, spec) = (self, entry.spec)
        change(&spec)
        copy.entry = Entry(spec)
        return copy
    }
}

/// Where the expression form of ``Registration`` lives (`Shared(RouterImpl() as Router)`).
///
/// An initializer of a protocol extension ranks below the type's own initializers, so
/// `Shared(Checkout.init)` picks the autowired initializer rather than registering the function
/// itself, and `Shared(RouterImpl.init)` picks `init()`. Not for use on its own.
public protocol _ExpressionRegistration {
    associatedtype Value
    /// Registers `make`: ``Registration``'s form for a function without parameters, which the
    /// expression form forwards to.
    init<each Alias>(
        _ make: @escaping () -> Value, as aliases: repeat (each Alias).Type, fileID: String, line: Int,
        isolation: isolated (any Actor)?)
}

extension Registration: _ExpressionRegistration {}

extension _ExpressionRegistration {
    /// Registers the value of an expression, evaluated when an instance is needed.
    ///
    ///     Shared(RouterImpl() as Router)
    ///     Shared(Engine(), as: Motor.self)
    @_disfavoredOverload
    public init<each Alias>(
        _ make: @autoclosure @escaping () -> Value, as aliases: repeat (each Alias).Type,
        fileID: String = #fileID, line: Int = #line, isolation: isolated (any Actor)? = #isolation
    ) {
        self.init(make, as: repeat each aliases, fileID: fileID, line: line, isolation: isolation)
    }
}

extension Registration where Scope == SharedLifetime {
    /// Makes the instance as soon as the `register` call that contains this registration
    /// returns (after the whole block is registered, so its dependencies may come later in it).
    ///
    /// If making it fails, `register` traps and `tryRegister` throws; either way nothing of the
    /// block is installed and no instance it made is kept. A non-throwing factory whose nested
    /// `resolve()` fails traps even in `tryRegister` (Swift cannot unwind through it); use
    /// `try resolve.tryResolve()` in factories of eager registrations.
    public func eager() -> Self { changing { $0.isEager = true } }
}

/// The factory of a registration that takes arguments (`Argument` is never empty).
@inlinable
func argumentsFactory<Value, each Argument>(
    isolation: Factory.Isolation, _ make: @escaping (Resolver, repeat each Argument) throws -> Value
) -> Factory {
    var parameterTypes: [any Any.Type] = []
    repeat parameterTypes.append((each Argument).self)
    return Factory(
        argumentType: (repeat each Argument).self, parameterTypes: parameterTypes, isolation: isolation,
        .sync { resolver, values in
            // The resolution path checked that the tuple is of `argumentType`.
            guard let arguments = values as? (repeat each Argument) else {
                preconditionFailure("DependencyInjection: arguments of the wrong type reached a factory.")
            }
            return AnyBox.holding(try make(resolver, repeat each arguments))
        })
}

/// The factory of a `@MainActor` registration that takes arguments.
private func mainActorArgumentsFactory<Value, Failure: Error, each Argument>(
    _ make: @escaping @MainActor (Resolver, repeat each Argument) throws(Failure) -> Value
) -> Factory {
    argumentsFactory(isolation: .mainActor) { (resolver: Resolver, argument: repeat each Argument) throws -> Value in
        try onMainActor((repeat each argument)) { (arguments: (repeat each Argument)) throws -> Value in
            try make(resolver, repeat each arguments)
        }
    }
}

/// Runs `body` with `input` on the main actor, which the resolution path checked this code runs on.
func onMainActor<Input, Value>(_ input: Input, _ body: @MainActor (Input) throws -> Value) throws -> Value {
    let input = Handoff(input)
    return try MainActor.assumeIsolated { Handoff(try body(input.value)) }.value
}

/// A registration with its types erased: what a container installs.
@usableFromInline
struct RegistrationSpec {
    // In this order, the one-byte fields fill the factory's last word: an entry is smaller by a
    // word (each entry's size counts at launch: its memory is touched for the first time then).
    let type: any Any.Type
    var name: String?
    var factory: Factory
    var lifetime: Lifetime
    var isEager = false
    let aliases: [AliasSpec]
    /// What few registrations have, out of line (see ``RegistrationExtras``).
    fileprivate var extras: RegistrationExtras?
    /// Where the registration was written, for listings and reports.
    let fileID: String
    let line: Int

    /// For `Scoped` registrations: the scope its instances belong to.
    var scope: DIScope? {
        get { extras?.scope }
        set { extras = RegistrationExtras(scope: newValue, onResolve: onResolve) }
    }
    var onResolve: [RegistrationExtras.Action] {
        get { extras?.onResolve ?? [] }
        set { extras = RegistrationExtras(scope: scope, onResolve: newValue) }
    }

    var key: Key { Key(type, name: name) }

    /// Whether its values are `Sendable`, where the registration's own initializer could tell: an
    /// async factory's (the async and global-actor initializers take only `Sendable` values); a
    /// module marks the rest at install (`Entry.State.isSendable`).
    var isSendable: Bool { factory.isAsync }

    /// Extras of its own, for another registration made from this one (a name) or another install of
    /// it (a module in two containers): a `withScope` run keeps an instance for each (see ``runKey``).
    mutating func ownExtras() {
        extras = extras.map { RegistrationExtras(scope: $0.scope, onResolve: $0.onResolve) }
    }

    /// What a `withScope` run keeps its instance under: the same for a container's copies
    /// (`withOverrides`, the test traits), which share the run's instance.
    var runKey: ObjectIdentifier { extras.map(ObjectIdentifier.init) ?? ObjectIdentifier(RegistrationExtras.self) }

    /// Whether making it needs `await` here: an async factory, or one isolated to an actor this
    /// code is not on. `eager()` leaves those to `prepare()`.
    var needsAwaiting: Bool {
        switch factory.isolation {
        case .none: factory.isAsync
        case .mainActor: !MainActorCheck.isOnMainActor
        case .globalActor: true
        }
    }

    /// The lifetime as a registration writes it: `Shared`, `New`, `Scoped(.session)`.
    var writtenLifetime: String { lifetime.description + (scope.map { "(.\($0.name))" } ?? "") }

    /// Where it was written: `App/Deps.swift:12`.
    var place: String { "\(fileID):\(line)" }

    /// `'Cache' (Shared, App/Deps.swift:12)`, with its actor if it has one: for messages naming two.
    var summary: String {
        let traits = [writtenLifetime, factory.isolation.actorName.map { "on \($0)" }, place]
        return "'\(key.displayName)' (\(traits.compactMap { $0 }.joined(separator: ", ")))"
    }

    /// What makes the registration of `entry` invalid, checked before anything is installed. Read
    /// field by field: passing the spec on would copy it.
    static func problem(of entry: Entry) -> ResolutionError? {
        let (type, name, aliases, key) = (entry.spec.type, entry.spec.name, entry.spec.aliases, entry.key)
        // `_isOptional` opens the metatype (a conformance check would search every conformance record
        // of the process the first time each type is registered: slow at app launch).
        if _isOptional(type) { return ResolutionError(reason: .optionalRegistration, key: key) }
        // A function as the service is almost always an initializer registered whole.
        if Conformance.isFunction(type) { return ResolutionError(reason: .functionRegistered, key: key) }
        if entry.spec.lifetime == .scoped, entry.spec.scope == nil {
            return ResolutionError(reason: .scopeMissing, key: key)
        }
        // An eager one is made by its register call, which has no arguments to give.
        if entry.spec.isEager, entry.spec.factory.takesArguments {
            let expected = Factory.describeArguments(entry.spec.factory.argumentType)
            return ResolutionError(reason: .argumentMismatch(expected: expected, received: "no arguments"), key: key)
                .with { $0.isEager = true }
        }
        // A main-actor service may conform through a main-actor-isolated conformance, which a cast
        // off the main actor does not see: there it is checked when resolved, on the main actor.
        if case .mainActor = entry.spec.factory.isolation, !MainActorCheck.isOnMainActor { return nil }
        for alias in aliases where Conformance.isSubtype(type, of: alias.type) == false {
            return ResolutionError(
                reason: .aliasNotConforming(implementation: TypeName.of(type)), key: Key(alias.type, name: name))
        }
        return nil
    }
}

/// What few registrations have (a scope, `onResolve` actions), out of line: one word in every
/// entry instead of three. Immutable: specs copied from one another share it, and changing one
/// makes a new one.
final class RegistrationExtras {
    let scope: DIScope?
    let onResolve: [Action]
    /// An `onResolve` action, with the actor its code needs, if any (it runs only there), and whether
    /// it throws (see `Factory.canUnwind`).
    typealias Action = (isolation: Factory.Isolation, canUnwind: Bool, run: (AnyBox, Resolver) throws -> Void)

    init(scope: DIScope?, onResolve: [Action]) { (self.scope, self.onResolve) = (scope, onResolve) }
}

/// One `as:` type of a registration: turns the registration's values into the alias type.
@usableFromInline
struct AliasSpec {
    @usableFromInline let type: any Any.Type
    /// A `Value` in, an `Alias` out; `nil` when the value is not an `Alias` (only where
    /// registration could not check conformance from the types).
    @usableFromInline let convert: (AnyBox) -> AnyBox?

    @inlinable
    init<Value, Alias>(_: Value.Type, as _: Alias.Type) {
        type = Alias.self
        convert = { value in
            guard value.holds(Value.self), let alias = value.value(as: Value.self) as? Alias else { return nil }
            return AnyBox.holding(alias)
        }
    }
}
