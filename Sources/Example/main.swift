import DependencyInjection
import Foundation

// A tour of DependencyInjection for a newcomer: a small shop app is wired, run, tested with a
// mock, checked, listed and drawn. Run it with `swift run Example [path-of-the-graph.dot]`; without
// a path, the graph is written to the temporary directory.

func step(_ number: Int, _ title: String) {
    print("\nStep \(number). \(title)")
}

func say(_ line: String) {
    print("   \(line)")
}

print("DependencyInjection example: a small shop app, wired step by step.")

// Debug builds check the whole graph at launch: every registration, async and main-actor ones
// included, resolved once in a throwaway copy. A problem stops the launch with the report.
#if DEBUG
    let launchReport = DIContainer.validate()
    precondition(launchReport.isValid, "\(launchReport)")
    print(
        "validate() at launch: \(launchReport.validCount) registration(s) resolved, \(launchReport.unchecked.count) not checked."
    )
#endif

step(1, "Registration and startup")
say("AppDependencies.swift registers four modules (networking, logging, purchases, catalog)")
say("in `registerDependencies()`, which runs by itself on the first use of DIContainer.shared.")
let api = DIContainer.resolve(APIClient.self)
say("DIContainer.resolve(APIClient.self) -> \(type(of: api))")
say("Shared(HTTPAPIClient.init, as: APIClient.self) is autowired: the container resolved the")
say("initializer's AppConfiguration parameter by its type.")
say("It is Shared: resolving again gives the same instance: \(api === DIContainer.resolve(APIClient.self))")
say("FeatureFlags has an async factory, so the app makes it at startup:")
say("try await DIContainer.prepare()")
try await DIContainer.prepare()
let flags = DIContainer.resolve(FeatureFlags.self)
say("Afterwards a plain resolve returns it: expressCheckout = \(flags.expressCheckout)")

step(2, "A screen whose properties are injected")
let screen = DIContainer.resolve(CheckoutScreen.self)
say("CheckoutScreen is registered with New(CheckoutScreen.init); its @Inject properties resolved")
say("while it was made: purchases = \(type(of: screen.purchases)), audit = \(type(of: screen.audit)).")
say("@Inject var analytics: Analytics? is \(screen.analytics == nil ? "nil" : "set"): nothing registers Analytics.")
say("Tapping the buy button:")
say("-> \(screen.buyButtonTapped(productID: "sku-42"))")

step(3, "Lifetimes")
let context = screen.context
say("Graph: the purchase service and the screen, made in one resolve() call, share one")
say("RequestContext: \(screen.purchases.context === context)")
let secondScreen = DIContainer.resolve(CheckoutScreen.self)
say("New: a second screen is another instance: \(secondScreen !== screen); and its resolve() call")
say("made another RequestContext: \(secondScreen.context !== context)")
weak var releasedImages: ImageCache?
do {
    let browsingScreen = DIContainer.resolve(CheckoutScreen.self)
    releasedImages = browsingScreen.images
    say("Weak: @LazyInject resolved an ImageCache on first access; while a screen holds it,")
    say("everyone gets that one: \(browsingScreen.images === DIContainer.resolve(ImageCache.self))")
}
say("Once nobody holds it any more, the container lets it go too: \(releasedImages == nil)")

step(4, "A view model made with an argument")
let viewModel = DIContainer.resolve(ProductViewModel.self, arguments: { "sku-7" })
say("New { resolve, productID in DefaultProductViewModel(productID: productID, api: resolve()) }")
say("DIContainer.resolve(ProductViewModel.self, arguments: { \"sku-7\" }).title ->")
say("\(viewModel.title)")

step(5, "Named registrations")
say("Two Loggers are registered: the unnamed ConsoleLogger and AuditLogger named \"audit\".")
say("resolve(Logger.self) -> \(type(of: DIContainer.resolve(Logger.self)))")
say("resolve(Logger.self, name: \"audit\") -> \(type(of: DIContainer.resolve(Logger.self, name: "audit")))")

step(6, "A test-style override")
say("DIContainer.withOverrides { New(MockAPIClient() as APIClient) } operation: { ... } runs the")
say("operation in an isolated copy of the container with the mock in place:")
DIContainer.withOverrides {
    New(MockAPIClient() as APIClient)
} operation: {
    let testedScreen = DIContainer.resolve(CheckoutScreen.self)
    say("-> \(testedScreen.buyButtonTapped(productID: "sku-42"))")
}
say("Afterwards the real client is back: \(type(of: DIContainer.resolve(APIClient.self)))")

step(7, "Errors that do not crash")
do {
    _ = try DIContainer.tryResolve(Analytics.self)
} catch let error as ResolutionError {
    say("try DIContainer.tryResolve(Analytics.self) threw a ResolutionError:")
    for line in error.description.split(separator: "\n") { say("  \(line)") }
} catch {
    say("Unexpected error: \(error)")
}
say("DIContainer.resolve(Analytics.self) would stop the app with this same message.")

step(8, "Validation: is every registration resolvable?")
say("DIContainer.validate() resolves each registration once, in a throwaway copy:")
for line in DIContainer.validate().description.split(separator: "\n") { say("  \(line)") }

step(9, "What is registered")
say("print(DIContainer.shared.registrations):")
for line in DIContainer.shared.registrations.description.split(separator: "\n") { say("  \(line)") }

step(10, "The dependency graph")
let graphPath =
    CommandLine.arguments.dropFirst().first
    ?? FileManager.default.temporaryDirectory.appendingPathComponent("dependency-graph.dot").path
let graph = DIContainer.shared.dependencyGraph()
do {
    try graph.write(toFile: graphPath, atomically: true, encoding: .utf8)
    say("DIContainer.shared.dependencyGraph() is Graphviz DOT; written to \(graphPath)")
    say("Draw it with: dot -Tsvg \(graphPath) -o dependency-graph.svg")
} catch {
    say("Could not write \(graphPath): \(error)")
    exit(1)
}

step(11, "A signed-in user's session: a scope")
say("Scoped(.session, UserSession.init) keeps one UserSession until the app releases the scope.")
let session = DIContainer.resolve(UserSession.self)
say("Signed in; resolving again gives the same session: \(session === DIContainer.resolve(UserSession.self))")
DIContainer.releaseInstances(in: .session)
say("Signed out with DIContainer.releaseInstances(in: .session); the next sign-in gets a new")
say("session: \(session !== DIContainer.resolve(UserSession.self))")

step(12, "Every tracker: resolveAll")
say("Two EventTrackers are registered, named \"console\" and \"remote\".")
for line in DIContainer.resolveAll(EventTracker.self).map({ $0.send("purchase sku-42") }) { say("-> \(line)") }

step(13, "An @Observable view model")
if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) {
    say("AccountViewModel is @Observable; its @Inject and @InjectAll properties are @ObservationIgnored.")
    let account = AccountViewModel()
    for line in account.signOut() { say("-> \(line)") }
    say("status = \(account.status)")
    DIContainer.releaseInstances(in: .session)
}

print("\nDone. Next: read README.md, then run `swift test`.")
