import DependencyInjection
import Testing

// Several registrations of one type, told apart by name.

@Suite(.timeLimit(.minutes(1))) struct NameTests {
    private func stores() -> DIContainer {
        let box = DIContainer()
        box.register {
            Shared(PostgresStore.init, as: Store.self).named("primary")
            Shared(MemoryStore.init, as: Store.self).named("cache")
        }
        return box
    }

    @Test func eachNameResolvesItsOwnRegistration() throws {
        let box = stores()
        #expect(try box.tryResolve(Store.self, name: "primary").kind == "postgres")
        #expect(try box.tryResolve(Store.self, name: "cache").kind == "memory")
        #expect(try box.tryResolve(Store.self, name: "cache") === box.tryResolve(Store.self, name: "cache"))
    }

    @Test func theNameAppliesToTheImplementationTypeToo() throws {
        let box = stores()
        #expect(try box.tryResolve(PostgresStore.self, name: "primary") === box.tryResolve(Store.self, name: "primary"))
        #expect(box.resolve(PostgresStore?.self) == nil)
    }

    @Test func unnamedAndNamedRegistrationsOfOneTypeCoexist() throws {
        let box = stores()
        box.register(Shared(MemoryStore() as Store))
        let unnamed = try box.tryResolve(Store.self)
        #expect(try unnamed !== box.tryResolve(Store.self, name: "cache"))
        #expect(try box.tryResolve(Store.self, name: "primary").kind == "postgres")
    }

    @Test func unnamedResolveDoesNotFallBackToANamedRegistration() throws {
        let error = try #require(throws: ResolutionError.self) { try stores().tryResolve(Store.self) }
        #expect(error.reason == .missingRegistration)
        #expect(error.name == nil)
        #expect(error.registeredNames == ["cache", "primary"])
    }

    @Test func unnamedOptionalIgnoresNamedRegistrations() {
        #expect(stores().resolve(Store?.self) == nil)
    }

    @Test func namedOptionalResolvesItsName() {
        let box = stores()
        #expect(box.resolve(Store?.self, name: "cache")?.kind == "memory")
        #expect(box.resolve(Store?.self, name: "archive") == nil)
    }

    @Test func replacingANamedRegistrationLeavesOtherNamesAlone() throws {
        let box = stores()
        let cache = try box.tryResolve(Store.self, name: "cache")
        box.register(New(MemoryStore() as Store).named("primary"))
        #expect(try box.tryResolve(Store.self, name: "primary").kind == "memory")
        #expect(try box.tryResolve(Store.self, name: "cache") === cache)
    }

    @Test func namesReachFactoriesThroughTheResolver() throws {
        let box = stores()
        box.register {
            New { resolve in Pair(resolve(Store.self, name: "primary"), resolve(Store.self, name: "cache")) }
        }
        let pair = try box.tryResolve(Pair<Store, Store>.self)
        #expect(pair.first.kind == "postgres")
        #expect(pair.second.kind == "memory")
    }

    @Test func namedParameterizedRegistrationsAreSeparate() throws {
        let box = DIContainer()
        box.register {
            New { (_, id: String) in ConcreteViewModel(id: "a-" + id) }.named("a")
            New { (_, id: String) in ConcreteViewModel(id: "b-" + id) }.named("b")
        }
        #expect(try box.tryResolve(ConcreteViewModel.self, name: "a", arguments: { "1" }).id == "a-1")
        #expect(try box.tryResolve(ConcreteViewModel.self, name: "b", arguments: { "1" }).id == "b-1")
    }
}
