/// Every problem this package reports: a missing registration, a cycle, wrong arguments, a
/// registration that cannot be right, or an error thrown by a factory.
///
/// `tryResolve` and `tryRegister` throw it; `resolve` and `register` trap with exactly its
/// ``description``, which names the type, the name, the resolution path and what to do:
///
///     No registration for 'Router'.
///     Resolution path: CheckoutScreen -> PaymentService -> Router
///     Registered types that conform: 'RouterImpl'.
///     To fix, register it: DIContainer.register { Shared(RouterImpl.init, as: Router.self) }
public struct ResolutionError: Error, CustomStringConvertible, Sendable {
    /// What went wrong.
    public enum Reason: Sendable, Equatable {
        /// Nothing is registered for the type and name.
        case missingRegistration
        /// Factories that need each other; `cycle` lists the steps, first and last alike.
        case dependencyCycle(cycle: [String])
        /// The arguments given do not match the factory's parameters.
        case argumentMismatch(expected: String, received: String)
        /// A registration's alias is a type its instance does not conform to.
        case aliasNotConforming(implementation: String)
        /// An `Optional` type was registered.
        case optionalRegistration
        /// The factory (or a `Decorate` or `onResolve` action of it) threw ``ResolutionError/underlyingError``.
        case factoryFailed
        /// A value made or handed out by main-actor code (a `@MainActor` factory, or a `Decorate` or
        /// `onResolve` action written on the main actor) was needed off the main actor.
        case mainActorRequired
        /// A value that is not `Sendable`, made by a factory isolated to `actor`, was resolved
        /// elsewhere: it never leaves that actor through the container.
        case notSendable(actor: String)
        /// A `Weak` registration made a value that is not a class instance.
        case weakRequiresClass(instanceType: String)
        /// A factory tried to change the container that is running it.
        case mutationDuringResolution(operation: String)
        /// An async factory (a main-actor one too), or one isolated to another actor (a global actor,
        /// or the actor instance whose method registered it), has not made its instance yet, and a
        /// synchronous resolve cannot wait for it; `actor` names that actor, if any.
        case notYetMade(actor: String?)
        /// The resolution was `depth` steps deep and could go no deeper: past 1,000 steps, or with
        /// too little of the thread's stack left (a chain that long, or a cycle through that many
        /// registrations).
        case tooDeep(depth: Int)
        /// The registered service is a function type: usually an initializer registered whole.
        case functionRegistered
        /// A factory's argument types were inferred as metatypes (`Any.Type`), which no caller means.
        case argumentInferredAsMetatype(String)
        /// The type has a ``Decorate`` and is served, as an `as:` alias, by a registration of `implementation`.
        case decoratedAlias(implementation: String)
        /// `validate()`: `registration` keeps an instance of `dependency`, which lives shorter (a `Graph`,
        /// or a `Scoped` one: see `Lifetime.outlives`).
        case lifetimeMismatch(registration: String, dependency: String)
        /// `validate()`: `registration` runs on any thread and needs `dependency`, which it cannot
        /// get there even after `prepare()` (a `New` or non-`Sendable` service of an actor).
        case isolationConflict(registration: String, dependency: String)
        /// `validate()`: one `register` call or `Module` registers the type and name twice; the second replaces the first.
        case duplicateRegistration(first: String, second: String)
        /// A service of a run-only ``DIScope`` (`requiresRun`) was resolved outside a run of `scope`.
        case scopeRunRequired(scope: String)
        /// A `Scoped` registration was written without its ``DIScope`` (`Scoped { … }`).
        case scopeMissing
        /// A non-`Sendable` registration written in a method of an instance of `actor` (bound to
        /// that instance) was resolved after the instance was deinitialized.
        case actorReleased(actor: String)

        var isIsolationConflict: Bool { if case .isolationConflict = self { true } else { false } }
        /// An actor's service asked for where it cannot be had.
        var isIsolation: Bool {
            switch self {
            case .mainActorRequired, .notYetMade, .notSendable: true
            default: false
            }
        }
    }

    /// What the error says.
    struct Details: Sendable {
        var reason: Reason
        var key: Key
        var path: [String] = []
        var underlyingError: (any Error)?
        var conformingTypes: [String] = []
        var similarTypes: [String] = []
        var registeredNames: [String] = []
        /// How to reach the container to register in: `DIContainer` (static API) or `container`.
        var containerSpelling = "DIContainer"
        /// For a dependency a parent looked for while making a service asked of a child: that service.
        var madeByParent: String?
        /// For an actor's service: whether its value is `Sendable` (it may then leave the actor).
        var isSendable = true
        /// For a main-actor service: what main-actor code it needs, when not its factory.
        var mainActorCode: String?
        /// For a main-actor service asked for through an `as:` alias: the type its factory makes.
        var servedThrough: String?
        /// The lifetime as written (`Shared`, `New`, `Scoped(.session)`) of the registration a fix rewrites:
        /// with `servedThrough`, the dependency's; for an async factory's isolation conflict, the registration's own.
        var servedLifetime = "Shared"
        /// For an isolation conflict: the dependency, as the registration asks for it (through an
        /// `as:` alias when `servedThrough` is set).
        var conflictKey: Key?
        /// For an isolation conflict: the dependency's actor; `nil` for a nonisolated async factory's.
        var conflictActor: String? = "MainActor"
        /// For an isolation conflict: the registration's lifetime as written (that of its isolated form).
        var conflictLifetime = "Shared"
        /// A Sendable main-actor service asked for off the main actor at top level, or in a resolve an
        /// async factory's code made that kept nothing, never on a probe's thread: the resolve is made
        /// again on the main actor for the caller (see `MainActorHop`), never shown to users.
        var asksForMainActor = false
        /// A registered name close to the requested one (a typo).
        var similarName: String?
        /// A name was asked for, and the type is registered without one.
        var isRegisteredUnnamed = false
        /// A conforming value type registered as itself (`Shared { Circle() }` where `any Shape` is needed),
        /// named as source outside it spells it (`TypeName.qualified`).
        var conformingValueType: String?
        /// The first of `conformingTypes`, named as source outside it spells it (`Feature.Stripe`).
        var conformingImplementation: String?
        /// A concrete argument given for an existential parameter: `Circle` for `any Shape`.
        var existentialArgument: (given: String, expected: String)?
        /// The property wrapper whose resolve failed, as `file:line` of its declaration.
        var declaration: String?
        /// For a registration refused when registered: where it was written, as `fileID:line`.
        var registeredAt: String?
        /// That wrapper asked for the key of this error itself: a fix of its name goes in the wrapper.
        var isWrapperRequest = false
        /// A cycle that such a wrapper's owner is on: making the wrapper lazy breaks it.
        var isWrapperCycle = false
        /// For a decorated alias: the global actor (the main actor too) its factory's code is isolated
        /// to, which a fix writes as such.
        var factoryActor: String?
        /// A `Decorate` of the type, which its container does not register: it never runs.
        var decoratesNothing = false
        /// That type is registered, as itself, by an ancestor of the container (where the `Decorate` belongs).
        var decoratesAncestorsType = false
        /// For ``Reason/factoryFailed``: what threw.
        var thrower = Thrower.factory
        /// A cycle through an async factory, which no `onResolve` action can break.
        var isAsyncCycle = false
        /// A failure `validate()` kept, thrown again where it is reached: a path added to it stops at its first repeat.
        var isReachedAgain = false
        /// A cycle that an `onResolve` action of a `New` registration begins: its resolve makes a new one.
        var isNewWithActions = false
        /// For a cycle: its last edge broken, the step that asked for the repeated one getting it in an
        /// `onResolve` action (`Shared(CycleB.init).onResolve { cycleB, resolve in cycleB.cycleA = resolve() }`).
        var cycleBreak: (registration: String, dependency: String, example: String)?
        /// For an argument mismatch: an `eager()` registration, which its register call makes without arguments.
        var isEager = false
        /// For a service not made yet, or a main-actor one: whether `prepare()` makes it (a `Shared` one).
        var isMadeByPrepare = true
    }

    /// The user's code that threw, for ``Reason/factoryFailed``.
    enum Thrower: Sendable { case factory, decorator, action }

    /// Behind one reference: a failing resolution passes the error up through every step, so
    /// it is kept small on the stack.
    private final class Storage: Sendable {
        let details: Details
        init(_ details: Details) { self.details = details }
    }

    private let storage: Storage
    var details: Details { storage.details }

    /// What went wrong.
    public var reason: Reason { details.reason }
    var key: Key { details.key }
    /// The type that was requested (or registered), as written in source.
    public var typeName: String { details.key.typeName }
    /// The name that was requested, if any.
    public var name: String? { details.key.name }
    /// The resolutions that led here, outermost first, ending with the failing one.
    public var path: [String] { details.path }
    /// The error a factory threw, for ``Reason/factoryFailed``.
    public var underlyingError: (any Error)? { details.underlyingError }
    /// Registered types that conform to the requested one (for a missing registration).
    public var conformingTypes: [String] { details.conformingTypes }
    /// Registered types whose name resembles the requested one.
    public var similarTypes: [String] { details.similarTypes }
    /// Names registered for the requested type, when the requested name is not among them.
    public var registeredNames: [String] { details.registeredNames }

    init(_ details: Details) { storage = Storage(details) }

    init(reason: Reason, key: Key, path: [String] = [], underlyingError: (any Error)? = nil) {
        self.init(Details(reason: reason, key: key, path: path, underlyingError: underlyingError))
    }

    /// The full message: what happened, where, and how to fix it.
    public var description: String {
        let pathLine = path.count > 1 ? ["Resolution path: \(Self.abbreviated(path).joined(separator: " -> "))"] : []
        let declarationLine = details.declaration.map { ["Property wrapper declared at \($0)."] } ?? []
        let placeLine = details.registeredAt.map { ["Registered at \($0)."] } ?? []
        return ([headline] + pathLine + declarationLine + placeLine + detailLines + ["To fix, " + hint])
            .joined(separator: "\n")
    }

    /// A long path with its middle left out: the start and the end say where it went wrong.
    private static func abbreviated(_ steps: [String]) -> [String] {
        guard steps.count > 24 else { return steps }
        return steps.prefix(10) + ["… \(steps.count - 20) more …"] + steps.suffix(10)
    }

    // Names are quoted and escaped as Swift literals (a newline or a quote stays on one line).
    var subject: String { "'\(typeName)'" + (name.map { " (name: \($0.debugDescription))" } ?? "") }
    private var named: String { name.map { ".named(\($0.debugDescription))" } ?? "" }

    private var headline: String {
        switch reason {
        case .missingRegistration where details.decoratesNothing:
            "This container registers no \(subject) (a Decorate applies only to its own container's "
                + "registrations), so this Decorate never runs."
        case .missingRegistration:
            "No registration for \(subject)."
        case .dependencyCycle(let cycle):
            "Dependency cycle: \(Self.abbreviated(cycle).joined(separator: " -> "))."
        case .argumentMismatch(let expected, let received):
            "Wrong arguments for \(subject): expected \(expected), received \(received)."
        case .aliasNotConforming(let implementation):
            "'\(implementation)' does not conform to '\(typeName)', so it cannot be registered as '\(typeName)'."
        case .optionalRegistration:
            "'\(typeName)' is an Optional type and cannot be registered."
        case .factoryFailed:
            "\(thrower.headline) \(subject) threw an error: \(underlyingError.map { String(describing: $0) } ?? "unknown")."
        case .mainActorRequired where details.servedThrough != nil, .notSendable where details.servedThrough != nil:
            "\(subject) is served through `as:` by '\(details.servedThrough ?? "")', made on \(servingActor.name): through "
                + "the alias its conformance may be isolated to \(servingActor.name), and it was resolved off it."
        case .mainActorRequired where !details.isSendable:
            "\(subject) is not Sendable and \(madeOnMainActor); it was resolved off the main actor."
        case .mainActorRequired where path.count > 1:
            "\(subject) \(madeOnMainActor) and was needed off the main actor by '\(path[path.count - 2])'."
        case .mainActorRequired:
            "\(subject) \(madeOnMainActor) and was resolved off the main actor."
        case .notSendable(let actor):
            "\(subject) is not Sendable and is made by a factory isolated to \(actor), so it is handed out only to an "
                + "await in \(actor)'s code; it was resolved off \(actor), or synchronously (a synchronous resolve "
                + "cannot tell the actor it runs on)."
        case .weakRequiresClass(let instanceType):
            "\(subject) is registered as Weak, but its factory made '\(instanceType)', which is not a class instance."
        case .mutationDuringResolution(let operation):
            "\(operation)() was called on a container while it was resolving \(subject)."
        case .notYetMade(let actor):
            "\(subject) is made by \(actor.map { "a factory isolated to \($0)" } ?? "an async factory") and has not "
                + "been made yet." + preparationNote
        case .tooDeep(let depth):
            "Resolving \(subject) needed more than \(depth) nested steps"
                + (depth < Resolution.maximumDepth ? ", more than this thread's stack allows." : ".")
        case .functionRegistered:
            "\(subject) is a function type: the registration makes a function, not a service."
        case .argumentInferredAsMetatype(let arguments):
            "The factory for \(subject) takes arguments \(arguments): a metatype, inferred where an argument's type was not written."
        case .decoratedAlias(let implementation):
            "\(subject) has a Decorate, but '\(implementation)' serves it through `as:`, so its one instance cannot be decorated as '\(typeName)' alone."
        case .lifetimeMismatch(let registration, let dependency):
            "\(registration) depends on \(dependency), which lives shorter: it would keep that instance too long."
        case .isolationConflict(let registration, let dependency) where details.conflictActor == nil:
            "\(registration) is made synchronously but depends on \(dependency), which only an await makes (an async "
                + "factory, or another actor's service that is not Shared), so it cannot get it, even after prepare()."
        case .isolationConflict(let registration, let dependency):
            "\(registration) runs on any thread but depends on \(dependency), which it cannot get there, even after prepare()."
        case .duplicateRegistration(let first, let second):
            "\(subject) is registered twice in one register call or Module: \(first), replaced by \(second)."
        case .scopeRunRequired(let scope):
            "\(subject) is Scoped(.\(scope)), a scope that exists only inside runs of it, and was resolved "
                + "outside any run of it (or after its run returned)."
        case .scopeMissing:
            "\(subject) is registered as Scoped without a scope, so it would be kept like a Shared service."
        case .actorReleased(let actor):
            "\(subject) is not Sendable and was registered in a method of \(actor), which makes it there; that "
                + "\(actor) has been deinitialized."
        }
    }

    /// What threw, for ``Reason/factoryFailed``: the factory, a `Decorate` or an `onResolve` action.
    private var thrower: (headline: String, hint: String) {
        switch details.thrower {
        case .factory: ("The factory for", "the factory")
        case .decorator: ("A Decorate of", "the Decorate")
        case .action: ("An onResolve action of", "the onResolve action")
        }
    }

    /// A registration isolated to the dependency's actor of an isolation conflict, as it can be written
    /// (a global actor's closure that takes a resolver is an async one; a main-actor one throws, so that
    /// `validate()` checks it), with its lifetime.
    private var isolatedForm: String {
        let actor = details.conflictActor ?? "MainActor"
        return actor == "MainActor"
            ? "\(details.conflictLifetime) { @MainActor resolve throws in … }"
            : "\(details.conflictLifetime) { @\(actor) resolve async in … }"
    }

    /// For an isolation conflict through an `as:` alias: the alias the registration asks for.
    private var conflictAlias: String { details.conflictKey.map { TypeName.qualified($0.type) } ?? "" }

    /// "is made by a @MainActor factory", or what main-actor code its value goes through.
    private var madeOnMainActor: String {
        details.mainActorCode.map { "goes through main-actor code (\($0))" } ?? "is made by a @MainActor factory"
    }

    /// The actor whose factory made a value served through `as:`: its name, and its attribute.
    private var servingActor: (name: String, attribute: String) {
        if case .notSendable(let actor) = reason { (actor, actor) } else { ("the main actor", "MainActor") }
    }

    /// Why `prepare()` did not make it, if it tried: the first line of its error.
    private var preparationNote: String {
        underlyingError.map { " prepare() failed to make it: \(String(describing: $0).prefix { $0 != "\n" })" } ?? ""
    }

    /// The same error, with `change` made to what it says.
    func with(_ change: (inout Details) -> Void) -> ResolutionError {
        var details = details
        change(&details)
        return ResolutionError(details)
    }

    /// The same error, reached through `step` first (the async factory whose code asked).
    func reached(through step: String) -> ResolutionError {
        path.first == step ? self : reached(through: [step])
    }

    /// A failure `validate()` kept for `entry`, asked for again as `requested`: its first step (the entry, as
    /// its check or an async run asked for it: its own type or an alias) named as this step asks.
    func reachedAgain(as requested: Key, of entry: Entry) -> ResolutionError {
        let served = [entry.spec.type] + entry.spec.aliases.map(\.type)
        guard served.contains(where: { Key($0, name: entry.key.name).displayName == path.first }) else { return self }
        return with { $0.path[0] = requested.displayName }
    }

    /// The same error, reached through `steps` first (a resolution that needs a registration whose
    /// `validate()` check failed before).
    func reached(through steps: [String]) -> ResolutionError {
        guard !steps.isEmpty else { return self }
        var (path, seen) = (steps + self.path, Set<String>())
        // A cycle reached again: the path a resolve of the first step takes stops at its first repeat.
        if case .dependencyCycle = reason, details.isReachedAgain,
            let end = path.firstIndex(where: { !seen.insert($0).inserted })
        {
            path = Array(path[...end])
        }
        return with { $0.path = path }
    }

    /// What else is registered, for a missing registration (no other error keeps any of it).
    private var detailLines: [String] {
        /// `items`, each between `quote`s, separated by commas; `nil` for none.
        func listing(_ items: [String], _ quote: String) -> String? {
            items.isEmpty ? nil : items.map { quote + $0 + quote }.joined(separator: ", ")
        }
        return [
            details.madeByParent.map {
                "'\($0)' is registered in a parent container, which made it and looked for \(subject) "
                    + "there: a parent never sees its children's registrations."
            },
            listing(registeredNames.map(\.debugDescription), "").map {
                "Registered names for '\(typeName)': \($0)"
                    + (details.isRegisteredUnnamed ? "; an unnamed '\(typeName)' is registered too." : ".")
            },
            details.similarName.map { "Did you mean: \($0.debugDescription)?" },
            listing(conformingTypes, "'").map { "Registered types that conform: \($0)." },
            listing(similarTypes, "'").map { "Did you mean: \($0)?" },
        ].compactMap { $0 }
    }

    /// Where and how to ask for `name` instead: in the property wrapper that asked, or in a resolve call.
    private func asking(for name: String) -> String {
        details.isWrapperRequest
            ? " in the property wrapper: (name: \(name.debugDescription))."
            : ": \(details.containerSpelling).resolve(\(Key(key.type, name: name).request))."
    }

    /// The registration to suggest for a missing one, e.g. `Shared(Dog.init)`.
    private var suggestion: String {
        if let implementation = details.conformingImplementation {
            "Shared(\(implementation).init, as: \(sourceName).self)"
        } else if Conformance.isExistential(details.key.type) {
            "Shared(<#instance#> as \(sourceName))"
        } else if Conformance.isClass(details.key.type) {
            "Shared(\(sourceName).init)"
        } else {
            "Shared(<#\(sourceName) value#>)"
        }
    }

    /// The type as code outside it names it: `Feature.Inner`, not `Inner` (see `TypeName.qualified`).
    private var sourceName: String { TypeName.qualified(details.key.type) }

    /// What a resolve call that asks for the key needs, as code outside the type compiles (`Key.request`).
    private var request: String { key.request }

    /// How to fix it, as the message's last line says after "To fix, ".
    private var hint: String {
        switch reason {
        case .missingRegistration:
            if details.decoratesAncestorsType {
                "decorate it in the parent container that registers it, or register it in this container too."
            } else if details.decoratesNothing {
                "decorate the type the service is registered as (its `as:` type), in the container that registers it."
            } else if let similarName = details.similarName {
                "ask for the registered name\(asking(for: similarName))"
            } else if key.name == nil, let name = registeredNames.first {
                "ask for a registered name\(asking(for: name))"
            } else if details.isRegisteredUnnamed {
                details.isWrapperRequest
                    ? "ask for it without a name in the property wrapper, as it is registered."
                    : "ask for it without a name, as it is registered: \(details.containerSpelling).resolve(\(Key(key.type, name: nil).request))."
            } else if Conformance.isFunction(details.key.type) {
                "register the service this function would make, and ask for a factory of it instead: "
                    + "\(details.containerSpelling).factory(Detail.self, arguments: String.self) (a function type is never registered)."
            } else if let madeByParent = details.madeByParent {
                "register \(subject) in the parent container, or register '\(madeByParent)' in the child container "
                    + "too, so the child makes it with its own dependencies."
            } else {
                "register it: \(details.containerSpelling).register { \(suggestion)\(named) }"
                    + (details.conformingValueType.map {
                        ", or as the protocol: Shared { \($0)() as any \(sourceName) }"
                    }
                        ?? "")
            }
        case .dependencyCycle where details.isAsyncCycle:
            "break the cycle: an async factory cannot wait for a service that waits for it. Let one side get "
                + "the other where it is used, once both are made (e.g. a @LazyInject property, read after "
                + "try await \(details.containerSpelling).prepare()), not in its factory."
        // The type asked for again (the key of this error), without its name: the one to decorate.
        case .dependencyCycle(let cycle) where cycle.count == 2:
            "to wrap a \(typeName) made elsewhere, do not register the wrapper as \(typeName): wrap it with "
                + "Decorate(\(typeName).self) { wrapped, resolve in … } (see Decorate); otherwise, let it get "
                + "what it needs after creation, in an onResolve action."
        case .dependencyCycle where details.isNewWithActions:
            "register \(subject) as Graph or Shared, not New: the cycle runs through its onResolve action, where "
                + "what the action resolves gets a new one (whose action runs again), not the one it completes."
        case .dependencyCycle where details.isWrapperCycle:
            "break the cycle: declare one side's property @LazyInject, which resolves it when first read, "
                + "once both are made (not in init)."
        case .dependencyCycle:
            "break the cycle: let one side get the other after creation, "
                + (details.cycleBreak.map {
                    "e.g. drop '\($0.dependency)' from what '\($0.registration)' is made with and set it in an onResolve "
                        + "action: \($0.example)."
                } ?? "e.g. Shared(A.init).onResolve { a, resolve in a.b = resolve() }.")
        case .argumentMismatch where details.isEager:
            "remove .eager() (the register call has no arguments to give it), or register a factory that takes none."
        case .argumentMismatch("no arguments", _):
            "resolve it without arguments: \(details.containerSpelling).resolve(\(request))."
        case .argumentMismatch where details.existentialArgument != nil:
            details.existentialArgument.map {
                "pass the argument as the registered existential type: "
                    + "\(details.containerSpelling).resolve(\(request)) { \($0.given)() as any \($0.expected) }."
            } ?? ""
        case .argumentMismatch(let expected, let received):
            "pass arguments of the registered types \(expected): \(details.containerSpelling).resolve(\(request)) { … }."
                + (received == "no arguments"
                    ? " An arguments closure that returns a labelled tuple, { (id: …, count: …) }, returns nothing "
                        + "(Swift warns that the tuple is unused): drop the labels." : "")
        case .aliasNotConforming(let implementation):
            "make '\(implementation)' conform to '\(typeName)', or remove '\(typeName).self' from `as:`."
        case .optionalRegistration:
            "register the wrapped type; resolving the Optional then gives nil while nothing is registered."
        case .factoryFailed:
            "make \(thrower.hint) succeed, or handle the error where you call tryResolve (underlyingError keeps it)."
        case .mainActorRequired where details.mainActorCode != nil:
            "resolve it from main-actor code (e.g. a @MainActor function), or write \(details.mainActorCode ?? "") in "
                + "nonisolated code (a Decorate takes a plain closure), so that it runs wherever the value is made."
        case .mainActorRequired where details.servedThrough != nil, .notSendable where details.servedThrough != nil:
            // Whether the alias is a Sendable protocol cannot be asked at run time: the fix says when it works.
            "resolve it on \(servingActor.name), or, if '\(typeName)' is a Sendable protocol, make the factory return it "
                + "as that type, e.g. \(details.servedLifetime) { @\(servingActor.attribute) in "
                + "\(details.servedThrough ?? "")(…) as \(sourceName) }\(named) (a value made as a Sendable type is "
                + "handed out anywhere)."
        case .mainActorRequired where !details.isSendable:
            "resolve it from main-actor code (e.g. a @MainActor function), make '\(typeName)' Sendable (it is then "
                + "made on the main actor and handed out anywhere), or register it in nonisolated code."
        case .mainActorRequired where path.count > 1:
            (details.isMadeByPrepare
                ? "make it first with try await \(details.containerSpelling).prepare() (a Shared service is then kept and handed out "
                    + "anywhere), " : "")
                + "resolve '\(path[path.count - 2])' with try await \(details.containerSpelling).resolveAsync(…), or "
                + "make the factory of '\(path[path.count - 2])' @MainActor too."
        case .mainActorRequired:
            "resolve it from main-actor code (e.g. a @MainActor function) or with "
                + "try await \(details.containerSpelling).resolveAsync(\(request)), or register a factory that is not @MainActor."
        case .notSendable(let actor):
            "resolve it with try await \(details.containerSpelling).resolveAsync(\(request)) in \(actor)'s code, make "
                + "'\(typeName)' Sendable, or register it in nonisolated code (e.g. a nonisolated function), so that "
                + "it is not bound to \(actor)."
        case .weakRequiresClass:
            "register it as Shared or New, or make the factory return a class instance."
        case .mutationDuringResolution:
            "register, reset or release instances before or after resolving, not inside a factory, "
                + "onResolve or an initializer it runs."
        case .notYetMade(let actor?) where !details.isSendable:
            "resolve it with try await \(details.containerSpelling).resolveAsync(\(request)) in \(actor)'s code: it "
                + "is not Sendable, so it is handed out only there (prepare() makes it, but a synchronous resolve "
                + "cannot tell the actor it runs on), or make '\(typeName)' Sendable."
        case .notYetMade where !details.isMadeByPrepare:
            "await it: resolve it with try await \(details.containerSpelling).resolveAsync(\(request)) (prepare() makes only "
                + "Shared services), or register it as Shared and call try await \(details.containerSpelling).prepare() at startup."
        case .notYetMade:
            "await it first: call try await \(details.containerSpelling).prepare() at startup, or resolve it with "
                + "try await \(details.containerSpelling).resolveAsync(\(request))."
        // An async closure without parameters is taken as a value: the async forms take the resolver.
        case .functionRegistered where typeName.contains(") async"):
            "take the resolver, as an async factory does: Shared { _ async throws in … }."
        case .functionRegistered:
            "register the initializer with its parameters registered as services "
                + "(Shared(Checkout.init) resolves each one), or take arguments: New { resolve, id in Detail(id: id) }."
        case .argumentInferredAsMetatype:
            "write the argument types in the closure: New { (resolve: Resolver, id: String) in … }."
        case .decoratedAlias(let implementation):
            "register it as the decorated type, Shared"
                + (details.factoryActor.map { " { @\($0) in \(implementation)(…) as \(sourceName) }" }
                    ?? "(\(implementation)(…) as \(sourceName))")
                + "\(named) (each of its other types then gets an instance of its own)."
        case .lifetimeMismatch:
            "give the dependency a lifetime at least as long, make the registration as short-lived, "
                + "or resolve the dependency where it is used instead of keeping it."
        case .isolationConflict where details.servedThrough != nil:
            "isolate the registration's factory to the dependency's actor (\(isolatedForm)), resolve it with try await "
                + "resolveAsync, or, if '\(conflictAlias)' is a Sendable protocol, make the dependency's factory return it "
                + "as that type, e.g. \(details.servedLifetime) { @\(details.conflictActor ?? "MainActor") in "
                + "\(details.servedThrough ?? "")(…) as \(conflictAlias) } (prepare() makes it, and a value made as a "
                + "Sendable type is handed out anywhere)."
        case .isolationConflict where details.conflictActor == nil:
            "make the dependency a Shared (prepare() makes it), or make the registration's factory async and "
                + "await the dependency there: \(details.servedLifetime) { _ async throws in … try await DIContainer.resolveAsync(\(details.conflictKey?.request ?? "")) }."
        case .isolationConflict:
            "isolate the registration's factory to the dependency's actor (\(isolatedForm)), make "
                + "the dependency a Sendable Shared (prepare() makes it), or resolve it with try await resolveAsync."
        case .duplicateRegistration:
            "remove one of them, tell them apart with .named(\"…\"), or, to override one, register the override "
                + "in a later register call."
        case .scopeRunRequired(let scope):
            "resolve it inside a run: \(details.containerSpelling).withScope(.\(scope)) { … } (a task started in the run "
                + "resolves it before the run returns), or give it an ordinary scope: DIScope(\"\(scope)\")."
        case .scopeMissing:
            "write its scope first, Scoped(.session) { … } (extension DIScope { static let session = "
                + "DIScope(\"session\") }), or register it as Shared."
        case .actorReleased(let actor):
            "keep the \(actor) alive while its container resolves, make '\(typeName)' Sendable, or register it "
                + "outside the actor (e.g. a nonisolated function)."
        case .tooDeep:
            "look for a cycle through many registrations in the path, or make the chain shorter "
                + "(e.g. resolve part of it lazily with @LazyInject)."
        }
    }
}

extension DIContainer {
    /// An error for `key`, at the current point of the resolution path. Lock held.
    func error(_ reason: ResolutionError.Reason, for key: Key, underlying: (any Error)? = nil) -> ResolutionError {
        // How a fix reaches the container the top-level resolve used: `DIContainer` for `shared` and its copies
        // (`withOverrides`, the test traits, `validate()`) and a task-bound one, the static API's; else `container`,
        // one of the user's own.
        let origin = Resolution.state.origin?.weakContainer ?? self
        let isStatic = origin.registry.value.bootstrapsAfterReset || origin === DIContainer.boundContainer.get()
        return ResolutionError(
            .init(
                reason: reason, key: key, path: pathReaching(key), underlyingError: underlying,
                containerSpelling: isStatic ? "DIContainer" : "container"))
    }

    /// Arguments of type `given` that `entry`'s factory does not take. Lock held.
    func argumentMismatch(_ entry: Entry, given: any Any.Type, requested: Key) -> ResolutionError {
        let expected = entry.spec.factory.argumentType
        let reason = ResolutionError.Reason.argumentMismatch(
            expected: Factory.describeArguments(expected), received: Factory.describeArguments(given))
        return error(entry.spec.validationProblem?.reason ?? reason, for: requested).with {
            // A concrete value where the factory takes `any P`: Swift infers the closure's type from the value.
            if Conformance.isExistential(expected), !Conformance.isExistential(given),
                Conformance.isSubtype(given, of: expected) != false
            {
                $0.existentialArgument = (TypeName.qualified(given), TypeName.qualified(expected))
            }
        }
    }

    /// The path so far, ending with `key` (unless the step in progress is `key` itself).
    func pathReaching(_ key: Key) -> [String] {
        let state = Resolution.state
        var path = state.path
        if state.frames.last(where: { $0.step != nil })?.requested != key { path.append(key.displayName) }
        return path
    }

    /// A missing registration, with what is registered instead and how to fix it. Lock held.
    func missing(_ key: Key) -> ResolutionError {
        let slots = lineage.flatMap(\.slots)
        let names = slots.compactMap { $0.key.typeID == key.typeID ? $0.key.name : nil }
        let rootTypes = slots.filter { $0.value.alias == nil }.map(\.key.type)
        let isProtocol = Conformance.isExistential(key.type)
        let conformingTypes = rootTypes.filter {
            isProtocol && $0 != key.type && Conformance.isSubtype($0, of: key.type) == true
        }
        let conforming = Set(conformingTypes.map(TypeName.of)).sorted()
        let requested = key.typeName
        let state = Resolution.state
        // What needed it (`LedgerUser` for `Ledger`) is no typo of it: the types on the path are left out.
        let onPath = Set(
            state.allFrames.flatMap { frame in
                frame.step == nil
                    ? [] : [frame.requested.typeID] + (frame.entry.map { [ObjectIdentifier($0.spec.type)] } ?? [])
            })
        // Registered under other names: the fix is one of those names, not another type.
        let similar =
            !slots.contains { $0.key.typeID == key.typeID }
            ? Set(
                rootTypes.filter { !onPath.contains(ObjectIdentifier($0)) }.map(TypeName.of)
                    .filter { $0 != requested && Self.resembles($0, requested) }
            ).subtracting(conforming).sorted() : []
        let origin = state.origin?.weakContainer ?? self
        // Asked of a child, made by this ancestor of it, which looked here for the dependency.
        let isAncestorOfOrigin = origin !== self && origin.lineage.contains { $0 === self }
        return error(.missingRegistration, for: key).with { details in
            details.conformingTypes = conforming
            details.similarTypes = similar
            details.registeredNames = Set(names).sorted()
            details.madeByParent =
                isAncestorOfOrigin ? state.frames.last { $0.step != nil }?.requested.displayName : nil
            details.similarName = key.name.flatMap { Self.closest(to: $0, in: names) }
            details.isRegisteredUnnamed = key.name != nil && slots.contains { $0.key == Key(key.type, name: nil) }
            details.conformingValueType = conformingTypes.first { !Conformance.isClass($0) }.map(TypeName.qualified)
            details.conformingImplementation =
                conformingTypes.first { TypeName.of($0) == conforming.first }.map(TypeName.qualified)
        }
    }

    /// A cycle: `entry` is being made further up the path and was reached again. Lock held.
    func cycleError(reaching entry: Entry, requested: Key) -> ResolutionError {
        let frames = Resolution.state.allFrames
        let start = frames.lastIndex { $0.entry === entry } ?? 0
        let cycle = frames[start...].compactMap { $0.step == nil ? nil : $0.requested.displayName }
        let asker = frames[start...].last { $0.step != nil }
        return error(.dependencyCycle(cycle: cycle + [requested.displayName]), for: requested)
            .with {
                $0.cycleBreak = asker.flatMap { frame in
                    frame.entry.map { Self.cycleBreak(of: $0.spec, askedAs: frame.requested, needing: requested) }
                }
                // Through its own action: the first step of a resolution (this one or one set aside) running actions.
                $0.isNewWithActions =
                    entry.spec.lifetime == .new
                    && Resolution.state.stack.contains {
                        $0.isRunningActions && $0.frames.first?.entry === entry
                    }
            }
    }

    /// The registration `spec` (asked for as `asked`) written to get `dependency` in an `onResolve` action:
    /// `Shared(CycleB.init).onResolve { cycleB, resolve in cycleB.cycleA = resolve() }`.
    private static func cycleBreak(
        of spec: RegistrationSpec, askedAs asked: Key, needing dependency: Key
    ) -> (registration: String, dependency: String, example: String) {
        let type = TypeName.qualified(spec.type)
        let alias = asked.typeID == ObjectIdentifier(spec.type) ? "" : ", as: \(TypeName.qualified(asked.type)).self"
        let lifetime = spec.scope.map { "Scoped(.\($0.name), " } ?? "\(spec.lifetime)("
        let made = "\(lifetime)\(type).init\(alias))"
        let named = asked.name.map { ".named(\($0.debugDescription))" } ?? ""
        let value = variableName(TypeName.of(spec.type)) ?? "value"
        let property = variableName(dependency.typeName) ?? "<#property#>"
        let resolve = dependency.name.map { "resolve(name: \($0.debugDescription))" } ?? "resolve()"
        return (
            asked.displayName, dependency.displayName,
            "\(made)\(named).onResolve { \(value), resolve in \(value).\(property) = \(resolve) }"
        )
    }

    /// A type's name as a variable's (`URLSession` as `urlSession`); `nil` for one that is not an identifier.
    private static func variableName(_ typeName: String) -> String? {
        guard let first = typeName.first, first.isLetter || first == "_",
            typeName.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
        else { return nil }
        let capitals = typeName.prefix { $0.isUppercase }.count
        // `URLSession`: the last capital of a run begins the next word.
        let lowered = capitals > 1 && capitals < typeName.count ? capitals - 1 : max(capitals, 1)
        return typeName.prefix(lowered).lowercased() + typeName.dropFirst(lowered)
    }

    /// The name in `names` a typo of `name` would be (at most a third of its characters changed), if any.
    private static func closest(to name: String, in names: [String]) -> String? {
        names.map { ($0, editDistance(Array(name), Array($0))) }.filter { $0.1 <= max(1, name.count / 3) }
            .min { $0.1 < $1.1 }?.0
    }

    /// How many characters to insert, delete or replace, or pairs of neighbours to swap, to turn `a`
    /// into `b` (optimal string alignment: "audti" is one slip from "audit", not two).
    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        var (previous, row) = ([Int](), Array(0...b.count))
        for (i, x) in a.enumerated() {
            let next = b.indices.reduce(into: [i + 1]) { next, j in
                var edits = min(row[j] + (x == b[j] ? 0 : 1), row[j + 1] + 1, next[j] + 1)
                if i > 0, j > 0, x == b[j - 1], a[i - 1] == b[j] { edits = min(edits, previous[j - 1] + 1) }
                next.append(edits)
            }
            (previous, row) = (row, next)
        }
        return row[b.count]
    }

    private static func resembles(_ candidate: String, _ requested: String) -> Bool {
        let a = candidate.lowercased()
        let b = requested.lowercased()
        return a.hasPrefix(b) || b.hasPrefix(a) || a.hasSuffix(b) || b.hasSuffix(a)
    }
}

extension TypeName {
    /// The type as code outside it names it: with its enclosing types (`Feature.Inner`, `Box<Feature.Inner>`),
    /// without its module, where `of` says `Inner`. A type that code outside cannot name (local, or private
    /// at file scope) or a constrained existential: as `of` names it.
    static func qualified(_ type: any Any.Type) -> String {
        let reflected = String(reflecting: type)
        guard !reflected.contains("(unknown context"), !reflected.contains("=") else { return of(type) }
        // Each dotted path that does not continue one (`>.In`) starts with its module: drop that component.
        var (name, rest) = ("", reflected[...])
        while let first = rest.first {
            guard first.isLetter || first == "_" else {
                name.append(first)
                rest = rest.dropFirst()
                continue
            }
            let path = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }
            rest = rest.dropFirst(path.count)
            let components = path.split(separator: ".", omittingEmptySubsequences: false)
            name += name.last == "." || components.count < 2 ? path : path.dropFirst(components[0].count + 1)
        }
        return name
    }
}
