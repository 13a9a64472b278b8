import DependencyInjection
import Testing

// Shared, New, Weak, Graph and eager(): how long an instance lives.

private final class Token {
    init(_ counter: FactoryCallCounter? = nil) { counter?.increment() }
}

/// A Graph-scoped unit of work, shared by everything one top-level resolution makes.
private final class UnitOfWork { init() {} }

private final class Repository {
    let work: UnitOfWork
    init(work: UnitOfWork) { self.work = work }
}

private final class Auditor {
    @Inject var work: UnitOfWork
    @Inject var repository: Repository
}

private final class Checkout {
    let work: UnitOfWork
    let repository: Repository
    let auditor: Auditor
    init(work: UnitOfWork, repository: Repository, auditor: Auditor) {
        self.work = work
        self.repository = repository
        self.auditor = auditor
    }
}

private func registerGraph(in box: DIContainer) {
    box.register {
        Graph(UnitOfWork.init)
        New { resolve in Repository(work: resolve()) }
        New(Auditor())
        New { resolve in Checkout(work: resolve(), repository: resolve(), auditor: resolve()) }
    }
}

@Suite struct LifetimeTests {
    @Test func sharedIsMadeOnceAndReturnedEveryTime() {
        let made = FactoryCallCounter()
        let box = DIContainer()
        box.register(Shared(Token(made)))
        let first = box.resolve(Token.self)
        #expect(box.resolve(Token.self) === first)
        #expect(box.resolve(Token.self) === first)
        #expect(made.value == 1)
    }

    @Test func sharedIsNotMadeUntilFirstResolved() {
        let made = FactoryCallCounter()
        let box = DIContainer()
        box.register(Shared(Token(made)))
        #expect(made.value == 0)
        _ = box.resolve(Token.self)
        #expect(made.value == 1)
    }

    @Test func newMakesAnInstanceOnEveryResolve() {
        let made = FactoryCallCounter()
        let box = DIContainer()
        box.register(New(Token(made)))
        let first = box.resolve(Token.self)
        let second = box.resolve(Token.self)
        #expect(first !== second)
        #expect(made.value == 2)
    }

    @Test func weakIsSharedWhileHeldAndMadeAnewAfterRelease() {
        let made = FactoryCallCounter()
        let box = DIContainer()
        box.register(Weak(Token(made)))
        weak var released: Token?
        do {
            let held = box.resolve(Token.self)
            #expect(box.resolve(Token.self) === held)
            #expect(made.value == 1)
            released = held
        }
        #expect(released == nil, "the container must not keep a Weak instance alive")
        _ = box.resolve(Token.self)
        #expect(made.value == 2)
    }

    @Test func weakOfAValueTypeIsAnError() throws {
        let box = DIContainer()
        box.register(Weak(7))
        let error = try #require(resolutionError { try box.tryResolve(Int.self) })
        #expect(error.reason == .weakRequiresClass(instanceType: "Int"))
        #expect(error.description.contains("registered as Weak"))
    }

    @Test func graphIsSharedWithinOneResolutionThroughClosuresAndWrappers() {
        let box = DIContainer()
        registerGraph(in: box)
        let checkout = box.resolve(Checkout.self)
        #expect(checkout.repository.work === checkout.work)
        #expect(checkout.auditor.work === checkout.work)
        #expect(checkout.auditor.repository.work === checkout.work)
        #expect(checkout.auditor.repository !== checkout.repository)
    }

    @Test func graphIsNewForTheNextTopLevelResolution() {
        let box = DIContainer()
        registerGraph(in: box)
        let first = box.resolve(Checkout.self)
        let second = box.resolve(Checkout.self)
        #expect(first.work !== second.work)
        #expect(box.resolve(UnitOfWork.self) !== box.resolve(UnitOfWork.self))
    }

    @Test func graphIsSharedWhenTheTopLevelObjectIsMadeWithPropertyWrappers() {
        let box = DIContainer()
        registerGraph(in: box)
        let auditor = box.resolve(Auditor.self)
        #expect(auditor.repository.work === auditor.work)
    }

    @Test func graphInsideASharedServiceIsFixedWhenTheSharedOneIsMade() {
        final class Service {
            let work: UnitOfWork
            let repository: Repository
            init(work: UnitOfWork, repository: Repository) {
                self.work = work
                self.repository = repository
            }
        }
        let box = DIContainer()
        registerGraph(in: box)
        box.register(Shared { resolve in Service(work: resolve(), repository: resolve()) })
        let service = box.resolve(Service.self)
        #expect(service.repository.work === service.work)
        #expect(box.resolve(Service.self).work === service.work)
        #expect(box.resolve(UnitOfWork.self) !== service.work)
    }

    @Test func eagerIsMadeWhenTheRegisterCallReturns() {
        let made = FactoryCallCounter()
        let box = DIContainer()
        box.register(Shared(Token(made)).eager())
        #expect(made.value == 1)
        _ = box.resolve(Token.self)
        #expect(made.value == 1)
    }

    @Test func eagerIsMadeAfterTheWholeBlockSoDependenciesMayComeLater() {
        let made = FactoryCallCounter()
        final class Engine {
            let token: Token
            init(token: Token) { self.token = token }
        }
        let box = DIContainer()
        box.register {
            Shared { resolve in Engine(token: resolve()) }.eager()
            Shared(Token(made))
        }
        #expect(made.value == 1, "the eager Engine made its Token while registering")
        #expect(box.resolve(Engine.self).token === box.resolve(Token.self))
    }

    @Test func anEagerFailureThrowsFromTryRegisterAndLeavesTheContainerUnchanged() throws {
        final class Engine {
            init(token: Token) {}
        }
        let box = DIContainer()
        box.register(Shared(Token()).named("kept"))
        let error = try #require(resolutionError {
            try box.tryRegister {
                Shared(Token.init)
                Shared { resolve in Engine(token: try resolve.tryResolve(name: "absent")) }.eager()
            }
        })
        #expect(error.reason == .missingRegistration)
        #expect(error.typeName == "Token")
        #expect(error.name == "absent")
        #expect(box.resolve(Engine?.self) == nil)
        #expect(box.resolve(Token?.self) == nil)
        #expect(box.resolve(Token?.self, name: "kept") != nil)
    }

    @Test func releaseInstancesMakesEagerSharedAnewOnNextResolve() {
        let made = FactoryCallCounter()
        let box = DIContainer()
        box.register(Shared(Token(made)).eager())
        let first = box.resolve(Token.self)
        box.releaseInstances()
        #expect(made.value == 1)
        #expect(box.resolve(Token.self) !== first)
        #expect(made.value == 2)
    }
}
