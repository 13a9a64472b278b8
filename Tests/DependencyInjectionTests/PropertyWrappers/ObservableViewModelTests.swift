#if canImport(Observation)
    import DependencyInjection
    import Observation
    import Testing

    // SwiftUI-era view models: inside an `@Observable` class, `@Inject` and `@LazyInject` need
    // `@ObservationIgnored` (without it the macro makes the property computed, and a property
    // wrapper cannot be applied to a computed property).

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Observable private final class GreeterViewModel {
        @ObservationIgnored @Inject var router: Router
        @ObservationIgnored @LazyInject var config: AppConfiguration
        @ObservationIgnored @InjectAll var trackers: [Tracker]
        var title = "Welcome"
    }

    @Suite(.timeLimit(.minutes(1))) struct ObservableViewModelTests {
        @Test func anObservableViewModelResolvesItsIgnoredInjectedPropertiesAndStaysObservable() throws {
            guard #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) else { return }
            let box = DIContainer()
            registerScreenDependencies(in: box)
            let model = box.activate { GreeterViewModel() }
            #expect(model.router === box.resolve(Router.self))
            #expect(!model.$config.isResolved)
            #expect(model.config === box.resolve(AppConfiguration.self))
            #expect(model.trackers.count == 1)
            let changes = Tally()
            withObservationTracking {
                _ = model.title
            } onChange: {
                changes.increment()
            }
            model.title = "Hello"
            #expect(changes.value == 1)
        }
    }
#endif
