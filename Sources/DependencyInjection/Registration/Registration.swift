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
    let factory: Factory<Value>
    var name: String?
    var isEager = false
    var onResolveAction: ((Value, Resolver) throws -> Void)?
    var aliases: [AliasInstaller<Value>]
    let fileID: String
    let line: Int

    private init(
        factory: Factory<Value>, aliases: [AliasInstaller<Value>], fileID: String, line: Int
    ) {
        self.factory = factory
        self.aliases = aliases
        self.fileID = fileID
        self.line = line
    }

    private static func installers<each Alias>(_ aliases: repeat (each Alias).Type) -> [AliasInstaller<Value>] {
        var installers: [AliasInstaller<Value>] = []
        repeat installers.append(AliasInstaller(Value.self, as: each aliases))
        return installers
    }

    /// Registers the value of an expression, evaluated when an instance is needed.
    ///
    ///     Shared(RouterImpl() as Router)
    ///     Shared(Engine(), as: Motor.self)
    @_disfavoredOverload
    public init<each Alias>(
        _ make: @autoclosure @escaping () -> Value, as aliases: repeat (each Alias).Type,
        fileID: String = #fileID, line: Int = #line
    ) {
        self.init(
            factory: .plain { _ in make() }, aliases: Self.installers(repeat each aliases), fileID: fileID, line: line)
    }

    /// Registers a function without parameters, typically an initializer.
    ///
    ///     Shared(RouterImpl.init, as: Router.self, DeeplinkHandler.self)
    public init<each Alias>(
        _ make: @escaping () -> Value, as aliases: repeat (each Alias).Type,
        fileID: String = #fileID, line: Int = #line
    ) {
        self.init(
            factory: .plain { _ in make() }, aliases: Self.installers(repeat each aliases), fileID: fileID, line: line)
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
        self.init(factory: .plain(make), aliases: Self.installers(repeat each aliases), fileID: fileID, line: line)
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
            factory: .mainActor { _ in make() }, aliases: Self.installers(repeat each aliases), fileID: fileID,
            line: line)
    }

    /// Registers a `@MainActor` closure that resolves the value's own dependencies.
    public init<each Alias>(
        _ make: @escaping @MainActor (Resolver) throws -> Value, as aliases: repeat (each Alias).Type,
        fileID: String = #fileID, line: Int = #line
    ) {
        self.init(factory: .mainActor(make), aliases: Self.installers(repeat each aliases), fileID: fileID, line: line)
    }

    /// Registers a factory that takes arguments, supplied at resolution.
    ///
    ///     New({ resolve, id in ConcreteViewModel(id: id) }, as: ViewModelProtocol.self)
    ///     DIContainer.resolve(ViewModelProtocol.self, arguments: { "id_goes_here" })
    ///
    /// Any number of arguments of any types works; resolving with other argument types is a
    /// ``ResolutionError`` naming the expected and the received types.
    public init<First, each Rest, each Alias>(
        _ make: @escaping (Resolver, First, repeat each Rest) throws -> Value, as aliases: repeat (each Alias).Type,
        fileID: String = #fileID, line: Int = #line
    ) {
        self.init(
            factory: .arguments(ArgumentsFactory(make)),
            aliases: Self.installers(repeat each aliases), fileID: fileID, line: line)
    }

    /// The same registration under a name; several names of one type coexist.
    ///
    ///     Shared(PostgresStore.init, as: Store.self).named("primary")
    ///     DIContainer.resolve(Store.self, name: "primary")
    public func named(_ name: String) -> Self {
        var copy = self
        copy.name = name
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
        copy.onResolveAction = action
        return copy
    }
}

extension Registration where Scope == SharedLifetime {
    /// Makes the instance as soon as the `register` call that contains this registration
    /// returns (after the whole block is registered, so its dependencies may come later in it).
    public func eager() -> Self {
        var copy = self
        copy.isEager = true
        return copy
    }
}

extension Registration {
    var info: RegistrationInfo {
        var argumentTypes: [String] = []
        var isMainActor = false
        switch factory {
        case .plain: break
        case .mainActor: isMainActor = true
        case .arguments(let box): argumentTypes = box.argumentTypes
        }
        return RegistrationInfo(
            typeName: TypeName.of(Value.self), name: name, lifetime: Scope.lifetime,
            aliases: aliases.map(\.typeName), argumentTypes: argumentTypes, isMainActor: isMainActor,
            isEager: isEager, fileID: fileID, line: line)
    }

    /// The type-erased form the container installs.
    var plan: RegistrationPlan {
        let key = Key(Value.self, name: name)
        let info = self.info
        let factory = self.factory
        let onResolve = onResolveAction
        let aliases = self.aliases
        let name = self.name
        return RegistrationPlan(
            key: key, isEager: isEager,
            problem: {
                if Value.self is any OptionalResolvable.Type {
                    return ResolutionError(reason: .optionalRegistration, key: key)
                }
                return aliases.lazy.compactMap { $0.problem(name) }.first
            },
            makeEntries: {
                let root = RootEntry(
                    key: key, info: info, lifetime: Scope.lifetime, factory: factory, onResolve: onResolve)
                return [root] + aliases.compactMap { $0.makeEntry(root, name) }
            })
    }
}

/// Installs one alias of a registration: checks conformance up front and makes the alias entry.
struct AliasInstaller<Value> {
    let typeName: String
    let problem: (_ name: String?) -> ResolutionError?
    let makeEntry: (RootEntry<Value>, _ name: String?) -> AnyEntry?

    init<Alias>(_ value: Value.Type, as alias: Alias.Type) {
        typeName = TypeName.of(Alias.self)
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
            return AliasEntry<Value, Alias>(key: Key(Alias.self, name: name), target: root)
        }
    }
}

/// A registration with its types erased, ready to be installed in a container.
struct RegistrationPlan {
    let key: Key
    let isEager: Bool
    /// A problem that makes the registration invalid (checked before anything is installed).
    let problem: () -> ResolutionError?
    /// Fresh entries: the root first, then one per alias.
    let makeEntries: () -> [AnyEntry]
}
