import DependencyInjection
import Testing

// How long instances live: Shared, New, Weak, Graph, eager(), and onResolve.

/// Two dependencies that both need a `Session`, to see whether one resolution shares it.
private final class SessionUser {
    let session: Session
    init(session: Session) { self.session = session }
}

private final class Workspace {
    let first: SessionUser
    let second: SessionUser
    let session: Session
    init(first: SessionUser, second: SessionUser, session: Session) {
        self.first = first
        self.second = second
        self.session = session
    }
}

/// Gets its session through a property wrapper while a factory makes it.
private final class WrappedSessionUser {
    @Inject var session: Session
    init() {}
}

private final class NeedsDatabase {
    let database: Database
    init(database: Database) { self.database = database }
}

@Suite(.timeLimit(.minutes(1))) struct SharedLifetimeTests {
    @Test func sharedMakesOneInstancePerContainer() throws {
        let made = Tally()
        let box = DIContainer()
        box.register { Shared(Counted(made)) }
        #expect(try box.tryResolve(Counted.self) === box.tryResolve(Counted.self))
        #expect(made.value == 1)
    }

    @Test func sharedFactoryThatThrowsIsRetriedOnTheNextResolve() throws {
        let attempts = Tally()
        let box = DIContainer()
        box.register {
            Shared { _ throws -> Engine in
                attempts.increment()
                if attempts.value == 1 { throw Offline() }
                return Engine()
            }
        }
        #expect(throws: ResolutionError.self) { try box.tryResolve(Engine.self) }
        let engine = try box.tryResolve(Engine.self)
        #expect(try box.tryResolve(Engine.self) === engine)
        #expect(attempts.value == 2)
    }

    @Test func sharedMadeWithArgumentsKeepsItsFirstInstance() throws {
        let box = DIContainer()
        box.register { Shared { (_, id: String) in ConcreteViewModel(id: id) } }
        let first = try box.tryResolve(ConcreteViewModel.self, arguments: { "first" })
        let second = try box.tryResolve(ConcreteViewModel.self, arguments: { "second" })
        #expect(first === second)
        #expect(second.id == "first")
    }
}

@Suite(.timeLimit(.minutes(1))) struct NewLifetimeTests {
    @Test func newMakesAnInstanceOnEveryResolve() throws {
        let made = Tally()
        let box = DIContainer()
        box.register { New(Counted(made)) }
        #expect(try box.tryResolve(Counted.self) !== box.tryResolve(Counted.self))
        #expect(made.value == 2)
    }

}

@Suite(.timeLimit(.minutes(1))) struct WeakLifetimeTests {
    @Test func weakIsSharedWhileSomeoneHoldsIt() throws {
        let box = DIContainer()
        box.register {
            Weak(ImageCache.init)
            Weak(CacheImpl() as Cache)  // registered as a protocol: its instance is still a class instance
        }
        let held = try box.tryResolve(ImageCache.self)
        #expect(try box.tryResolve(ImageCache.self) === held)
        let heldCache = try box.tryResolve(Cache.self)
        #expect(try box.tryResolve(Cache.self) === heldCache)
    }

    @Test func weakIsMadeAnewAfterItIsReleased() throws {
        let made = Tally()
        let box = DIContainer()
        box.register { Weak(Counted(made)) }
        weak var first: Counted?
        do {
            let strong = try box.tryResolve(Counted.self)
            first = strong
        }
        #expect(first == nil)
        _ = try box.tryResolve(Counted.self)
        #expect(made.value == 2)
    }

}

@Suite(.timeLimit(.minutes(1))) struct GraphLifetimeTests {
    private func container() -> DIContainer {
        let box = DIContainer()
        box.register {
            Graph(Session.init)
            New { resolve in SessionUser(session: resolve()) }
            New { resolve in Workspace(first: resolve(), second: resolve(), session: resolve()) }
            New(WrappedSessionUser())
        }
        return box
    }

    @Test func graphIsSharedByEverythingOneResolutionMakes() {
        let workspace = container().resolve(Workspace.self)
        #expect(workspace.first.session === workspace.session)
        #expect(workspace.second.session === workspace.session)
        #expect(workspace.first !== workspace.second)
    }

    @Test func graphIsNewForEachTopLevelResolution() throws {
        let box = container()
        let first = try box.tryResolve(Workspace.self)
        let second = try box.tryResolve(Workspace.self)
        #expect(first.session !== second.session)
        #expect(try box.tryResolve(Session.self) !== box.tryResolve(Session.self))
    }

    @Test func graphReachesPropertyWrappersOfWhatTheResolutionMakes() throws {
        let box = container()
        box.register {
            New { resolve in Pair(resolve(WrappedSessionUser.self), resolve(Session.self)) }
        }
        let pair = try box.tryResolve(Pair<WrappedSessionUser, Session>.self)
        #expect(pair.first.session === pair.second)
    }

    @Test func graphInstanceDoesNotSurviveAFailedResolution() throws {
        let box = container()
        box.register {
            New { resolve throws -> Workspace in
                let user: SessionUser = resolve()
                _ = user
                throw Offline()
            }
        }
        #expect(throws: ResolutionError.self) { try box.tryResolve(Workspace.self) }
        #expect(try box.tryResolve(SessionUser.self).session !== box.tryResolve(SessionUser.self).session)
    }
}

/// Two values, for factories that return more than one thing.
final class Pair<First, Second> {
    let first: First
    let second: Second
    init(_ first: First, _ second: Second) {
        self.first = first
        self.second = second
    }
}

@Suite(.timeLimit(.minutes(1))) struct EagerTests {
    @Test func eagerIsMadeWhenItsRegisterCallReturns() throws {
        let made = Tally()
        let box = DIContainer()
        box.register { Shared(Counted(made)).eager() }
        #expect(made.value == 1)
        _ = try box.tryResolve(Counted.self)
        #expect(made.value == 1)
    }

    @Test func eagerMayDependOnRegistrationsLaterInTheSameBlock() throws {
        let box = DIContainer()
        box.register {
            Shared { resolve in NeedsDatabase(database: resolve()) }.eager()
            Shared(Database.init)
        }
        #expect(try box.tryResolve(NeedsDatabase.self).database === box.tryResolve(Database.self))
    }

    @Test func eagerThatFailsLeavesTheContainerAsItWas() throws {
        let box = DIContainer()
        box.register { Shared(PostgresStore() as Store) }
        let error = try #require(throws: ResolutionError.self) {
            try box.tryRegister {
                Shared(MemoryStore() as Store)
                Shared { resolve in NeedsDatabase(database: try resolve.tryResolve()) }.eager()
            }
        }
        #expect(error.reason == .missingRegistration)
        #expect(error.typeName == "Database")
        #expect(try box.tryResolve(Store.self).kind == "postgres")
        #expect(box.resolve(NeedsDatabase?.self) == nil)
    }

    /// An `eager()` registration whose every slot a later line of the same call took is never made:
    /// not when the call returns, nor when its type is resolved (`DIContainer.install`).
    @Test func anEagerRegistrationReplacedInTheSameCallIsNeverMade() {
        let box = DIContainer()
        let made = Tally()
        box.register {
            Shared { () -> Engine in
                made.increment()
                return Engine()
            }.eager()
            Shared(Engine.init)
        }
        #expect(made.value == 0)
        _ = box.resolve(Engine.self)
        #expect(made.value == 0)
    }
}

@Suite(.timeLimit(.minutes(1))) struct OnResolveTests {
    @Test func onResolveRunsOncePerInstanceMade() throws {
        let shared = Tally()
        let new = Tally()
        let box = DIContainer()
        box.register {
            Shared(Engine.init).onResolve { _, _ in shared.increment() }
            New(ImageCache.init).onResolve { _, _ in new.increment() }
        }
        for _ in 0..<3 {
            _ = try box.tryResolve(Engine.self)
            _ = try box.tryResolve(ImageCache.self)
        }
        #expect(shared.value == 1)
        #expect(new.value == 3)
    }

    @Test func onResolveErrorReachesTryResolve() throws {
        let box = DIContainer()
        box.register { Shared(Engine.init).onResolve { _, _ in throw Offline() } }
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(Engine.self) }
        #expect(error.reason == .factoryFailed)
        #expect(error.underlyingError is Offline)
    }
}
