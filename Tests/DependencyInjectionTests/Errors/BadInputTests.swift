import DependencyInjection
import Testing

// Every way of holding the container wrong, one test each: the exact message a user reads, and
// proof that the failed call left the container as it was.

private final class CheckoutFlow {
    let payments: PaymentService
    init(payments: PaymentService) { self.payments = payments }
}
private final class PaymentService {
    let router: Router
    init(router: Router) { self.router = router }
}
private final class CycleA {
    init(b: CycleB) {}
}
private final class CycleB {
    init(a: CycleA) {}
}
@MainActor private final class MainActorModel {
    init() {}
}
/// Not Sendable: made by a main-actor factory, it stays on the main actor.
private final class MainActorState {
    var title = ""
}
private struct Point {}

/// What a container registers and which `Engine` it holds: equal before and after a failed call
/// means the call changed nothing.
private struct Snapshot: Equatable {
    let registrations: String
    let engine: ObjectIdentifier

    init(_ container: DIContainer) {
        registrations = container.registrations.description
        engine = ObjectIdentifier(container.resolve(Engine.self))
    }
}

// Internal: an alias to a private protocol is checked only when resolved.
protocol RefusedAliasFlushable {}
private final class RefusedAliasLogger {}
/// A feature's module whose second line lists an `as:` type its instance does not conform to.
private let moduleWithARefusedAliasLine = #line + 3
private let moduleWithARefusedAlias = Module {
    Shared(PostgresStore() as Store)
    Shared(RefusedAliasLogger(), as: RefusedAliasFlushable.self)
}

/// A container with an `Engine` and a `RouterImpl` (registered as itself only).
private func makeContainer() -> DIContainer {
    let container = DIContainer()
    container.register {
        Shared(Engine.init)
        Shared(RouterImpl.init)
    }
    return container
}

/// The `ResolutionError` that `body` throws, or nil when it succeeds.
private func failure(_ body: () throws -> Void) -> ResolutionError? {
    do {
        try body()
        return nil
    } catch let error as ResolutionError {
        return error
    } catch {
        Issue.record("threw \(error), not a ResolutionError")
        return nil
    }
}

@Suite(.timeLimit(.minutes(1))) struct BadInputCatalogueTests {
    @Test func missingRegistrationNamesTheTypeWhatConformsAndTheFix() throws {
        let container = makeContainer()
        let before = Snapshot(container)
        let error = try #require(failure { _ = try container.tryResolve(Router.self) })
        #expect(error.reason == .missingRegistration)
        #expect(error.typeName == "Router")
        #expect(error.path == ["Router"])
        #expect(error.conformingTypes == ["RouterImpl"])
        #expect(
            error.description == """
                No registration for 'Router'.
                Registered types that conform: 'RouterImpl'.
                To fix, register it: container.register { Shared(RouterImpl.init, as: Router.self) }
                """)
        #expect(Snapshot(container) == before)
    }

    @Test func missingNestedDependencyShowsTheWholePath() throws {
        let container = makeContainer()
        container.register {
            Shared { resolve in try CheckoutFlow(payments: resolve.tryResolve()) }
            Shared { resolve in try PaymentService(router: resolve.tryResolve()) }
        }
        let before = Snapshot(container)
        let error = try #require(failure { _ = try container.tryResolve(CheckoutFlow.self) })
        #expect(error.reason == .missingRegistration)
        #expect(error.typeName == "Router")
        #expect(error.path == ["CheckoutFlow", "PaymentService", "Router"])
        #expect(
            error.description == """
                No registration for 'Router'.
                Resolution path: CheckoutFlow -> PaymentService -> Router
                Registered types that conform: 'RouterImpl'.
                To fix, register it: container.register { Shared(RouterImpl.init, as: Router.self) }
                """)
        #expect(Snapshot(container) == before)
        // Nothing half-made was kept: once the dependency exists, the chain resolves.
        container.register(Shared(MockRouter() as Router))
        #expect(try container.tryResolve(CheckoutFlow.self).payments.router === container.tryResolve(Router.self))
    }

    @Test func wrongArgumentsNameTheExpectedAndReceivedTypes() throws {
        let container = makeContainer()
        container.register(New({ (_: Resolver, id: String) in ConcreteViewModel(id: id) }, as: ViewModelProtocol.self))
        let before = Snapshot(container)

        let wrongType = try #require(failure { _ = try container.tryResolve(ViewModelProtocol.self) { 42 } })
        #expect(wrongType.reason == .argumentMismatch(expected: "(String)", received: "(Int)"))
        #expect(
            wrongType.description == """
                Wrong arguments for 'ViewModelProtocol': expected (String), received (Int).
                To fix, pass arguments of the registered types (String): container.resolve(ViewModelProtocol.self) { … }.
                """)

        let tooMany = try #require(failure { _ = try container.tryResolve(ViewModelProtocol.self) { ("id", 2) } })
        #expect(tooMany.reason == .argumentMismatch(expected: "(String)", received: "(String, Int)"))
        #expect(
            tooMany.description == """
                Wrong arguments for 'ViewModelProtocol': expected (String), received (String, Int).
                To fix, pass arguments of the registered types (String): container.resolve(ViewModelProtocol.self) { … }.
                """)

        let unexpected = try #require(failure { _ = try container.tryResolve(Engine.self) { 42 } })
        #expect(
            unexpected.description == """
                Wrong arguments for 'Engine': expected no arguments, received (Int).
                To fix, resolve it without arguments: container.resolve(Engine.self).
                """)
        #expect(Snapshot(container) == before)
        #expect(try container.tryResolve(ViewModelProtocol.self) { "id" }.id == "id")
    }

    @Test func factoryCycleIsReportedWithItsStepsNotAStackOverflow() throws {
        let container = makeContainer()
        container.register {
            Shared { resolve in try CycleA(b: resolve.tryResolve()) }
            Shared { resolve in try CycleB(a: resolve.tryResolve()) }
        }
        let before = Snapshot(container)
        let error = try #require(failure { _ = try container.tryResolve(CycleA.self) })
        #expect(error.reason == .dependencyCycle(cycle: ["CycleA", "CycleB", "CycleA"]))
        #expect(
            error.description == """
                Dependency cycle: CycleA -> CycleB -> CycleA.
                Resolution path: CycleA -> CycleB -> CycleA
                To fix, break the cycle: let one side get the other after creation, e.g. drop 'CycleA' from what 'CycleB' \
                is made with and set it in an onResolve action: \
                Shared(CycleB.init).onResolve { cycleB, resolve in cycleB.cycleA = resolve() }.
                """)
        #expect(Snapshot(container) == before)
        // The cycle left no factory marked as running: entering from the other side reports it afresh.
        let again = try #require(failure { _ = try container.tryResolve(CycleB.self) })
        #expect(again.reason == .dependencyCycle(cycle: ["CycleB", "CycleA", "CycleB"]))
    }

    @Test(arguments: [false, true])
    func aliasThatTheInstanceDoesNotConformToIsRefusedAndNothingIsRegistered(throughStaticAPI: Bool) throws {
        let container = makeContainer()
        let before = Snapshot(container)
        let refusedLine = #line + 4
        let registration = Module {
            Shared(MockRouter() as Router)
            Shared(Engine.init)  // would replace the Engine that `before` holds
            Shared(Engine(), as: Router.self)
        }
        let error = try #require(
            failure {
                if throughStaticAPI {
                    try container.activate { try DIContainer.tryRegister(registration) }
                } else {
                    try container.tryRegister(registration)
                }
            })
        #expect(error.reason == .aliasNotConforming(implementation: "Engine"))
        #expect(error.typeName == "Router")
        #expect(
            error.description == """
                'Engine' does not conform to 'Router', so it cannot be registered as 'Router'.
                Registered at DependencyInjectionTests/BadInputTests.swift:\(refusedLine).
                To fix, make 'Engine' conform to 'Router', or remove 'Router.self' from `as:`.
                """)
        // Not even the valid registrations before it were installed, and Engine was not replaced.
        #expect(Snapshot(container) == before)
        #expect((try? container.tryResolve(Router.self)) == nil)
    }

    /// A module's refused registration is named by its own line, not by the register call that
    /// brought the module in (the line a trap names), so that one of several modules is found.
    @Test func aRefusedRegistrationInAModuleNamesTheLineItWasWrittenOn() throws {
        let container = DIContainer()
        let error = try #require(
            failure {
                try container.tryRegister {
                    Shared(Engine.init)
                    moduleWithARefusedAlias
                }
            })
        #expect(error.reason == .aliasNotConforming(implementation: "RefusedAliasLogger"), "\(error)")
        #expect(
            error.description.contains(
                "\nRegistered at DependencyInjectionTests/BadInputTests.swift:\(moduleWithARefusedAliasLine).\n"),
            "\(error)")
        #expect(container.registrations.isEmpty)
    }

    /// An `eager()` registration whose factory takes arguments cannot be made by the register call:
    /// refused, with the fix that works (resolving with arguments cannot make a registration succeed).
    @Test func anEagerRegistrationThatTakesArgumentsIsRefusedWithTheFix() throws {
        let container = makeContainer()
        let before = Snapshot(container)
        let error = try #require(
            failure {
                try container.tryRegister(Shared { (_: Resolver, id: String) in ConcreteViewModel(id: id) }.eager())
            })
        #expect(error.reason == .argumentMismatch(expected: "(String)", received: "no arguments"))
        #expect(error.description.contains("remove .eager()"), "\(error)")
        #expect(!error.description.contains("resolve(ConcreteViewModel.self) {"), "\(error)")
        #expect(Snapshot(container) == before)
    }

    /// `Scoped` without its scope compiles (it shares `Shared`'s forms) and would be kept like a
    /// `Shared` service: it is refused, with the form that has a scope.
    @Test func aScopedRegistrationWithoutAScopeIsRefusedWithTheFix() throws {
        let container = makeContainer()
        let before = Snapshot(container)
        let (error, line) = (try #require(failure { try container.tryRegister(Scoped { Engine() }) }), #line)
        #expect(error.reason == .scopeMissing)
        #expect(
            error.description == """
                'Engine' is registered as Scoped without a scope, so it would be kept like a Shared service.
                Registered at DependencyInjectionTests/BadInputTests.swift:\(line).
                To fix, write its scope first, Scoped(.session) { … } (extension DIScope { static let session = DIScope("session") }), or register it as Shared.
                """)
        #expect(Snapshot(container) == before)
    }

    @Test func registeringAnOptionalTypeIsRefused() throws {
        let container = makeContainer()
        let before = Snapshot(container)
        let (error, line) = (try #require(failure { try container.tryRegister(Shared(Engine() as Engine?)) }), #line)
        #expect(error.reason == .optionalRegistration)
        #expect(
            error.description == """
                'Optional<Engine>' is an Optional type and cannot be registered.
                Registered at DependencyInjectionTests/BadInputTests.swift:\(line).
                To fix, register the wrapped type; resolving the Optional then gives nil while nothing is registered.
                """)
        #expect(Snapshot(container) == before)
        // The Optional still resolves the way the contract promises: the registered Engine.
        #expect(try container.resolve(Engine?.self) === container.tryResolve(Engine.self))
    }

    @Test func factoryThatRegistersWhileItsContainerResolvesIsRefused() throws {
        let container = makeContainer()
        container.register {
            Shared { _ in
                // The static API reaches the container running this factory.
                try DIContainer.tryRegister(New(MockRouter() as Router))
                return Session()
            }
        }
        let before = Snapshot(container)
        let error = try #require(failure { _ = try container.tryResolve(Session.self) })
        // `register` (and `reset`, `releaseInstances`) in a non-throwing factory trap with this
        // same description; only the operation's name differs.
        #expect(error.reason == .mutationDuringResolution(operation: "register"))
        #expect(error.typeName == "Session")
        #expect(
            error.description == """
                register() was called on a container while it was resolving 'Session'.
                To fix, register, reset or release instances before or after resolving, not inside a factory, onResolve or an initializer it runs.
                """)
        #expect(Snapshot(container) == before)
        #expect((try? container.tryResolve(Router.self)) == nil)
        // The refused call left the container usable: registering and resolving work again.
        container.register(Shared(MockRouter() as Router))
        #expect(try container.tryResolve(Router.self).name == "MockRouter")
    }

    @Test func deinitOfAResolvedObjectMayResolveFromTheSameContainer() throws {
        let container = makeContainer()
        let engine = try ObjectIdentifier(container.tryResolve(Engine.self))
        // What each deinit resolved: the Engine's identity, or nil when Engine was not registered.
        let seen = Locked<[String: ObjectIdentifier?]>([:])
        func instance(_ label: String) -> ResolvesInDeinit {
            ResolvesInDeinit { [weak container] in
                guard let container else { return }
                let resolved = try? container.tryResolve(Engine.self)
                seen.withLock { $0[label] = .some(resolved.map(ObjectIdentifier.init)) }
            }
        }
        container.register {
            New { _ in instance("new") }.named("new")
            Graph { _ in instance("graph") }.named("graph")
            Shared { _ in instance("replaced") }.named("replaced")
            Shared { _ in instance("released") }.named("released")
            Shared { _ in instance("reset") }.named("reset")
        }
        for name in ["new", "graph", "replaced", "released"] {
            _ = try container.tryResolve(ResolvesInDeinit.self, name: name)
        }
        // New: dropped by the caller; Graph: dropped as its resolution ends, inside the container.
        #expect(seen.withLock { $0["new"] } == engine)
        #expect(seen.withLock { $0["graph"] } == engine)

        container.register(Shared { _ in instance("replacement") }.named("replaced"))
        #expect(seen.withLock { $0["replaced"] } == engine)

        container.releaseInstances()
        // Engine was released in the same call, so the deinit got the old one or made a new one.
        let engineAfterRelease = try ObjectIdentifier(container.tryResolve(Engine.self))
        let released = seen.withLock { $0["released"] }
        #expect(released == engine || released == engineAfterRelease)
        #expect(try ObjectIdentifier(container.tryResolve(Engine.self)) == engineAfterRelease)

        _ = try container.tryResolve(ResolvesInDeinit.self, name: "reset")
        container.reset()
        #expect(seen.withLock { $0["reset"] } == .some(nil), "after reset() nothing is registered")
        container.register(Shared(Engine.init))
        _ = try container.tryResolve(Engine.self)
    }

    @Test func mainActorServiceResolvedOffTheMainActorIsAnError() async throws {
        let container = makeContainer()
        container.register { Shared { @MainActor in MainActorState() } }
        let error = await Task.detached { () -> ResolutionError? in
            failure { _ = try container.tryResolve(MainActorState.self) }
        }.value
        #expect(error?.reason == .mainActorRequired)
        #expect(
            error?.description == """
                'MainActorState' is not Sendable and is made by a @MainActor factory; it was resolved off the main actor.
                To fix, resolve it from main-actor code (e.g. a @MainActor function), make 'MainActorState' Sendable (it is then made on the main actor and handed out anywhere), or register it in nonisolated code.
                """)
        // Nothing was made; on the main actor it resolves, once.
        let same = await MainActor.run {
            container.resolve(MainActorState.self) === container.resolve(MainActorState.self)
        }
        #expect(same)
        // A Sendable one (a @MainActor class) is made on the main actor for the caller.
        container.register { Shared { @MainActor in MainActorModel() } }
        let model = await Task.detached { try? container.tryResolve(MainActorModel.self) }.value
        #expect(await MainActor.run { container.resolve(MainActorModel.self) } === model)
    }

    @Test func unregisteredNameListsTheNamesThatAreRegistered() throws {
        let container = makeContainer()
        container.register {
            Shared(PostgresStore.init, as: Store.self).named("primary")
            Shared(MemoryStore.init, as: Store.self).named("cache")
        }
        let before = Snapshot(container)
        let error = try #require(failure { _ = try container.tryResolve(Store.self, name: "replica") })
        #expect(error.reason == .missingRegistration)
        #expect(error.name == "replica")
        #expect(error.registeredNames == ["cache", "primary"])
        #expect(
            error.description == """
                No registration for 'Store' (name: "replica").
                Registered names for 'Store': "cache", "primary".
                Registered types that conform: 'MemoryStore', 'PostgresStore'.
                To fix, register it: container.register { Shared(MemoryStore.init, as: Store.self).named("replica") }
                """)
        let unnamed = try #require(failure { _ = try container.tryResolve(Store.self) })
        #expect(
            unnamed.description.hasPrefix(
                "No registration for 'Store'.\nRegistered names for 'Store': \"cache\", \"primary\"."))
        #expect(Snapshot(container) == before)
        #expect(try container.tryResolve(Store.self, name: "primary").kind == "postgres")
    }

    @Test func errorOfTheFactoryItselfIsKeptAndNamed() throws {
        let container = makeContainer()
        container.register(Shared { _ -> Session in throw Offline() })
        let before = Snapshot(container)
        let error = try #require(failure { _ = try container.tryResolve(Session.self) })
        #expect(error.reason == .factoryFailed)
        #expect(error.underlyingError is Offline)
        #expect(
            error.description == """
                The factory for 'Session' threw an error: Offline().
                To fix, make the factory succeed, or handle the error where you call tryResolve (underlyingError keeps it).
                """)
        #expect(Snapshot(container) == before)
    }

    @Test func weakRegistrationOfAValueTypeIsAnError() throws {
        let container = makeContainer()
        container.register(Weak(Point.init))
        let before = Snapshot(container)
        let error = try #require(failure { _ = try container.tryResolve(Point.self) })
        #expect(error.reason == .weakRequiresClass(instanceType: "Point"))
        #expect(
            error.description == """
                'Point' is registered as Weak, but its factory made 'Point', which is not a class instance.
                To fix, register it as Shared or New, or make the factory return a class instance.
                """)
        #expect(Snapshot(container) == before)
    }
}

private protocol UnnamedPort: AnyObject {}
private protocol ConstrainedRepository<Item>: AnyObject { associatedtype Item }
private final class UnconformingEngine {}

/// An alias to a private protocol, or to a constrained existential, cannot be named at run time
/// when registered: the registration is accepted, and its first resolve and `validate()` report it
/// (the Diagnostics article says so).
@Suite struct AliasCheckedWhenResolvedTests {
    @Test func anAliasToAPrivateProtocolIsReportedWhenResolvedAndByValidate() throws {
        let box = DIContainer()
        try box.tryRegister(Shared(UnconformingEngine(), as: UnnamedPort.self))
        let error = #expect(throws: ResolutionError.self) { try box.tryResolve(UnnamedPort.self) }
        #expect(
            error?.description.contains("does not conform to 'UnnamedPort'") == true, "\(String(describing: error))")
        #expect(!box.validate().isValid)
    }

    @Test func anAliasToAConstrainedExistentialIsReportedWhenResolvedAndByValidate() throws {
        let box = DIContainer()
        try box.tryRegister(Shared(UnconformingEngine(), as: (any ConstrainedRepository<Int>).self))
        #expect(throws: ResolutionError.self) { try box.tryResolve((any ConstrainedRepository<Int>).self) }
        #expect(!box.validate().isValid)
    }
}
