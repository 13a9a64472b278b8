/// The forms of ``Scoped``: each form of ``Shared``, with the ``DIScope`` first, forwarding to it.
///
///     Scoped(.session, UserSession.init)                              // autowired
///     Scoped(.session) { resolve in CartImpl(session: resolve()) as Cart }
///     Scoped(.request, RequestContext(), as: Context.self).named("main") // an expression, aliases, a name
///     New { resolve, id in … }  →  Scoped(.session) { resolve, id in … }   // arguments
extension Registration where Scope == ScopedLifetime {
    /// `registration`, kept per `scope`.
    init(_ scope: DIScope, _ registration: Self) { self = registration.changing { $0.scope = scope } }

    /// Registers a function without parameters, typically an initializer, in `scope`.
    public init<Failure: Error, each Alias>(
        _ scope: DIScope, _ make: @escaping () throws(Failure) -> Value, as aliases: repeat (each Alias).Type,
        fileID: String = #fileID, line: Int = #line, isolation: isolated (any Actor)? = #isolation
    ) { self.init(scope, Self(make, as: repeat each aliases, fileID: fileID, line: line, isolation: isolation)) }

    /// Registers a closure that resolves the value's own dependencies, in `scope`.
    public init<each Alias>(
        _ scope: DIScope, _ make: @escaping (Resolver) throws -> Value, as aliases: repeat (each Alias).Type,
        fileID: String = #fileID, line: Int = #line, isolation: isolated (any Actor)? = #isolation
    ) { self.init(scope, Self(make, as: repeat each aliases, fileID: fileID, line: line, isolation: isolation)) }

    /// Registers an initializer whose parameters are registered services, in `scope`.
    ///
    /// Disfavored, as `Shared`'s is: its `@MainActor` twin is disfavored too (below), and this form
    /// must rank no higher, so that `Scoped(.session, Model.init)` of a main-actor `Model` picks the twin.
    @_disfavoredOverload
    public init<Failure: Error, First, each Rest, each Alias>(
        _ scope: DIScope, _ make: @escaping (First, repeat each Rest) throws(Failure) -> Value,
        as aliases: repeat (each Alias).Type,
        fileID: String = #fileID, line: Int = #line, isolation: isolated (any Actor)? = #isolation
    ) { self.init(scope, Self(make, as: repeat each aliases, fileID: fileID, line: line, isolation: isolation)) }

    /// Registers a factory that takes arguments, in `scope` (the first instance is kept).
    public init<First, each Rest, each Alias>(
        _ scope: DIScope, _ make: @escaping (Resolver, First, repeat each Rest) throws -> Value,
        as aliases: repeat (each Alias).Type, fileID: String = #fileID, line: Int = #line,
        isolation: isolated (any Actor)? = #isolation
    ) { self.init(scope, Self(make, as: repeat each aliases, fileID: fileID, line: line, isolation: isolation)) }

    /// Registers a `@MainActor` function in `scope`; it only ever runs on the main actor.
    public init<Failure: Error, each Alias>(
        _ scope: DIScope, _ make: @escaping @MainActor () throws(Failure) -> Value,
        as aliases: repeat (each Alias).Type, fileID: String = #fileID, line: Int = #line
    ) { self.init(scope, Self(make, as: repeat each aliases, fileID: fileID, line: line)) }

    /// Registers a `@MainActor` closure that resolves the value's own dependencies, in `scope`.
    public init<Failure: Error, each Alias>(
        _ scope: DIScope, _ make: @escaping @MainActor (Resolver) throws(Failure) -> Value,
        as aliases: repeat (each Alias).Type, fileID: String = #fileID, line: Int = #line
    ) { self.init(scope, Self(make, as: repeat each aliases, fileID: fileID, line: line)) }

    /// Registers a `@MainActor` initializer whose parameters are registered services, in `scope`.
    ///
    /// Disfavored, as `Shared`'s is: `{ @MainActor (_: Resolver, id: String) in … }` is then the
    /// factory that takes arguments.
    @_disfavoredOverload
    public init<Failure: Error, First, each Rest, each Alias>(
        _ scope: DIScope, _ make: @escaping @MainActor (First, repeat each Rest) throws(Failure) -> Value,
        as aliases: repeat (each Alias).Type, fileID: String = #fileID, line: Int = #line
    ) { self.init(scope, Self(make, as: repeat each aliases, fileID: fileID, line: line)) }

    /// Registers a `@MainActor` factory that takes arguments, in `scope`.
    public init<Failure: Error, First, each Rest, each Alias>(
        _ scope: DIScope, _ make: @escaping @MainActor (Resolver, First, repeat each Rest) throws(Failure) -> Value,
        as aliases: repeat (each Alias).Type, fileID: String = #fileID, line: Int = #line
    ) { self.init(scope, Self(make, as: repeat each aliases, fileID: fileID, line: line)) }

    /// Registers a function isolated to a global actor, in `scope` (made on that actor).
    public init<each Alias>(
        _ scope: DIScope, _ make: @Sendable @escaping @isolated(any) () -> Value,
        as aliases: repeat (each Alias).Type, fileID: String = #fileID, line: Int = #line
    ) where Value: Sendable { self.init(scope, Self(make, as: repeat each aliases, fileID: fileID, line: line)) }

    /// Registers an async factory in `scope`: each instance is made by awaiting it.
    public init(
        _ scope: DIScope,
        @_inheritActorContext _ make: @Sendable @escaping @isolated(any) (Resolver) async throws -> Value,
        fileID: String = #fileID, line: Int = #line
    ) where Value: Sendable { self.init(scope, Self(make, fileID: fileID, line: line)) }

    /// Registers an async factory in `scope`, under other types too.
    public init<each Alias>(
        _ scope: DIScope,
        @_inheritActorContext _ make: @Sendable @escaping @isolated(any) (Resolver) async throws -> Value,
        as aliases: repeat (each Alias).Type, fileID: String = #fileID, line: Int = #line
    ) where Value: Sendable { self.init(scope, Self(make, as: repeat each aliases, fileID: fileID, line: line)) }
}

/// Where the expression form of ``Scoped`` lives (`Scoped(.request, RequestContext())`), as
/// ``_ExpressionRegistration`` holds `Shared`'s: an initializer of a protocol extension ranks
/// below every form of `Scoped`, so `Scoped(.session, Checkout.init)` picks the autowired form.
/// Not for use on its own.
public protocol _ScopedExpressionRegistration {
    associatedtype Value
    /// Registers `make` in `scope`: ``Scoped``'s form for a function without parameters, which the
    /// expression form forwards to.
    init<each Alias>(
        _ scope: DIScope, _ make: @escaping () -> Value, as aliases: repeat (each Alias).Type, fileID: String,
        line: Int, isolation: isolated (any Actor)?)
}

extension Registration: _ScopedExpressionRegistration where Scope == ScopedLifetime {}

extension _ScopedExpressionRegistration {
    /// Registers the value of an expression in `scope`, evaluated when an instance is needed.
    @_disfavoredOverload
    public init<each Alias>(
        _ scope: DIScope, _ make: @autoclosure @escaping () -> Value, as aliases: repeat (each Alias).Type,
        fileID: String = #fileID, line: Int = #line, isolation: isolated (any Actor)? = #isolation
    ) { self.init(scope, make, as: repeat each aliases, fileID: fileID, line: line, isolation: isolation) }
}
