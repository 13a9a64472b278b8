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
    @Test func sharedMakesOneInstancePerContainer() {
        let made = Tally()
        let box = DIContainer()
        box.register { Shared(Counted(made)) }
        #expect(box.resolve(Counted.self) === box.resolve(Counted.self))
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
        #expect(box.resolve(Engine.self) === engine)
        #expect(attempts.value == 2)
    }

    @Test func sharedMadeWithArgumentsKeepsItsFirstInstance() {
        let box = DIContainer()
        box.register { Shared { (_, id: String) in ConcreteViewModel(id: id) } }
        let first = box.resolve(ConcreteViewModel.self, arguments: { "first" })
        let second = box.resolve(ConcreteViewModel.self, arguments: { "second" })
        #expect(first === second)
        #expect(second.id == "first")
    }
}

@Suite(.timeLimit(.minutes(1))) struct NewLifetimeTests {
    @Test func newMakesAnInstanceOnEveryResolve() {
        let made = Tally()
        let box = DIContainer()
        box.register { New(Counted(made)) }
        #expect(box.resolve(Counted.self) !== box.resolve(Counted.self))
        #expect(made.value == 2)
    }

}

@Suite(.timeLimit(.minutes(1))) struct WeakLifetimeTests {
    @Test func weakIsSharedWhileSomeoneHoldsIt() {
        let box = DIContainer()
        box.register {
            Weak(ImageCache.init)
            Weak(CacheImpl() as Cache)  // registered as a protocol: its instance is still a class instance
        }
        let held = box.resolve(ImageCache.self)
        #expect(box.resolve(ImageCache.self) === held)
        let heldCache = box.resolve(Cache.self)
        #expect(box.resolve(Cache.self) === heldCache)
    }

    @Test func weakIsMadeAnewAfterItIsReleased() {
        let made = Tally()
        let box = DIContainer()
        box.register { Weak(Counted(made)) }
        weak var first: Counted?
        do {
            let strong = box.resolve(Counted.self)
            first = strong
        }
        #expect(first == nil)
        _ = box.resolve(Counted.self)
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

    @Test func graphIsNewForEachTopLevelResolution() {
        let box = container()
        let first = box.resolve(Workspace.self)
        let second = box.resolve(Workspace.self)
        #expect(first.session !== second.session)
        #expect(box.resolve(Session.self) !== box.resolve(Session.self))
    }

    @Test func graphReachesPropertyWrappersOfWhatTheResolutionMakes() {
        let box = container()
        box.register {
            New { resolve in Pair(resolve(WrappedSessionUser.self), resolve(Session.self)) }
        }
        let pair = box.resolve(Pair<WrappedSessionUser, Session>.self)
        #expect(pair.first.session === pair.second)
    }

    @Test func graphInstanceDoesNotSurviveAFailedResolution() {
        let box = container()
        box.register {
            New { resolve throws -> Workspace in
                let user: SessionUser = resolve()
                _ = user
                throw Offline()
            }
        }
        #expect(throws: ResolutionError.self) { try box.tryResolve(Workspace.self) }
        #expect(box.resolve(SessionUser.self).session !== box.resolve(SessionUser.self).session)
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
    @Test func eagerIsMadeWhenItsRegisterCallReturns() {
        let made = Tally()
        let box = DIContainer()
        box.register { Shared(Counted(made)).eager() }
        #expect(made.value == 1)
        _ = box.resolve(Counted.self)
        #expect(made.value == 1)
    }

    @Test func eagerMayDependOnRegistrationsLaterInTheSameBlock() {
        let box = DIContainer()
        box.register {
            Shared { resolve in NeedsDatabase(database: resolve()) }.eager()
            Shared(Database.init)
        }
        #expect(box.resolve(NeedsDatabase.self).database === box.resolve(Database.self))
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
        #expect(box.resolve(Store.self).kind == "postgres")
        #expect(box.resolve(NeedsDatabase?.self) == nil)
    }
}

@Suite(.timeLimit(.minutes(1))) struct OnResolveTests {
    @Test func onResolveRunsOncePerInstanceMade() {
        let shared = Tally()
        let new = Tally()
        let box = DIContainer()
        box.register {
            Shared(Engine.init).onResolve { _, _ in shared.increment() }
            New(ImageCache.init).onResolve { _, _ in new.increment() }
        }
        for _ in 0..<3 {
            _ = box.resolve(Engine.self)
            _ = box.resolve(ImageCache.self)
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
