import DependencyInjection
import Testing

// onResolve: injection after creation, the way to break a cycle between two services.

private final class Owner {
    var pet: Pet?
    init() {}
}

private final class Pet {
    let owner: Owner
    init(owner: Owner) { self.owner = owner }
}

private struct Unreachable: Error {}

@Suite struct OnResolveTests {
    @Test func twoSharedServicesPointAtEachOther() {
        let box = DIContainer()
        box.register {
            Shared(Owner.init).onResolve { owner, resolve in owner.pet = resolve() }
            Shared { resolve in Pet(owner: resolve()) }
        }
        let owner = box.resolve(Owner.self)
        #expect(owner.pet?.owner === owner)
        #expect(box.resolve(Pet.self) === owner.pet)
    }

    @Test func onResolveRunsOnceForSharedAndForEveryNewInstance() {
        let sharedRuns = FactoryCallCounter()
        let newRuns = FactoryCallCounter()
        let box = DIContainer()
        box.register {
            Shared(Owner.init).onResolve { _, _ in sharedRuns.increment() }
            New { Pet(owner: Owner()) }.onResolve { _, _ in newRuns.increment() }
        }
        for _ in 0..<3 {
            _ = box.resolve(Owner.self)
            _ = box.resolve(Pet.self)
        }
        #expect(sharedRuns.value == 1)
        #expect(newRuns.value == 3)
    }

    @Test func onResolveSeesTheInstanceThatIsReturned() {
        let seen = ConcurrentCollector<ObjectIdentifier>()
        let box = DIContainer()
        box.register(New(Owner.init).onResolve { owner, _ in seen.append(ObjectIdentifier(owner)) })
        let owner = box.resolve(Owner.self)
        #expect(seen.all == [ObjectIdentifier(owner)])
    }

    @Test func anErrorThrownByOnResolveReachesTryResolve() throws {
        let box = DIContainer()
        box.register(Shared(Owner.init).onResolve { _, _ in throw Unreachable() })
        let error = try #require(resolutionError { try box.tryResolve(Owner.self) })
        #expect(error.reason == .factoryFailed)
        #expect(error.underlyingError is Unreachable)
    }

    @Test func resolvingTheInjectedSideFirstIsReportedAsACycle() throws {
        // Pet's factory needs Owner, and Owner's onResolve needs Pet while Pet is still being
        // made: the one order that cannot work. It is reported, never a stack overflow.
        let box = DIContainer()
        box.register {
            Shared(Owner.init).onResolve { owner, resolve in owner.pet = try resolve.tryResolve() }
            Shared { resolve in try Pet(owner: resolve.tryResolve()) }
        }
        let error = try #require(resolutionError { try box.tryResolve(Pet.self) })
        #expect(error.reason == .dependencyCycle(cycle: ["Pet", "Owner", "Pet"]))
    }

    @Test func aCycleThroughFactoriesAloneStaysAnError() throws {
        let box = DIContainer()
        box.register {
            Shared { resolve in try Owner.make(pet: resolve.tryResolve()) }
            Shared { resolve in try Pet(owner: resolve.tryResolve()) }
        }
        let error = try #require(resolutionError { try box.tryResolve(Owner.self) })
        #expect(error.reason == .dependencyCycle(cycle: ["Owner", "Pet", "Owner"]))
    }
}

extension Owner {
    fileprivate static func make(pet: Pet) -> Owner {
        let owner = Owner()
        owner.pet = pet
        return owner
    }
}
