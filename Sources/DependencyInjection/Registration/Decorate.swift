/// Wraps what every registration of `Value` in a container makes: logging, caching, retries,
/// from any module.
///
///     DIContainer.register {
///         Decorate(Payments.self) { payments, resolve in LoggingPayments(payments, logger: resolve()) }
///     }
///
/// A decorator applies to every registration of `Value` (every name) in the container it is
/// registered in, whenever it was registered, in the order the decorators were registered; it runs
/// when an instance is made, so a `Shared` one is decorated once. It decorates the registrations
/// whose type is `Value` (`Shared(StripePayments() as Payments)`, `New { … as Payments }`), test
/// overrides included; the registration's `as:` aliases are served by the decorated instance, and
/// its `onResolve` actions get the instance undecorated. A `Value` served only as an alias
/// (`Shared(StripePayments.init, as: Payments.self)`) is a ``ResolutionError`` when resolved: its
/// one instance serves every type it is registered as and cannot be decorated for one of them.
/// Several `Decorate`s of one type in one `register` call all apply, outermost last. A `Decorate`
/// applies once per container for the place it is written: registering its module again (or as
/// an override of itself) does not wrap the service twice, however the module is built.
public struct Decorate<Value>: @unchecked Sendable {
    // Unchecked for the same reason as `Registration`: the closure only runs under the resolution lock.
    let decorator: Decorator

    /// Decorates every `Value` the container makes with `decorate`.
    ///
    /// Like a factory, `decorate` keeps the isolation of the code it is written in: written in
    /// main-actor code, it runs only on the main actor, and decorating a value made elsewhere is a
    /// ``ResolutionError`` instead.
    public init<Failure: Error>(
        _ type: Value.Type, _ decorate: @escaping (Value, Resolver) throws(Failure) -> Value,
        fileID: String = #fileID, line: Int = #line, column: Int = #column,
        isolation: isolated (any Actor)? = #isolation
    ) {
        let site = "\(fileID):\(line):\(column)"
        decorator = Decorator(
            valueType: Value.self, site: site, isolation: .init(isolation), canUnwind: Failure.self != Never.self
        ) { resolver, made in
            // The values of a registration of `Value` are `Value`s (see `Factory`).
            AnyBox.holding(try decorate(made.value(as: Value.self), resolver))
        }
    }

    /// Decorates every `Value` the container makes with a `@MainActor` closure, which runs only on
    /// the main actor (decorators of main-actor services, written in any code).
    ///
    ///     Decorate(APIClient.self) { @MainActor client, resolve in try LoggingAPIClient(client, logger: resolve.tryResolve()) }
    public init<Failure: Error>(
        _ type: Value.Type, _ decorate: @escaping @MainActor (Value, Resolver) throws(Failure) -> Value,
        fileID: String = #fileID, line: Int = #line, column: Int = #column
    ) {
        let site = "\(fileID):\(line):\(column)"
        decorator = Decorator(
            valueType: Value.self, site: site, isolation: .mainActor, canUnwind: Failure.self != Never.self
        ) { resolver, made in
            // `keepMade` runs it only on the main actor.
            AnyBox.holding(try onMainActor((made.value(as: Value.self), resolver)) { try decorate($0.0, $0.1) })
        }
    }
}

/// A ``Decorate`` with its type erased: what a container keeps.
struct Decorator {
    let valueType: any Any.Type
    var type: ObjectIdentifier { ObjectIdentifier(valueType) }
    /// Where its `Decorate` was written: a module registered again (or as an override of itself)
    /// brings it again, which a container keeps once (see `DIContainer.install`).
    let site: String
    /// The actor its closure needs, if any: it runs only there.
    let isolation: Factory.Isolation
    /// `false` for a closure that does not throw: a failing `resolve()` in it can only trap (see `Factory`).
    let canUnwind: Bool
    let decorate: (Resolver, AnyBox) throws -> AnyBox
}
