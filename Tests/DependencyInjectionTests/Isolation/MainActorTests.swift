import DependencyInjection
import Testing

// Main-actor services: made on the main actor only, never a silent data race.

@MainActor private final class MainModel {
    let label: String
    init(label: String = "main") { self.label = label }
}

private final class UsesMainModel {
    let model: MainModel
    init(model: MainModel) { self.model = model }
}

/// Not Sendable: registering it, and closures that capture it, must compile without warnings.
private final class NotSendable {
    var value = 0
}

@Suite(.timeLimit(.minutes(1))) struct MainActorTests {
    private func container(_ made: Tally) -> DIContainer {
        let box = DIContainer()
        box.register {
            Shared { @MainActor in
                made.increment()
                return MainModel()
            }
        }
        return box
    }

    @MainActor @Test func mainActorFactoryWithResolverGetsItsDependencies() {
        let box = DIContainer()
        box.register {
            Shared(AppConfigurationImpl() as AppConfiguration)
            Shared { @MainActor resolve in MainModel(label: resolve(AppConfiguration.self).environment) }
        }
        #expect(box.resolve(MainModel.self).label == "production")
    }

    @MainActor @Test func aPlainFactoryMayDependOnAMainActorServiceOnTheMainActor() {
        let made = Tally()
        let box = container(made)
        box.register { New { resolve in UsesMainModel(model: resolve()) } }
        #expect(box.resolve(UsesMainModel.self).model === box.resolve(MainModel.self))
    }

    @Test func aPlainFactoryThatNeedsAMainActorServiceOffTheMainActorFailsWithThePath() async {
        let made = Tally()
        let box = container(made)
        box.register { New { resolve in try UsesMainModel(model: resolve.tryResolve()) } }
        let path = await Task.detached { () -> [String] in
            do {
                _ = try box.tryResolve(UsesMainModel.self)
                return []
            } catch {
                return (error as? ResolutionError)?.path ?? []
            }
        }.value
        #expect(path == ["UsesMainModel", "MainModel"])
        #expect(made.value == 0)
    }

    @Test func nonSendableServicesAndCapturesRegister() {
        let captured = NotSendable()
        captured.value = 7
        let box = DIContainer()
        box.register {
            Shared(NotSendable())
            New { _ in Pair(captured, captured.value) }
        }
        #expect(box.resolve(Pair<NotSendable, Int>.self).second == 7)
        #expect(box.resolve(NotSendable.self) === box.resolve(NotSendable.self))
    }
}
