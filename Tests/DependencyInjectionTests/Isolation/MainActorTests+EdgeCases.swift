import DependencyInjection
import Testing

// Main-actor services after a refused off-main attempt, and inside main-actor objects.

@MainActor private final class ViewState {
    let title = "start"
    init() {}
}

@MainActor private final class Stage {
    @Inject var state: ViewState
}

extension MainActorTests {
    @Test func aMainActorFactoryIsMadeOnTheMainActorForACallerOffItAndOnlyOnce() async {
        let made = Tally()
        let box = DIContainer()
        box.register(
            Shared { @MainActor () -> ViewState in
                made.increment()
                return ViewState()
            })
        let offMain = await Task.detached { try? box.tryResolve(ViewState.self) }.value
        #expect(offMain != nil)
        #expect(made.value == 1)
        let title = await MainActor.run { box.resolve(ViewState.self).title }
        #expect(title == "start")
        let same = await MainActor.run { box.resolve(ViewState.self) === box.resolve(ViewState.self) }
        #expect(same)
        #expect(made.value == 1)
        #expect(await MainActor.run { box.resolve(ViewState.self) } === offMain)
    }

    @MainActor @Test func aMainActorObjectInjectsAMainActorService() {
        let box = DIContainer()
        box.register(Shared { @MainActor in ViewState() })
        let stage = box.activate { Stage() }
        #expect(stage.state === box.resolve(ViewState.self))
    }
}
