/// A group of registrations that can be registered together and nested in other groups.
///
///     let featureOne = Module {
///         Shared(FeatureOneImplementation() as FeatureOne)
///         New(FeatureOneViewModelImplementation() as FeatureOneViewModel)
///     }
///     let featureTwo = Module(Shared(FeatureTwoImplementation() as FeatureTwo))
///     DIContainer.register {
///         featureOne
///         featureTwo
///     }
///
/// A module is an immutable value, so it can be a global or a static property (it is
/// `Sendable`). Registered in several containers, its synchronous factories still never run
/// concurrently with themselves: every one runs under the library's resolution lock.
public struct Module: @unchecked Sendable {
    // Unchecked for the same reason as `Registration`.
    /// A module of one registration: its entry (taken by the container that installs it).
    @usableFromInline var entry: Entry?
    /// That registration's values are `Sendable` (the builder's overloads for `Sendable` values say
    /// so, where the registration could not tell).
    var isSendable = false
    /// Its ``Decorate`` elements, in order (never duplicates of each other: each one applies).
    var decorators: [Decorator] = []
    /// The lines of a block. A block keeps its lines as they are, so that joining blocks copies
    /// nothing (see ``takeEntries(into:numberedFrom:)``).
    var lines: [Module] = []

    /// Not generic, so that the inlinable initializers below run no generic code here.
    @usableFromInline
    init(entry: Entry, isSendable: Bool) { (self.entry, self.isSendable) = (entry, isSendable) }

    init(decorators: [Decorator] = []) { self.decorators = decorators }

    /// How deep its blocks nest: 0 without lines, at most 16 (see ``init(joining:)``).
    var depth = 0

    /// A block of `components`, in order. Blocks nest as the builder nests them, so that joining
    /// copies nothing; from 16 levels on (a module folded over and over: `Module { folded; next }`),
    /// a component that is a block itself gives its lines instead, so that taking the entries of a
    /// module, binding it or releasing it never recurses deeper than that.
    init(joining components: [Module]) {
        lines = components
        if components.contains(where: { $0.depth >= 16 }) {
            lines = components.flatMap { $0.entry == nil && $0.decorators.isEmpty ? $0.lines : [$0] }
        }
        depth = 1 + lines.reduce(0) { max($0, $1.depth) }
    }

    /// Takes its registrations' entries (its lines' too, in order), numbered from `sequence` on, and
    /// its decorators. Lock held. An entry nothing else holds (a registration written in the
    /// builder's block) is installed as it is: a launch's hundreds of registrations allocate
    /// nothing more here; one a stored registration or module still holds, or that a container
    /// installed already, is copied.
    mutating func takeEntries(into entries: inout [Entry], numberedFrom sequence: Int) -> [Decorator] {
        let isUnique = isKnownUniquelyReferenced(&entry)
        if var made = entry.take() {
            if !isUnique || made.state.sequence != 0 { made = made.freshCopy(installed: true) }
            made.state.sequence = sequence + entries.count
            made.state.isSendable = made.state.isSendable || isSendable
            entries.append(consume made)
        }
        var decorators = decorators
        for index in lines.indices {
            let inner = lines[index].takeEntries(into: &entries, numberedFrom: sequence)
            if !inner.isEmpty { decorators += inner }
        }
        return decorators
    }

    /// The module with its non-`Sendable` nonisolated synchronous registrations bound to `actor`, an
    /// actor instance whose method wrote them (Swift isolates a closure there only if it uses the
    /// actor, so `#isolation` did not tell); global actors' closures are isolated already.
    consuming func bound(to actor: (any Actor)?) -> Module {
        if let actor, !(type(of: actor) is any GlobalActor.Type) { bind(to: actor) }
        return self
    }

    private mutating func bind(to actor: any Actor) {
        if let made = entry, !isSendable, case .none = made.spec.factory.isolation, !made.spec.factory.isAsync {
            var spec = made.spec
            spec.factory.isolation = .init(actor)
            entry = Entry(spec)
        }
        for index in lines.indices { lines[index].bind(to: actor) }
    }

    /// A module of the registrations and modules the builder lists.
    public init(@RegistrationBuilder _ content: () -> Module, isolation: isolated (any Actor)? = #isolation) {
        self = content().bound(to: isolation)
    }

    /// A module of one registration.
    @inlinable
    public init<Value, Scope>(_ registration: consuming Registration<Value, Scope>) {
        self.init(entry: registration.entry, isSendable: false)
    }

    /// A module of one registration of a `Sendable` value (which may then leave the actor it is made on).
    @inlinable
    public init<Value: Sendable, Scope>(_ registration: consuming Registration<Value, Scope>) {
        self.init(entry: registration.entry, isSendable: true)
    }
}

/// Builds a ``Module`` from registrations and modules, with `if`, `if/else`, `for` and `#if`.
///
/// It is also where the registrations learn whether their values are `Sendable` (Swift has no
/// run-time check for it): the overloads constrained to `Sendable` values say so, and such a value
/// made by main-actor (or other actor-isolated) code may be resolved anywhere; any other stays
/// on the actor that made it.
@resultBuilder
public enum RegistrationBuilder {
    /// Makes a registration a module of one.
    @inlinable
    public static func buildExpression<Value, Scope>(_ registration: consuming Registration<Value, Scope>) -> Module {
        Module(registration)
    }

    /// Makes a registration of a `Sendable` value a module of one.
    @inlinable
    public static func buildExpression<Value: Sendable, Scope>(_ registration: consuming Registration<Value, Scope>)
        -> Module
    {
        Module(registration)
    }

    /// Makes a decorator a module of one.
    public static func buildExpression<Value>(_ decorate: Decorate<Value>) -> Module {
        Module(decorators: [decorate.decorator])
    }

    /// Takes a module as it is, so modules nest.
    public static func buildExpression(_ module: Module) -> Module { module }

    /// Joins the lines of a block, in order.
    public static func buildBlock(_ components: Module...) -> Module { Module(joining: components) }

    /// Joins the modules a `for` loop made, in order.
    public static func buildArray(_ components: [Module]) -> Module { Module(joining: components) }

    /// An `if` without `else`: its module, or nothing.
    public static func buildOptional(_ component: Module?) -> Module { component ?? Module() }

    /// The first branch of an `if`/`else` or `switch`.
    public static func buildEither(first component: Module) -> Module { component }

    /// The second branch of an `if`/`else` or `switch`.
    public static func buildEither(second component: Module) -> Module { component }

    /// A block inside `if #available`.
    public static func buildLimitedAvailability(_ component: Module) -> Module { component }
}
