/// How long a resolved instance lives.
public enum Lifetime: String, Sendable, CustomStringConvertible {
    /// One instance per container, made on first resolve (or at registration with `eager()`).
    case shared
    /// A new instance on every resolve.
    case new
    /// One instance while anything outside the container holds it; made anew after it is released.
    case weak
    /// One instance per top-level resolution, shared by everything that resolution makes.
    case graph
    /// One instance per ``DIScope`` in a container until ``DIContainer/releaseInstances(in:)-swift.type.method``, and
    /// one per run of ``DIContainer/withScope(_:_:)-swift.type.method`` inside such a run.
    case scoped

    /// Whether an instance is kept and handed out again (`Shared`, `Weak`, `Scoped`), so it is made
    /// once at a time.
    var keepsOne: Bool { self == .shared || self == .weak || self == .scoped }

    /// The lifetime as written in a registration: `Shared`, `New`, `Weak`, `Graph` or `Scoped`.
    public var description: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }

    /// How long one instance is shared, for `validate()`: 0 never (`New`: whoever resolves it owns it),
    /// 1 for one resolution (`Graph`), 4 for as long as the container or a holder wants it. A scope's
    /// lifetime is bounded in between: 2 for a run of a run-only scope (``DIScope/requiresRun``), 3
    /// for an ordinary scope (kept until released, or for a run).
    func sharingRank(in scope: DIScope? = nil) -> Int {
        [.new: 0, .graph: 1, .scoped: scope?.requiresRun == true ? 2 : 3][self] ?? 4
    }

    /// Whether a service of this lifetime (in `scope`, if `Scoped`) would keep a `dependency` instance
    /// (in `dependencyScope`) past its bounded lifetime: a `Shared` or `Weak` one outlives any `Scoped`
    /// one, an ordinary `Scoped` one outlives a run-only one, and everything but `New` outlives a `Graph` one.
    func outlives(_ dependency: Lifetime, scope: DIScope? = nil, dependencyScope: DIScope? = nil) -> Bool {
        let rank = dependency.sharingRank(in: dependencyScope)
        return (1..<4).contains(rank) && sharingRank(in: scope) > rank
    }
}

/// A marker type that selects a ``Lifetime`` for a ``Registration``.
///
/// You do not use these types directly: write ``Shared``, ``New``, ``Weak`` or ``Graph``.
public protocol DependencyLifetime {
    /// The lifetime this marker stands for.
    static var lifetime: Lifetime { get }
}

/// Selects ``Lifetime/shared``; see ``Shared``.
public enum SharedLifetime: DependencyLifetime {
    /// ``Lifetime/shared``.
    public static var lifetime: Lifetime { .shared }
}

/// Selects ``Lifetime/new``; see ``New``.
public enum NewLifetime: DependencyLifetime {
    /// ``Lifetime/new``.
    public static var lifetime: Lifetime { .new }
}

/// Selects ``Lifetime/weak``; see ``Weak``.
public enum WeakLifetime: DependencyLifetime {
    /// ``Lifetime/weak``.
    public static var lifetime: Lifetime { .weak }
}

/// Selects ``Lifetime/graph``; see ``Graph``.
public enum GraphLifetime: DependencyLifetime {
    /// ``Lifetime/graph``.
    public static var lifetime: Lifetime { .graph }
}

/// Selects ``Lifetime/scoped``; see ``Scoped``.
public enum ScopedLifetime: DependencyLifetime {
    /// ``Lifetime/scoped``.
    public static var lifetime: Lifetime { .scoped }
}

/// Registers one instance per container, made on first resolve.
///
///     DIContainer.register {
///         Shared(RouterImpl() as Router)
///         Shared(RouterImpl.init, as: Router.self, DeeplinkHandler.self)
///         Shared { resolve in Checkout(payments: resolve()) }
///         Shared(Database.init).eager()
///     }
public typealias Shared<Value> = Registration<Value, SharedLifetime>

/// Registers a factory that makes a new instance on every resolve.
///
///     DIContainer.register {
///         New(MockRouter() as Router)
///         New { _, id in ConcreteViewModel(id: id) as ViewModelProtocol }
///     }
public typealias New<Value> = Registration<Value, NewLifetime>

/// Registers a class instance that is shared while anyone outside the container holds it,
/// and made anew after it has been released.
///
///     DIContainer.register { Weak(ImageCache.init) }
public typealias Weak<Value> = Registration<Value, WeakLifetime>

/// Registers an instance that lives for one top-level resolution: every dependency made while
/// resolving one `resolve()` call shares it, and the next top-level call gets a new one.
///
///     DIContainer.register { Graph(Session.init) }
///
/// A resolution that passes through a parent container (a child's factory resolving a `Graph`
/// service the parent registers) shares the parent's instance too; other threads never see it.
public typealias Graph<Value> = Registration<Value, GraphLifetime>

/// Registers an instance kept per ``DIScope``: by its container until
/// ``DIContainer/releaseInstances(in:)-swift.type.method`` (a signed-in user's session), and inside
/// ``DIContainer/withScope(_:_:)-swift.type.method`` once per run (a server's request).
///
///     extension DIScope { static let session = DIScope("session") }
///     DIContainer.register {
///         Scoped(.session, UserSession.init)
///         Scoped(.session) { resolve in CartImpl(session: resolve()) as Cart }
///     }
///     DIContainer.releaseInstances(in: .session)   // sign-out: the next resolve makes new ones
///
/// Every form of ``Shared`` works, with the scope first; see <doc:Scopes>.
public typealias Scoped<Value> = Registration<Value, ScopedLifetime>
