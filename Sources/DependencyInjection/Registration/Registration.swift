/// One registration: how to make a `Value`, for how long to keep it, and under which types.
///
/// Write it through its lifetime aliases, ``Shared``, ``New``, ``Weak`` and ``Graph``:
///
///     DIContainer.register {
///         Shared(AppConfigurationImpl() as AppConfiguration)          // an expression, made lazily
///         Shared(RouterImpl.init, as: Router.self, DeeplinkHandler.self) // an initializer, with aliases
///         Shared { resolve in RouterImpl(config: resolve()) }           // a resolver closure
///         New { _, id in ConcreteViewModel(id: id) as ViewModelProtocol } // a factory with arguments
///     }
///
/// Registering again for a type, or for one of its aliases, replaces that one slot.
///
/// A registration is an immutable value and `Sendable`, like ``Module``: its factory runs under
/// the lock of the container that resolves it, whatever the factory captures.
public struct Registration<Value, Scope: DependencyLifetime>: @unchecked Sendable {
    /// Everything but the lifetime (which is `Scope`'s). Its only stored property, so that
    /// registering moves it whole into the root entry: generic code (a registration written in a
    /// generic function) then never copies or destroys a registration, which would cost a
    /// runtime metadata lookup each time.
    @usableFromInline var core: RegistrationCore<Value>

    @inlinable @inline(__always)
    init(
        factory: Factory<Value>, aliases: [AliasInstaller], fileID: String, line: Int
    ) {
        core = RegistrationCore(factory: factory, aliases: aliases, fileID: fileID, line: line)
    }

    /// Registers the value of an expression, evaluated when an instance is needed.
    ///
    ///     Shared(RouterImpl() as Router)
    ///     Shared(Engine(), as: Motor.self)
    @_disfavoredOverload
    // Inlined even into generic code: calling an initializer of a generic type costs the caller a
    // runtime metadata lookup for `Registration<Value, Scope>`.
    @inlinable @inline(__always)
    public init<each Alias>(
        _ make: @autoclosure @escaping () -> Value, as aliases: repeat (each Alias).Type,
        fileID: String = #fileID, line: Int = #line
    ) {
        self.init(
            factory: .simple(make), aliases: aliasInstallers(Value.self, repeat each aliases), fileID: fileID,
            line: line)
    }

    /// Registers a function without parameters, typically an initializer.
    ///
    ///     Shared(RouterImpl.init, as: Router.self, DeeplinkHandler.self)
    // Inlined even into generic code: calling an initializer of a generic type costs the caller a
    // runtime metadata lookup for `Registration<Value, Scope>`.
    @inlinable @inline(__always)
    public init<each Alias>(
        _ make: @escaping () -> Value, as aliases: repeat (each Alias).Type,
        fileID: String = #fileID, line: Int = #line
    ) {
        self.init(
            factory: .simple(make), aliases: aliasInstallers(Value.self, repeat each aliases), fileID: fileID,
            line: line)
    }

    /// Registers a closure that resolves the value's own dependencies.
    ///
    ///     Shared { resolve in RouterImpl(config: resolve()) }
    ///     Shared { resolve in try ConfiguredRouter(config: resolve.tryResolve()) }
    ///
    /// A throwing factory's error reaches ``DIContainer/tryResolve(_:name:)-swift.type.method`` as a
    /// ``ResolutionError`` that keeps the original error.
    public init<each Alias>(
        _ make: @escaping (Resolver) throws -> Value, as aliases: repeat (each Alias).Type,
        fileID: String = #fileID, line: Int = #line
    ) {
        self.init(
            factory: .plain(make), aliases: aliasInstallers(Value.self, repeat each aliases), fileID: fileID, line: line
        )
    }

    /// Registers a `@MainActor` function; it only ever runs on the main actor.
    ///
    ///     Shared { @MainActor in ProfileModel() }
    ///
    /// Resolving it anywhere else is a ``ResolutionError``, never a data race.
    public init<each Alias>(
        _ make: @escaping @MainActor () -> Value, as aliases: repeat (each Alias).Type,
        fileID: String = #fileID, line: Int = #line
    ) {
        self.init(
            factory: .mainActor { _ in make() }, aliases: aliasInstallers(Value.self, repeat each aliases),
            fileID: fileID,
            line: line)
    }

    /// Registers a `@MainActor` closure that resolves the value's own dependencies.
    public init<each Alias>(
        _ make: @escaping @MainActor (Resolver) throws -> Value, as aliases: repeat (each Alias).Type,
        fileID: String = #fileID, line: Int = #line
    ) {
        self.init(
            factory: .mainActor(make), aliases: aliasInstallers(Value.self, repeat each aliases), fileID: fileID,
            line: line)
    }

    /// Registers a factory that takes arguments, supplied at resolution.
    ///
    ///     New({ resolve, id in ConcreteViewModel(id: id) }, as: ViewModelProtocol.self)
    ///     DIContainer.resolve(ViewModelProtocol.self, arguments: { "id_goes_here" })
    ///
    /// Any number of arguments of any types works; resolving with other argument types is a
    /// ``ResolutionError`` naming the expected and the received types.
    @inlinable  // so the closure that reads the arguments is specialized where the types are known
    public init<First, each Rest, each Alias>(
        _ make: @escaping (Resolver, First, repeat each Rest) throws -> Value, as aliases: repeat (each Alias).Type,
        fileID: String = #fileID, line: Int = #line
    ) {
        self.init(
            factory: .arguments(ArgumentsFactory(make)),
            aliases: aliasInstallers(Value.self, repeat each aliases), fileID: fileID, line: line)
    }

    /// The same registration under a name; several names of one type coexist.
    ///
    ///     Shared(PostgresStore.init, as: Store.self).named("primary")
    ///     DIContainer.resolve(Store.self, name: "primary")
    public func named(_ name: String) -> Self {
        var copy = self
        copy.core.name = name
        return copy
    }

    /// Runs `action` for each new instance, once the resolution that made it has made
    /// everything it needs, and before that resolution returns.
    ///
    /// By the time `action` runs, every `Shared` instance of the resolution is made and kept,
    /// so two services can point at each other, whichever is resolved first:
    ///
    ///     Shared(Parent.init).onResolve { parent, resolve in parent.child = resolve() }
    ///     Shared { resolve in Child(parent: resolve()) }
    ///
    /// An action that needs a new instance of its own registration (a `New` on both sides) is
    /// still a dependency cycle, reported with its path.
    public func onResolve(_ action: @escaping (Value, Resolver) throws -> Void) -> Self {
        var copy = self
        copy.core.onResolveAction = action
        return copy
    }
}

extension Registration where Scope == SharedLifetime {
    /// Makes the instance as soon as the `register` call that contains this registration
    /// returns (after the whole block is registered, so its dependencies may come later in it).
    public func eager() -> Self {
        var copy = self
        copy.core.isEager = true
        return copy
    }
}

/// A registration without its lifetime: what a root entry keeps of it.
@usableFromInline
struct RegistrationCore<Value> {
    @usableFromInline let factory: Factory<Value>
    @usableFromInline var name: String?
    @usableFromInline var onResolveAction: ((Value, Resolver) throws -> Void)?
    @usableFromInline var aliases: [AliasInstaller]
    /// Where the registration was written, for listings and reports.
    @usableFromInline let fileID: String
    @usableFromInline let line: Int
    @usableFromInline var isEager = false

    @inlinable @inline(__always)
    init(factory: Factory<Value>, aliases: [AliasInstaller], fileID: String, line: Int) {
        self.factory = factory
        self.aliases = aliases
        self.fileID = fileID
        self.line = line
    }
}

extension Registration: RegistrationPlan {
    var isEager: Bool { core.isEager }

    func problem() -> ResolutionError? {
        registrationProblem(Key(Value.self, name: core.name), aliases: core.aliases)
    }

    func install(into table: inout RegistrationTable, replaced: inout [AnyEntry]) -> any RootRegistration {
        // A module may be registered again (in another container): each install makes its own root.
        let root = makeRootEntry(core, lifetime: Scope.lifetime)
        installEntries(root: root, aliases: core.aliases, name: core.name, into: &table, replaced: &replaced)
        return root
    }
}

// The helpers below are free functions taking the registered type explicitly, not methods of
// `Registration`: a method of a generic type receives its `Self` metadata, which generic callers
// (a registration written in generic code) must ask the runtime for on every call.

/// The installers for `aliases` of a registration of `Value`.
@usableFromInline
func aliasInstallers<Value, each Alias>(_ value: Value.Type, _ aliases: repeat (each Alias).Type) -> [AliasInstaller] {
    var installers: [AliasInstaller] = []
    repeat installers.append(AliasInstaller(Value.self, as: each aliases))
    return installers
}

/// A problem that makes a registration for `key` invalid, checked before anything is installed.
func registrationProblem(_ key: Key, aliases: [AliasInstaller]) -> ResolutionError? {
    if Conformance.isOptional(key.type) {
        return ResolutionError(reason: .optionalRegistration, key: key)
    }
    for alias in aliases {
        if let problem = alias.problem(key.name) { return problem }
    }
    return nil
}

/// The root entry of a registration, not yet installed. Takes the registration's core by
/// value, so a caller that gives it up moves it in.
@usableFromInline
func makeRootEntry<Value>(_ core: __owned RegistrationCore<Value>, lifetime: Lifetime) -> RootEntry<Value> {
    // The class comes from a per-thread table rather than the runtime's (see RootEntryTypes).
    RootEntryTypes.rootEntryType(for: Value.self).init(
        key: Key(Value.self, name: core.name), lifetime: lifetime, core: core)
}

/// Installs `root`, then one alias entry per installer; replaced entries go to `replaced`.
/// Not generic, so registering runs no unspecialized generic code beyond making the root.
func installEntries(
    root: AnyEntry, aliases: [AliasInstaller], name: String?, into table: inout RegistrationTable,
    replaced: inout [AnyEntry]
) {
    if let old = table.set(root, for: root.key) { replaced.append(old) }
    for alias in aliases {
        guard let entry = alias.makeEntry(root, name) else { continue }
        if let old = table.set(entry, for: entry.key) { replaced.append(old) }
    }
}

/// Installs one alias of a registration: checks conformance up front and makes the alias entry.
///
/// Not generic over the registered type (the closures know it), so a registration's fields
/// need no generic metadata of their own.
@usableFromInline
struct AliasInstaller {
    let type: any Any.Type
    let problem: (_ name: String?) -> ResolutionError?
    /// Makes the alias entry for a root entry that is a `RootEntry<Value>`.
    let makeEntry: (AnyEntry, _ name: String?) -> AnyEntry?

    @usableFromInline
    init<Value, Alias>(_ value: Value.Type, as alias: Alias.Type) {
        type = Alias.self
        problem = { name in
            // When conformance cannot be told from types alone, the alias entry's cast reports
            // a mismatch at resolution instead.
            guard Conformance.isSubtype(Value.self, of: Alias.self) != false else {
                return ResolutionError(
                    reason: .aliasNotConforming(implementation: TypeName.of(Value.self)),
                    key: Key(Alias.self, name: name))
            }
            return nil
        }
        makeEntry = { root, name in
            // Registering a type as itself adds nothing: the root entry already serves it.
            guard Alias.self != Value.self else { return nil }
            // The root was made by the registration of `Value` that holds this installer.
            return AliasEntry<Value, Alias>(
                key: Key(Alias.self, name: name), target: unsafeDowncast(root, to: RootEntry<Value>.self))
        }
    }
}

/// A registration with its types erased, ready to be installed in a container.
/// An eager registration whose root entry is already made: installable once (`register` of one
/// eager registration, which takes the module path for its rollback).
struct PreparedRegistration: RegistrationPlan {
    let root: any RootRegistration
    let aliases: [AliasInstaller]
    let preparedProblem: ResolutionError?

    init(root: any RootRegistration, aliases: [AliasInstaller], problem: ResolutionError?) {
        self.root = root
        self.aliases = aliases
        preparedProblem = problem
    }

    /// Only eager registrations take this path.
    var isEager: Bool { true }

    func problem() -> ResolutionError? { preparedProblem }

    func install(into table: inout RegistrationTable, replaced: inout [AnyEntry]) -> any RootRegistration {
        installEntries(root: root, aliases: aliases, name: root.key.name, into: &table, replaced: &replaced)
        return root
    }
}

protocol RegistrationPlan {
    var isEager: Bool { get }
    /// A problem that makes the registration invalid (checked before anything is installed).
    func problem() -> ResolutionError?
    /// Installs fresh entries, the root first, then one per alias; returns the root.
    func install(into table: inout RegistrationTable, replaced: inout [AnyEntry]) -> any RootRegistration
}
