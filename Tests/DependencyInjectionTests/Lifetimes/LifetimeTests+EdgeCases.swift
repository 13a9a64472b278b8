import DependencyInjection
import Testing

// Lifetimes meeting each other: Graph inside Shared, eager after releaseInstances.

private final class UnitOfWork { init() {} }
private final class Repository {
    let work: UnitOfWork
    init(work: UnitOfWork) { self.work = work }
}
private final class Service {
    let work: UnitOfWork
    let repository: Repository
    init(work: UnitOfWork, repository: Repository) {
        self.work = work
        self.repository = repository
    }
}

extension GraphLifetimeTests {
    @Test func aGraphInstanceInsideASharedServiceIsFixedWhenTheSharedOneIsMade() throws {
        let box = DIContainer()
        box.register {
            Graph(UnitOfWork.init)
            New { resolve in Repository(work: resolve()) }
            Shared { resolve in Service(work: resolve(), repository: resolve()) }
        }
        let service = try box.tryResolve(Service.self)
        #expect(service.repository.work === service.work)
        #expect(try box.tryResolve(Service.self).work === service.work)
        #expect(try box.tryResolve(UnitOfWork.self) !== service.work)
    }
}

extension EagerTests {
    @Test func afterReleaseInstancesAnEagerServiceIsMadeAgainOnlyWhenResolved() throws {
        let made = Tally()
        let box = DIContainer()
        box.register(Shared(Counted(made)).eager())
        let first = try box.tryResolve(Counted.self)
        box.releaseInstances()
        #expect(made.value == 1)
        #expect(try box.tryResolve(Counted.self) !== first)
        #expect(made.value == 2)
    }
}
