import DependencyInjection
import Testing

// Factories as dependencies (assisted injection): closures that resolve with arguments.

private final class DetailViewModel {
    let id: String
    let store: Store
    init(id: String, store: Store) {
        self.id = id
        self.store = store
    }
}

private final class ListViewModel {
    let makeDetail: (String) -> DetailViewModel
    init(makeDetail: @escaping (String) -> DetailViewModel) { self.makeDetail = makeDetail }
}

@Suite(.timeLimit(.minutes(1))) struct FactoryTests {
    private func detailContainer() -> DIContainer {
        let box = DIContainer()
        box.register {
            Shared(MemoryStore() as Store)
            New { resolve, id in DetailViewModel(id: id, store: resolve()) }
            Shared { resolve in ListViewModel(makeDetail: resolve.factory(DetailViewModel.self, arguments: String.self))
            }
        }
        return box
    }

    @Test func aFactoryResolvesWithTheArgumentsItIsCalledWith() {
        let box = detailContainer()
        let makeDetail = box.factory(DetailViewModel.self, arguments: String.self)
        #expect(makeDetail("42").id == "42")
        #expect(makeDetail("7").id == "7")
        #expect(makeDetail("42") !== makeDetail("42"))
    }

    @Test func aFactoryAFactoryReceivedWorksAfterThatFactoryReturned() {
        let box = detailContainer()
        let list = box.resolve(ListViewModel.self)
        let detail = list.makeDetail("9")
        #expect(detail.id == "9")
        #expect(detail.store === box.resolve(Store.self))
    }

    @Test func theStaticFactoryResolvesFromTheContainerCurrentWhenItWasMade() {
        let box = detailContainer()
        let makeDetail = box.activate { DIContainer.factory(DetailViewModel.self, arguments: String.self) }
        #expect(makeDetail("1").store === box.resolve(Store.self))
    }

    @Test func aFactoryWithoutArgumentsAndANameWorks() {
        let box = DIContainer()
        box.register { Shared(PostgresStore() as Store).named("primary") }
        let makeStore = box.factory(Store.self, name: "primary")
        #expect(makeStore() === box.resolve(Store.self, name: "primary"))
    }

    @Test func aFactoryDoesNotKeepItsContainerAlive() {
        weak var weakBox: DIContainer?
        var list: ListViewModel?
        do {
            let box = detailContainer()
            weakBox = box
            list = box.resolve(ListViewModel.self)
        }
        #expect(weakBox == nil)
        #expect(list != nil)
    }

    @Test func aFactoryCalledAfterItsContainerIsGoneTrapsWithAMessage() async throws {
        let run = try await TrapRun.run("factoryUsedAfterItsContainer")
        #expect(run.trapped)
        let message = try #require(run.trapMessage, "no fatal error: \(run.stderr)")
        #expect(message.hasPrefix("DependencyInjection: a Resolver was used after its container was deallocated."))
        #expect(message.contains("A closure made by factory(_:name:arguments:) resolves from its container too"))
    }

    @Test func aFactoryCalledWithWrongArgumentsTrapsWithTheUsualMessage() async throws {
        let run = try await TrapRun.run("factoryWithWrongArguments")
        #expect(run.trapped)
        let expected = try #require(run.expectedMessage)
        #expect(run.trapMessage == expected)
        #expect(expected.hasPrefix("Wrong arguments for 'Detail': expected (String), received (Int)."))
    }
}
