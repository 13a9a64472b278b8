import DependencyInjection
import Testing

// The DocC articles' examples, one suite per article, each asserting what its article claims.
// Types are nested in their suite so they read as in the article without clashing with fixtures.
// Run them with `swift test --filter Documentation`. Not here: the `@retroactive
// DependencyRegistering` conformance (one conformance per module: the fixtures and the example
// app make it without `@retroactive`, as targets of this package must).

/// The examples of the DocC articles in `DependencyInjection.docc`.
@Suite(.timeLimit(.minutes(1))) enum DocumentationExamples {}

extension DocumentationExamples {
    @Suite struct GettingStartedArticle {
        protocol AppConfiguration { var environment: String { get } }
        final class AppConfigurationImpl: AppConfiguration { let environment = "production" }

        protocol Router { var name: String { get } }
        final class RouterImpl: Router {
            let name: String
            init(config: AppConfiguration) { name = "router for \(config.environment)" }
        }

        protocol Payments {}
        final class MockPayments: Payments {}
        protocol Tracker {}
        final class TrackerImpl: Tracker {}
        protocol Cache {}
        final class CacheImpl: Cache {}
        protocol MediaPlayer {}
        final class Engine { init() {} }

        final class SettingsScreen {
            @Inject var router: Router  // resolved when the screen is made
            @LazyInject var config: AppConfiguration  // resolved on first access
            @MutableInject var tracker: Tracker  // resolved when made, settable
            @MutableLazyInject var cache: Cache  // resolved on first access, settable
            @Inject var player: MediaPlayer?  // nil when nothing is registered
        }

        enum Features {
            static var routing: Module {
                Module {
                    Shared(AppConfigurationImpl() as AppConfiguration)
                    Shared { resolve in RouterImpl(config: resolve()) as Router }
                }
            }
        }

        static func registerScreenExtras() {
            DIContainer.register {
                New(TrackerImpl() as Tracker)
                Shared(CacheImpl() as Cache)
            }
        }

        @Test func gettingStartedExamplesBehaveAsDescribed() throws {
            try DIContainer().activate {
                DIContainer.register {
                    Shared(AppConfigurationImpl() as AppConfiguration)  // an expression, made lazily
                    Shared { resolve in RouterImpl(config: resolve()) as Router }  // a closure that resolves
                }
                let router = DIContainer.resolve(Router.self)
                let config: AppConfiguration = DIContainer.resolve()
                #expect(router.name == "router for production")
                #expect(config.environment == "production")

                let useMockPayments = true
                DIContainer.register {
                    Features.routing
                    if useMockPayments {
                        New(MockPayments() as Payments)
                    }
                }
                #expect(DIContainer.resolve(Payments.self) is MockPayments)

                Self.registerScreenExtras()
                let screen = SettingsScreen()
                #expect(screen.router.name == "router for production")
                #expect(screen.config.environment == "production")
                #expect(screen.tracker is TrackerImpl)
                #expect(screen.cache is CacheImpl)
                #expect(screen.player == nil)

                let error = try #require(throws: ResolutionError.self) { try DIContainer.tryResolve(MediaPlayer.self) }
                #expect(error.reason == .missingRegistration)
            }

            let box = DIContainer()  // empty and independent
            box.register { Shared(Engine.init) }
            let engine = box.resolve(Engine.self)
            let feature = DIContainer(parent: box)  // falls back to box for what it lacks
            #expect(feature.resolve(Engine.self) === engine)
            box.register(Features.routing)
            box.activate {
                Self.registerScreenExtras()
                let screen = SettingsScreen()  // its property wrappers resolve from box
                #expect(screen.router.name == "router for production")
            }
            #expect((try? DIContainer().tryResolve(Engine.self)) == nil)
        }
    }

    @Suite struct LifetimesArticle {
        protocol Router: AnyObject {}
        protocol DeeplinkHandler: AnyObject {}
        final class RouterImpl: Router, DeeplinkHandler { init() {} }
        final class MockRouter: Router {}
        protocol FeatureOneViewModel: AnyObject {}
        final class FeatureOneViewModelImplementation: FeatureOneViewModel {}
        final class ImageCache { init() {} }
        struct Thumbnail {}

        final class Database {
            nonisolated(unsafe) static var made = 0
            init() { Database.made += 1 }
        }

        final class Session { init() {} }
        final class SessionModel {
            let session: Session
            init(session: Session) { self.session = session }
        }
        final class SessionScreen {
            let session: Session
            let model: SessionModel
            init(session: Session, model: SessionModel) {
                self.session = session
                self.model = model
            }
        }

        // Parent and Child are the article's, as in Fixtures.swift.

        final class Chicken { init(egg: Egg) {} }
        final class Egg { init(chicken: Chicken) {} }
        final class RemotePool: Sendable {}

        @Test func lifetimesBehaveAsDescribed() throws {
            try DIContainer().activate {
                // Shared, with aliases; a per-alias override.
                DIContainer.register {
                    Shared(RouterImpl.init, as: Router.self, DeeplinkHandler.self)
                }
                let router = DIContainer.resolve(Router.self)
                let handler = DIContainer.resolve(DeeplinkHandler.self)  // the same instance
                #expect(router === handler)
                #expect(DIContainer.resolve(RouterImpl.self) === router)
                DIContainer.register(New(MockRouter() as Router))
                #expect(DIContainer.resolve(Router.self) is MockRouter)
                #expect(DIContainer.resolve(DeeplinkHandler.self) === handler)
                #expect(throws: ResolutionError.self) {
                    try DIContainer.tryRegister(Shared(ImageCache(), as: Router.self))
                }

                // eager()
                let databasesBefore = Database.made
                DIContainer.register {
                    Shared(Database.init).eager()  // made when this register call ends
                }
                #expect(Database.made == databasesBefore + 1)

                // New
                DIContainer.register {
                    New(FeatureOneViewModelImplementation() as FeatureOneViewModel)
                }
                let first = DIContainer.resolve(FeatureOneViewModel.self)
                let second = DIContainer.resolve(FeatureOneViewModel.self)  // another instance
                #expect(first !== second)

                // Weak
                DIContainer.register {
                    Weak(ImageCache.init)
                }
                var cache: ImageCache? = DIContainer.resolve(ImageCache.self)
                let again = DIContainer.resolve(ImageCache.self)
                #expect(cache === again)
                weak var released: ImageCache?
                released = cache
                cache = nil
                _ = consume again
                #expect(released == nil)
                DIContainer.register { Weak(Thumbnail()) }
                let weakValue = try #require(throws: ResolutionError.self) {
                    try DIContainer.tryResolve(Thumbnail.self)
                }
                #expect(weakValue.reason == .weakRequiresClass(instanceType: "Thumbnail"))

                // Graph
                DIContainer.register {
                    Graph(Session.init)
                    New { resolve in SessionScreen(session: resolve(), model: resolve()) }
                    New { resolve in SessionModel(session: resolve()) }
                }
                let screen = DIContainer.resolve(SessionScreen.self)
                #expect(screen.session === screen.model.session)
                #expect(DIContainer.resolve(SessionScreen.self).session !== screen.session)

                // onResolve breaks a cycle; factories alone report it.
                DIContainer.register {
                    Shared(Parent.init).onResolve { parent, resolve in parent.child = resolve() }
                    Shared { resolve in Child(parent: resolve()) }
                }
                let parent = DIContainer.resolve(Parent.self)
                #expect(parent.child?.parent === parent)
                DIContainer.register {
                    Shared { resolve in try Chicken(egg: resolve.tryResolve()) }
                    Shared { resolve in try Egg(chicken: resolve.tryResolve()) }
                }
                let cycle = try #require(throws: ResolutionError.self) { try DIContainer.tryResolve(Chicken.self) }
                #expect(cycle.description.hasPrefix("Dependency cycle: Chicken -> Egg -> Chicken"))

                // Releasing and forgetting
                DIContainer.register(Shared(RouterImpl() as Router))
                let before = DIContainer.resolve(Router.self)
                DIContainer.releaseInstances()
                let after = DIContainer.resolve(Router.self)  // a new instance, same registration
                #expect(before !== after)
                DIContainer.reset()  // nothing is registered any more
                #expect(DIContainer.resolve(Router?.self) == nil)
            }
        }

        /// "Releasing and forgetting": what `prepare()` made goes too; `prepare()` makes it again.
        @Test func releaseInstancesDropsWhatPrepareMadeUntilItRunsAgain() async throws {
            let box = DIContainer()
            box.register { Shared { _ async in RemotePool() } }
            try await box.prepare()
            let before = box.resolve(RemotePool.self)
            box.releaseInstances()
            let error = try #require(throws: ResolutionError.self) { try box.tryResolve(RemotePool.self) }
            #expect(error.reason == .notYetMade(actor: nil), "\(error)")
            try await box.prepare()
            #expect(box.resolve(RemotePool.self) !== before)
        }
    }

    @Suite struct NamesAndArgumentsArticle {
        protocol Store: AnyObject { var kind: String { get } }
        final class PostgresStore: Store { let kind = "postgres" }
        final class MemoryStore: Store { let kind = "memory" }
        final class Sync {
            @Inject(name: "primary") var store: Store
        }
        final class ManualSync {
            let store: Store
            init(store: Store) { self.store = store }
        }

        protocol ViewModelProtocol: AnyObject { var id: String { get } }
        final class ConcreteViewModel: ViewModelProtocol {
            let id: String
            init(id: String) { self.id = id }
        }
        protocol PresenterProtocol { var summary: String { get } }
        struct Presenter: PresenterProtocol {
            let summary: String
            init(_ name: String, _ age: Int, _ city: String) { summary = "\(name), \(age), \(city)" }
        }
        final class Catalog {
            let region: String
            init(region: String) { self.region = region }
        }

        @Test func namesAndArgumentsBehaveAsDescribed() throws {
            try DIContainer().activate {
                DIContainer.register {
                    Shared(PostgresStore.init, as: Store.self).named("primary")
                    Shared(MemoryStore.init, as: Store.self).named("cache")
                }
                let cache = DIContainer.resolve(Store.self, name: "cache")
                #expect(cache.kind == "memory")
                #expect(Sync().store.kind == "postgres")
                DIContainer.register {
                    New { resolve in ManualSync(store: resolve(name: "primary")) }
                }
                #expect(DIContainer.resolve(ManualSync.self).store.kind == "postgres")
                #expect(DIContainer.resolve(Store?.self) == nil)
                let unknown = try #require(throws: ResolutionError.self) {
                    try DIContainer.tryResolve(Store.self, name: "archive")
                }
                #expect(unknown.registeredNames == ["cache", "primary"])

                DIContainer.register {
                    New({ resolver, id in ConcreteViewModel(id: id) }, as: ViewModelProtocol.self)
                    New { resolve, name, age, city in Presenter(name, age, city) as PresenterProtocol }
                }
                let viewModel = DIContainer.resolve(ViewModelProtocol.self, arguments: { "id_goes_here" })
                let presenter = DIContainer.resolve(PresenterProtocol.self) { ("Ada", 36, "London") }
                #expect(viewModel.id == "id_goes_here")
                #expect(presenter.summary == "Ada, 36, London")
                #expect(DIContainer.resolve(ViewModelProtocol.self, arguments: { "a" }) !== viewModel)

                let mismatch = try #require(throws: ResolutionError.self) {
                    try DIContainer.tryResolve(ViewModelProtocol.self, arguments: { 7 })
                }
                #expect(
                    mismatch.description.hasPrefix(
                        "Wrong arguments for 'ViewModelProtocol': expected (String), received (Int)."))

                DIContainer.register {
                    Shared { _, region in Catalog(region: region) }
                }
                let europe = DIContainer.resolve(Catalog.self, arguments: { "eu" })
                let stillEurope = DIContainer.resolve(Catalog.self, arguments: { "us" })  // the "eu" instance
                #expect(europe === stillEurope)
                #expect(stillEurope.region == "eu")

                DIContainer.register {
                    New { (_, id: String) in ConcreteViewModel(id: "detail \(id)") as ViewModelProtocol }.named(
                        "detail")
                }
                #expect(
                    DIContainer.resolve(ViewModelProtocol.self, name: "detail", arguments: { "1" }).id == "detail 1")
            }
        }
    }

    @Suite struct ConcurrencyAndActorsArticle {
        // `nonisolated` in the article, for a module with default MainActor isolation: not Sendable.
        final class ScreenState { var title = "" }

        @MainActor static func applicationDidLaunch(_ box: DIContainer) {
            box.register { Shared(ScreenState()) }
        }

        @Test func aNonSendableServiceRegisteredOnTheMainActorStaysThere() async throws {
            let box = DIContainer()
            await Self.applicationDidLaunch(box)
            let error = await errorInDetachedTask { _ = try box.tryResolve(ScreenState.self) }
            #expect(error?.reason == .mainActorRequired, "\(String(describing: error))")
            #expect(
                error?.description.hasPrefix("'ScreenState' is not Sendable") == true, "\(String(describing: error))")
            #expect(await MainActor.run { (try? box.tryResolve(ScreenState.self)) != nil })
        }
    }

    @Suite struct DiagnosticsArticle {
        protocol Router: AnyObject {}
        protocol AppConfiguration {}
        final class ConfiguredRouter: Router {
            init(config: AppConfiguration) {}
        }
        final class PaymentService {
            init(router: Router) {}
        }
        final class CheckoutScreen {
            init(payments: PaymentService) {}
        }
        final class Engine { init() {} }
        struct Offline: Error {}

        /// The whole-graph test's first expectation: a container with nothing registered (a test target
        /// that does not link the target declaring `DependencyRegistering`) is valid, and resolves nothing.
        @Test func theWholeGraphTestNeedsSomethingResolvedAsAnEmptyContainerIsValid() async {
            let report = await DIContainer().validate()
            #expect(report.isValid && report.validCount == 0, "\(report)")
            let registered = DIContainer()
            registered.register { Shared(Engine.init) }
            let checked = await registered.validate()
            #expect(checked.validCount > 0 && checked.isValid, "\(checked)")
        }

        @Test func diagnosticsBehaveAsDescribed() throws {
            try DIContainer().activate {
                DIContainer.register {
                    Shared { resolve in try PaymentService(router: resolve.tryResolve()) }
                    New { resolve in try CheckoutScreen(payments: resolve.tryResolve()) }
                }
                do {
                    _ = try DIContainer.tryResolve(CheckoutScreen.self)
                    Issue.record("resolved without a Router")
                } catch let error as ResolutionError {
                    #expect(error.reason == .missingRegistration)
                    #expect(error.path == ["CheckoutScreen", "PaymentService", "Router"])
                    #expect(
                        error.description.hasPrefix(
                            "No registration for 'Router'.\n"
                                + "Resolution path: CheckoutScreen -> PaymentService -> Router\n"))
                    #expect(error.description.contains("To fix, register it: DIContainer.register {"))
                }

                DIContainer.register {
                    Shared { resolve in try ConfiguredRouter(config: resolve.tryResolve()) as Router }
                    Shared { _ -> AppConfiguration in throw Offline() }
                }
                do {
                    _ = try DIContainer.tryResolve(Router.self)
                    Issue.record("resolved although the factory threw")
                } catch let error as ResolutionError {
                    #expect(error.reason == .factoryFailed)
                    #expect(
                        error.description.hasPrefix(
                            "The factory for 'AppConfiguration' threw an error: Offline()."))
                    #expect(error.path == ["Router", "AppConfiguration"])
                    #expect(error.underlyingError is Offline)
                }

                let registered = DIContainer.current.registrations.count
                let alias = try #require(throws: ResolutionError.self) {
                    try DIContainer.tryRegister(Shared(Engine(), as: Router.self))
                }
                #expect(
                    alias.description.hasPrefix(
                        "'Engine' does not conform to 'Router', so it cannot be registered as 'Router'."))
                #expect(DIContainer.current.registrations.count == registered)
            }

            let valid = DIContainer()
            valid.register {
                Shared(Engine.init)
                New { resolve in ConfiguredRouterHolder(engine: resolve()) }
            }
            let report = valid.validate()
            #expect(report.isValid, "\(report)")
            #expect(report.problems.isEmpty)
            let shared = valid.registrations.filter { $0.lifetime == .shared }
            #expect(shared.map(\.typeName) == ["Engine"], "the New ConfiguredRouterHolder is left out")
            #expect(valid.dependencyGraph().hasPrefix("digraph"))
        }

        final class ConfiguredRouterHolder {
            init(engine: Engine) {}
        }
    }

    /// The article's "What compiles unchanged" block is the contract's seed, line for line:
    /// `SeedContractTests` runs it verbatim. This suite checks what the article adds to it.
    @Suite struct MigratingArticle {
        protocol Router: AnyObject { var name: String { get } }
        final class RouterImpl: Router { let name = "RouterImpl" }
        final class CacheImpl {}
        protocol ViewModelProtocol { var id: String { get } }
        final class ConcreteViewModel: ViewModelProtocol {
            let id: String
            init(id: String) { self.id = id }
        }

        /// The older spelling compiles (not run: it would change the process-wide container).
        static func olderSpelling() {
            DIContainer.shared.register {
                Shared(RouterImpl() as Router)
            }
        }

        @Test func whatTheArticleAddsToTheSeedBehavesAsDescribed() {
            DIContainer().activate {
                // Shared with arguments keeps its first instance.
                DIContainer.register {
                    Shared({ _, id in ConcreteViewModel(id: id) }, as: ViewModelProtocol.self)
                }
                #expect(DIContainer.resolve(ViewModelProtocol.self, arguments: { "first" }).id == "first")
                #expect(DIContainer.resolve(ViewModelProtocol.self, arguments: { "second" }).id == "first")

                // An Optional type is not registrable; a non-conforming alias fails at registration.
                #expect(throws: ResolutionError.self) { try DIContainer.tryRegister(Shared(nil as Router?)) }
                #expect(throws: ResolutionError.self) {
                    try DIContainer.tryRegister(Shared(CacheImpl(), as: Router.self))
                }
                #expect(DIContainer.resolve(Router?.self) == nil, "neither failed registration left anything")
            }
        }
    }
}
