import DependencyInjection
import Testing

// Main-actor factories: they run on the main actor, and resolving them elsewhere is an error.

@MainActor private final class ViewState {
    var title = "start"
    init() {}
}

@MainActor private final class Screenplay {
    let state: ViewState
    init(state: ViewState) { self.state = state }
}

@MainActor private final class Stage {
    @Inject var state: ViewState
}

/// A non-Sendable service, registered and captured without any annotation.
private final class Notebook {
    var pages: [String] = []
    init() {}
}

private func registerMainActorServices(in box: DIContainer, counter: FactoryCallCounter) {
    box.register {
        Shared { @MainActor () -> ViewState in
            counter.increment()
            return ViewState()
        }
        New { @MainActor resolve in Screenplay(state: resolve()) }
    }
}

@Suite struct MainActorTests {
    @MainActor @Test func aMainActorFactoryResolvesOnTheMainActor() {
        let made = FactoryCallCounter()
        let box = DIContainer()
        registerMainActorServices(in: box, counter: made)
        let state = box.resolve(ViewState.self)
        #expect(box.resolve(ViewState.self) === state)
        #expect(box.resolve(Screenplay.self).state === state)
        #expect(made.value == 1)
    }

    @MainActor @Test func aMainActorServiceIsInjectedIntoAMainActorObject() {
        let box = DIContainer()
        registerMainActorServices(in: box, counter: FactoryCallCounter())
        let stage = box.activate { Stage() }
        #expect(stage.state === box.resolve(ViewState.self))
    }

    @Test func resolvingAMainActorFactoryOffTheMainActorIsAnErrorNotACrash() async throws {
        let made = FactoryCallCounter()
        let box = DIContainer()
        registerMainActorServices(in: box, counter: made)
        let error = await Task.detached { () -> ResolutionError? in
            do {
                _ = try box.tryResolve(ViewState.self)
                return nil
            } catch let error as ResolutionError {
                return error
            } catch {
                return nil
            }
        }.value
        let failure = try #require(error)
        #expect(failure.reason == .mainActorRequired)
        #expect(failure.typeName == "ViewState")
        #expect(failure.description.hasPrefix("'ViewState' (name: nil) is made by a @MainActor factory and was resolved off the main actor."))
        #expect(made.value == 0, "the factory must not run off the main actor")
    }

    @Test func aMainActorDependencyOfAnotherFactoryIsAnErrorOffTheMainActor() async throws {
        final class Plain {
            init(state: ViewState) {}
        }
        let box = DIContainer()
        registerMainActorServices(in: box, counter: FactoryCallCounter())
        box.register(New { resolve in try Plain(state: resolve.tryResolve()) })
        let error = await Task.detached { () -> ResolutionError? in
            do {
                _ = try box.tryResolve(Plain.self)
                return nil
            } catch let error as ResolutionError {
                return error
            } catch {
                return nil
            }
        }.value
        let failure = try #require(error)
        #expect(failure.reason == .mainActorRequired)
        #expect(failure.path == ["Plain", "ViewState"])
    }

    @Test func aFailedOffMainAttemptLeavesTheServiceUsableOnTheMainActor() async throws {
        let made = FactoryCallCounter()
        let box = DIContainer()
        registerMainActorServices(in: box, counter: made)
        let failed = await Task.detached { (try? box.tryResolve(ViewState.self)) == nil }.value
        #expect(failed)
        let title = await MainActor.run { box.resolve(ViewState.self).title }
        #expect(title == "start")
        #expect(made.value == 1)
    }

    @Test func anOrdinaryFactoryResolvesOffTheMainActor() async {
        let box = DIContainer()
        box.register(Shared(Leaflet.init))
        let resolved = await Task.detached { (try? box.tryResolve(Leaflet.self)) != nil }.value
        #expect(resolved)
    }

    @Test func nonSendableServicesAndCapturesRegisterWithoutWarnings() {
        // Compiling this under Swift 6 with warnings as errors is the test; the resolve checks
        // that the captured non-Sendable value is the one used.
        let notebook = Notebook()
        notebook.pages.append("first")
        let box = DIContainer()
        box.register {
            Shared(notebook)
            New { _ in notebook.pages.count }
            Shared { resolve in Binder(notebook: resolve()) }
        }
        #expect(box.resolve(Notebook.self) === notebook)
        #expect(box.resolve(Int.self) == 1)
        #expect(box.resolve(Binder.self).notebook === notebook)
    }
}

private final class Leaflet: Sendable { init() {} }

private final class Binder {
    let notebook: Notebook
    init(notebook: Notebook) { self.notebook = notebook }
}
