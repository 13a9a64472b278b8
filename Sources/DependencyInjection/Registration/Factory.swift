/// How a registration makes its value, with the types erased: what the container stores.
///
/// Values travel as ``AnyBox`` objects, so that handing one back as the registered type is a
/// comparison of types and a copy (a protocol existential put in `Any` would be opened, and getting
/// it back would need a conformance lookup every time), and keeping or passing one on is a retain.
@usableFromInline
struct Factory: @unchecked Sendable {
    // Unchecked: `sync` is not `@Sendable`. It is only ever called with the process-wide
    // resolution lock held (see `Resolution`), so it never runs concurrently with itself, even
    // when one registration is installed in several containers; `async` is `@Sendable`.

    /// The actor a factory's code needs, read from the closure as the user wrote it.
    @usableFromInline
    enum Isolation: Sendable {
        case none
        case mainActor
        /// Another global actor (`{ @DatabaseActor in … }`), or an actor instance whose method wrote
        /// the registration: held weakly, as a registration must not keep that actor alive.
        case globalActor(ActorReference)

        @usableFromInline
        init(_ actor: (any Actor)?) {
            self = actor.map { $0 === MainActor.shared ? .mainActor : .globalActor(ActorReference($0)) } ?? .none
        }

        /// The actor its code needs, if any (`nil` too for an actor instance that is gone).
        var actor: (any Actor)? {
            switch self {
            case .none: nil
            case .mainActor: MainActor.shared
            case .globalActor(let reference): reference.actor
            }
        }

        var isMainActor: Bool { if case .mainActor = self { true } else { false } }
        var isNone: Bool { if case .none = self { true } else { false } }

        /// The actor's name, for messages (made from its type each time); `nil` for none.
        var actorName: String? {
            switch self {
            case .none: nil
            case .mainActor: "MainActor"
            case .globalActor(let reference): TypeName.of(reference.type)
            }
        }
    }

    /// An actor held weakly (a global actor's `shared` lives forever; an instance may go), with its
    /// type, for messages once it is gone.
    @usableFromInline
    final class ActorReference: Sendable {
        weak let actor: (any Actor)?
        let type: any Actor.Type

        init(_ actor: any Actor) { (self.actor, type) = (actor, Swift.type(of: actor)) }
    }

    @usableFromInline
    enum Make {
        case sync((Resolver, Any) throws -> AnyBox)
        case async(@Sendable (Resolver) async throws -> sending AnyBox)
    }

    /// The type of the arguments' tuple, `Void` for a factory without arguments.
    let argumentType: any Any.Type
    /// The type of each argument, for listings (a tuple's type does not tell its elements apart
    /// from one argument of a function type).
    let parameterTypes: [any Any.Type]
    var isolation: Isolation
    let make: Make
    /// `false` for a closure that takes a resolver and does not throw: a failing `resolve()` in it
    /// can only trap, so `validate()` runs it only where it can park the thread (`validate()` sets it
    /// `false` too for a registration with a decorator or an action that cannot unwind).
    var canUnwind: Bool
    /// A synchronous closure of a global actor (`{ @DatabaseActor in Database() }`), made by
    /// awaiting it: `prepare()` makes these first, so that async factories may `resolve()` them.
    var isActorClosure = false

    @usableFromInline
    init(
        argumentType: any Any.Type = Void.self, parameterTypes: [any Any.Type] = [], isolation: Isolation = .none,
        canUnwind: Bool = true, _ make: Make
    ) {
        (self.argumentType, self.parameterTypes, self.isolation) = (argumentType, parameterTypes, isolation)
        (self.canUnwind, self.make) = (canUnwind, make)
    }

    /// An async factory. Calling it runs it on its closure's actor, if it has one; the isolation
    /// recorded here tells `validate()` where it runs. Its values are `Sendable`, so once made they
    /// are handed out anywhere.
    init<Value: Sendable>(async make: @Sendable @escaping @isolated(any) (Resolver) async throws -> Value) {
        self.init(isolation: Isolation(make.isolation), .async { resolver in AnyBox.holding(try await make(resolver)) })
    }

    var isAsync: Bool { if case .async = make { true } else { false } }

    /// Made by awaiting it: an async factory, or one isolated to an actor. `prepare()` makes these (a
    /// `Shared` one), and a `validate()` copy keeps what its source made of them.
    var isAwaited: Bool { isAsync || isolation.actor != nil }

    var takesArguments: Bool { argumentType != Void.self }

    /// Describes a tuple type of arguments: `no arguments`, `(String)`, `(String, Int)`.
    static func describeArguments(_ type: any Any.Type) -> String {
        let name = TypeName.of(type)
        if name == "()" { return "no arguments" }
        return name.hasPrefix("(") ? name : "(\(name))"
    }
}

/// The arguments of one resolution: the tuple the caller's closure returned, and its type.
@usableFromInline
struct Arguments {
    @usableFromInline let type: any Any.Type
    @usableFromInline let values: Any

    @usableFromInline
    static var none: Arguments { Arguments { () } }

    /// The tuple `values` returns, with its type.
    @inlinable
    init<each Argument>(_ values: () -> (repeat each Argument)) {
        type = (repeat each Argument).self
        self.values = values()
    }

    var isEmpty: Bool { type == Void.self }
}
