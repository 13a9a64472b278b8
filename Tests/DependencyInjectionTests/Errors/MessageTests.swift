import DependencyInjection
import Testing

// What the messages say: a misspelt name, an argument inferred as a metatype, a
// concrete type registered where a protocol is needed, names that need escaping, failures
// inside async factories and after a failed prepare().

// Not private: the runtime cannot tell a type's conformance to a private protocol from its name.
protocol MessagesShape {}
private protocol MessagesCatalog<Item>: Sendable { associatedtype Item }
private final class MessagesIntCatalog: MessagesCatalog, Sendable { typealias Item = Int }

struct MessagesCircle: MessagesShape {}
private final class Canvas { init(shape: any MessagesShape) {} }
private final class Repository {}
private final class Owner { init(repository: Repository.Type) {} }
private final class MessagesRemoteConfig: Sendable {}
private final class MessagesClient {}
private final class MessagesFeed: Sendable { init(config: MessagesRemoteConfig) {} }
protocol MessagesPalette: AnyObject, Sendable {}
@MainActor final class MessagesMainPalette: MessagesPalette {}
final class MessagesSwatch: Sendable { init(palette: any MessagesPalette) {} }
private final class MessagesMainSwatch: Sendable { init(palette: MessagesMainPalette) {} }
private protocol MessagesRouter: AnyObject {}
private final class MessagesRouterImpl: MessagesRouter {}
private final class MessagesLoggingRouter: MessagesRouter { init(_ router: MessagesRouter) {} }
@globalActor actor MessagesActor { static let shared = MessagesActor() }
// A test whose validate() checks run on a global actor has that actor to itself (docs/Design.md,
// "Changing things"): these tests run in parallel.
@globalActor private actor MessagesConflictActor { static let shared = MessagesConflictActor() }
@globalActor private actor MessagesLifetimeActor { static let shared = MessagesLifetimeActor() }
@globalActor private actor MessagesTwoConflictsActor { static let shared = MessagesTwoConflictsActor() }
@globalActor private actor MessagesWeakActor { static let shared = MessagesWeakActor() }
@MessagesActor final class MessagesActorPalette: MessagesPalette {}
private final class MessagesLedger: Sendable {}
private final class MessagesDesk: Sendable { init(palette: any MessagesPalette, ledger: MessagesLedger) {} }
private final class MessagesBook: Sendable { init(ledger: MessagesLedger) {} }

private final class MessagesWeakLedger: Sendable {}
private final class MessagesWeakLedgerUser: Sendable { init(ledger: MessagesWeakLedger) {} }

@Suite(.timeLimit(.minutes(1))) struct MessageTests {
    @Test func misspeltNameSuggestsTheRegisteredNameNotRegisteringTheTypo() throws {
        let box = DIContainer()
        box.register {
            Shared(PostgresStore() as Store).named("primary")
            Shared(MemoryStore() as Store).named("cache")
        }
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(Store.self, name: "primray") }
        #expect(error.description.contains("Did you mean: \"primary\"?"), "\(error)")
        #expect(error.description.contains("container.resolve(Store.self, name: \"primary\")"), "\(error)")
        #expect(!error.description.contains(".named(\"primray\")"), "\(error)")
    }

    @Test func unrelatedNameStillSuggestsRegisteringIt() throws {
        let box = DIContainer()
        box.register { Shared(MemoryStore() as Store).named("cache") }
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(Store.self, name: "analytics") }
        #expect(!error.description.contains("Did you mean"))
        #expect(error.description.contains(".named(\"analytics\")"))
    }

    @Test func argumentInferredAsMetatypeSaysToWriteTheTypesWhenResolved() throws {
        let box = DIContainer()
        box.register {
            New { _, id in
                _ = "\(id)"
                return Engine()
            }
        }
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(Engine.self) { "42" } }
        #expect(error.reason == .argumentInferredAsMetatype("(Any.Type)"))
        #expect(!error.description.contains("pass arguments of the registered types"))
        #expect(error.description.contains("write the argument types in the closure"))
    }

    @Test func explicitlyWrittenMetatypeArgumentIsNoProblem() {
        let box = DIContainer()
        box.register { New { (_: Resolver, repository: Repository.Type) in Owner(repository: repository) } }
        let report = box.validate()
        #expect(report.isValid, "\(report)")
        _ = box.resolve(Owner.self) { Repository.self }
    }

    @Test func concreteRegistrationForAProtocolParameterSuggestsAsAnyProtocol() throws {
        let box = DIContainer()
        box.register {
            Shared { MessagesCircle() }
            Shared(Canvas.init)
        }
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(Canvas.self) }
        #expect(error.description.contains("Shared { MessagesCircle() as any MessagesShape }"), "\(error)")
    }

    @Test func namesWithNewlinesAndQuotesStayOnOneLine() throws {
        let box = DIContainer()
        let name = "say \"hi\"\nthere"
        box.register { Shared(MemoryStore() as Store).named(name) }
        #expect(box.registrations.description.split(separator: "\n").count == 1)
        #expect(box.registrations.description.contains(#"(name: "say \"hi\"\nthere")"#))
        box.register { Shared(MemoryStore() as Store).named("cache") }
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(Store.self, name: "\"\n\"") }
        #expect(error.description.contains(#"Registered names for 'Store': "cache", "say \"hi\"\nthere"."#), "\(error)")
        #expect(error.description.contains(#".named("\"\n\"")"#), "\(error)")
        #expect(error.description.split(separator: "\n").allSatisfy { !$0.hasPrefix("there") })
    }

    @Test func errorInsideAnAsyncFactoryHasThePathThroughIt() async throws {
        let box = DIContainer()
        box.register { Shared { resolve async throws in MessagesFeed(config: try resolve.tryResolve()) } }
        let error = try await #require(throws: ResolutionError.self) { try await box.resolveAsync(MessagesFeed.self) }
        #expect(error.path == ["MessagesFeed", "MessagesRemoteConfig"], "\(error)")
    }

    @Test func notMadeAfterAFailedPrepareSaysWhyPrepareFailed() async throws {
        let box = DIContainer()
        box.register { Shared { _ async throws -> MessagesRemoteConfig in throw Offline() } }
        await #expect(throws: ResolutionError.self) { try await box.prepare() }
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(MessagesRemoteConfig.self) }
        #expect(
            error.description.contains("prepare() failed to make it: The factory for 'MessagesRemoteConfig' threw"),
            "\(error)")
    }

    /// The fix a message writes out asks for what was asked for: the name too.
    @Test func theAsyncResolveAHintSuggestsKeepsTheName() throws {
        let box = DIContainer()
        box.register { Shared { _ async in MessagesRemoteConfig() }.named("remote") }
        let error = try #require(throws: ResolutionError.self) {
            try box.tryResolve(MessagesRemoteConfig.self, name: "remote")
        }
        #expect(error.description.contains("resolveAsync(MessagesRemoteConfig.self, name: \"remote\")"), "\(error)")
    }

    /// A function type cannot be registered, so the fix is not to register one.
    @Test func aMissingFunctionTypeSaysToAskForAFactoryInstead() throws {
        let error = try #require(throws: ResolutionError.self) { try DIContainer().tryResolve(((Int) -> Void).self) }
        #expect(!error.description.contains("register it:"), "\(error)")
        #expect(error.description.contains("factory("), "\(error)")
    }

    /// Reached through `as:`, a main-actor factory's Sendable value stays on the main actor (its
    /// conformance may be isolated there): the message says so, and how to make it as that type.
    @Test func aMainActorValueReachedThroughAnAliasSaysToMakeItAsTheAlias() async throws {
        let box = DIContainer()
        box.register { Shared({ @MainActor in MessagesMainPalette() }, as: (any MessagesPalette).self) }
        try await box.prepare()
        let error = await errorInDetachedTask { _ = try box.tryResolve((any MessagesPalette).self) }
        let message = try #require(error).description
        #expect(!message.contains("is not Sendable"), "\(message)")
        #expect(message.contains("through `as:` by 'MessagesMainPalette'"), "\(message)")
        #expect(message.contains("MessagesMainPalette(…) as "), "\(message)")
    }

    /// Applied literally, that fix replaces the registration that failed: its name and lifetime kept
    /// (a named one is not joined by an unnamed one; a `New` is not told to become `Shared`).
    @Test func theAliasFixKeepsTheRegistrationsNameAndLifetime() async throws {
        let named = DIContainer()
        named.register { Shared({ @MainActor in MessagesMainPalette() }, as: (any MessagesPalette).self).named("dark") }
        try await named.prepare()
        let namedError = await errorInDetachedTask {
            _ = try named.tryResolve((any MessagesPalette).self, name: "dark")
        }
        let namedMessage = try #require(namedError).description
        #expect(namedMessage.contains("Shared { @MainActor in MessagesMainPalette(…) as "), "\(namedMessage)")
        #expect(namedMessage.contains(#"}.named("dark")"#), "\(namedMessage)")
        let new = DIContainer()
        new.register { New({ @MainActor in MessagesMainPalette() }, as: (any MessagesPalette).self) }
        let newError = await errorInDetachedTask { _ = try new.tryResolve((any MessagesPalette).self) }
        let newMessage = try #require(newError).description
        #expect(newMessage.contains("New { @MainActor in MessagesMainPalette(…) as "), "\(newMessage)")
    }

    /// An isolation conflict through an alias of a Sendable main-actor `Shared`: the dependency
    /// already is one, so the fix that works is to make it as the alias type.
    @Test func anIsolationConflictThroughAnAliasGivesTheFixThatWorks() async throws {
        let box = DIContainer()
        box.register {
            Shared({ @MainActor in MessagesMainPalette() }, as: (any MessagesPalette).self)
            Shared { resolve in try MessagesSwatch(palette: resolve.tryResolve()) }
        }
        let report = await box.validate()
        let message = try #require(report.problems.first, "\(report)").error.description
        #expect(message.contains("Shared { @MainActor in MessagesMainPalette(…) as MessagesPalette }"), "\(message)")
        #expect(!message.contains("make the dependency a Sendable Shared"), "\(message)")
    }

    /// prepare() makes only `Shared` services: the fix for an async or main-actor `New` that is not
    /// made where it is needed does not send the reader there (it failed the same after prepare()).
    @Test func aNewNotMadeWhereItIsNeededIsNotSentToPrepare() async throws {
        let asyncNew = DIContainer()
        asyncNew.register { New { _ async in MessagesRemoteConfig() } }
        try await asyncNew.prepare()
        let notYetMade = try #require(throws: ResolutionError.self) {
            try asyncNew.tryResolve(MessagesRemoteConfig.self)
        }
        #expect(notYetMade.description.contains("prepare() makes only Shared services"), "\(notYetMade)")
        #expect(
            !notYetMade.description.contains("call try await DIContainer.prepare() at startup, or"), "\(notYetMade)")
        let mainActorNew = DIContainer()
        mainActorNew.register {
            New { @MainActor in MessagesMainPalette() }
            Shared { resolve in try MessagesMainSwatch(palette: resolve.tryResolve()) }
        }
        try await mainActorNew.prepare()
        let error = await errorInDetachedTask { _ = try mainActorNew.tryResolve(MessagesMainSwatch.self) }
        let message = try #require(error).description
        #expect(message.contains("resolveAsync"), "\(message)")
        #expect(!message.contains("DIContainer.prepare()"), "\(message)")
    }

    /// The fix for a decorated type served through `as:` keeps the registration's name.
    @Test func theDecoratedAliasFixKeepsTheName() throws {
        let box = DIContainer()
        box.register {
            Shared(MessagesRouterImpl.init, as: MessagesRouter.self).named("x")
            Decorate(MessagesRouter.self) { router, _ in MessagesLoggingRouter(router) }
        }
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(MessagesRouter.self, name: "x") }
        #expect(error.description.contains(#"Shared(MessagesRouterImpl(…) as MessagesRouter).named("x")"#), "\(error)")
    }

    /// An isolation conflict with a global actor's `New` (which only an await makes) suggests awaiting
    /// it, and that form checks valid and runs as written.
    @Test func anIsolationConflictWithAGlobalActorsServiceSuggestsAFormThatCompiles() async throws {
        let box = DIContainer()
        box.register {
            New { @MessagesConflictActor in MessagesLedger() }
            Shared { resolve in try MessagesBook(ledger: resolve.tryResolve()) }
        }
        let report = await box.validate()
        let message = try #require(report.problems.first, "\(report)").error.description
        let form = "Shared { _ async throws in … try await DIContainer.resolveAsync(MessagesLedger.self) }"
        #expect(message.contains(form), "\(message)")
        let fixed = DIContainer()
        fixed.register {
            New { @MessagesConflictActor in MessagesLedger() }
            Shared { _ async throws in MessagesBook(ledger: try await DIContainer.resolveAsync(MessagesLedger.self)) }
        }
        let fixedReport = await fixed.validate()
        #expect(fixedReport.isValid, "\(fixedReport)")
        _ = try await fixed.resolveAsync(MessagesBook.self)
    }

    /// The same for the main actor: the form suggested throws, so validate() still checks it once
    /// written (a non-throwing closure taking a resolver on an actor is not checked).
    @Test func anIsolationConflictWithAMainActorServiceSuggestsAFormThatIsChecked() async throws {
        let box = DIContainer()
        box.register {
            New { @MainActor in MessagesMainPalette() }
            Shared { resolve in try MessagesMainSwatch(palette: resolve.tryResolve()) }
        }
        let report = await box.validate()
        let message = try #require(report.problems.first, "\(report)").error.description
        #expect(message.contains("(Shared { @MainActor resolve throws in … })"), "\(message)")
        let fixed = DIContainer()
        fixed.register {
            New { @MainActor in MessagesMainPalette() }
            Shared { @MainActor resolve throws in try MessagesMainSwatch(palette: resolve.tryResolve()) }
        }
        let fixedReport = await fixed.validate()
        #expect(fixedReport.isValid && fixedReport.unchecked.isEmpty && fixedReport.validCount == 2, "\(fixedReport)")
    }

    /// The isolated form keeps the registration's lifetime: a `New` is not made a `Shared`.
    @Test func theIsolatedFormKeepsTheRegistrationsLifetime() async throws {
        let box = DIContainer()
        box.register {
            New { @MessagesLifetimeActor in MessagesLedger() }
            New { resolve in try MessagesBook(ledger: resolve.tryResolve()) }
        }
        let report = await box.validate()
        let message = try #require(report.problems.first, "\(report)").error.description
        let form = "New { _ async throws in … try await DIContainer.resolveAsync(MessagesLedger.self) }"
        #expect(message.contains(form), "\(message)")
    }

    /// And so does the form an alias's conflict suggests (where the fix's other form names the dependency's).
    @Test func theIsolatedFormOfAnAliasConflictKeepsTheRegistrationsLifetime() async throws {
        let box = DIContainer()
        box.register {
            Shared({ @MainActor in MessagesMainPalette() }, as: (any MessagesPalette).self)
            New { resolve throws in MessagesSwatch(palette: try resolve.tryResolve()) }
        }
        let report = await box.validate()
        let problem = try #require(report.problems.first { $0.registration == "MessagesSwatch" }, "\(report)")
        #expect(problem.error.description.contains("(New { @MainActor resolve throws in … })"), "\(problem)")
    }

    /// Two isolation conflicts of one registration: each fix names its own dependency's actor and form.
    @Test func twoIsolationConflictsEachGiveTheirOwnFix() async throws {
        let box = DIContainer()
        box.register {
            Shared({ @MainActor in MessagesMainPalette() }, as: (any MessagesPalette).self)
            New { @MessagesTwoConflictsActor in MessagesLedger() }
            Shared { resolve throws in
                let ledger = (try? resolve.tryResolve(MessagesLedger.self)) ?? MessagesLedger()
                return MessagesDesk(palette: try resolve.tryResolve(), ledger: ledger)
            }
        }
        let report = await box.validate()
        let ledger = report.problems.map(\.error.description).filter { $0.contains("'MessagesLedger'") }
        #expect(ledger.count == 1, "\(report)")
        for message in ledger {
            #expect(!message.contains("as 'MessagesPalette'"), "\(message)")
            #expect(message.contains("try await DIContainer.resolveAsync(MessagesLedger.self)"), "\(message)")
        }
    }

    /// The same for a global actor's factory.
    @Test func aGlobalActorValueReachedThroughAnAliasSaysToMakeItAsTheAlias() async throws {
        let box = DIContainer()
        box.register { Shared({ @MessagesActor in MessagesActorPalette() }, as: (any MessagesPalette).self) }
        try await box.prepare()
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve((any MessagesPalette).self) }
        #expect(!error.description.contains("is not Sendable"), "\(error)")
        #expect(error.description.contains("through `as:` by 'MessagesActorPalette'"), "\(error)")
        #expect(error.description.contains("MessagesActorPalette(…) as "), "\(error)")
    }

    /// A throwing `Decorate` or `onResolve` action is named as what threw, not the factory (which
    /// succeeded): the message points at the code to fix.
    @Test func aThrowingDecoratorOrActionIsNamedNotTheFactory() throws {
        let decorated = DIContainer()
        decorated.register {
            Shared(Engine.init)
            Decorate(Engine.self) { _, _ in throw Offline() }
        }
        let decoratorError = try #require(throws: ResolutionError.self) { try decorated.tryResolve(Engine.self) }
        #expect(decoratorError.reason == .factoryFailed)
        #expect(
            decoratorError.description.hasPrefix("A Decorate of 'Engine' threw an error: Offline()."),
            "\(decoratorError)")
        #expect(!decoratorError.description.contains("make the factory succeed"), "\(decoratorError)")

        let acting = DIContainer()
        acting.register { Shared(Engine.init).onResolve { _, _ in throw Offline() } }
        let actionError = try #require(throws: ResolutionError.self) { try acting.tryResolve(Engine.self) }
        #expect(
            actionError.description.hasPrefix("An onResolve action of 'Engine' threw an error: Offline()."),
            "\(actionError)")
        #expect(actionError.underlyingError is Offline)
    }

    /// The README's snippet, in a function that does not throw.
    @Test func readmeErrorsSnippetCompilesInANonThrowingFunction() {
        func show() -> String? {
            do {
                let router = try DIContainer().tryResolve(Router.self)
                return router.name
            } catch {
                return "\(error)"
            }
        }
        #expect(show()?.hasPrefix("No registration for 'Router'.") == true)
    }

    /// A conflict with a global actor's `Weak` (not `Shared`: only an await makes it) does not call it a `New`.
    @Test func aConflictWithAGlobalActorsWeakSaysWhatItIs() async throws {
        let box = DIContainer()
        box.register {
            Weak { @MessagesWeakActor in MessagesWeakLedger() }
            New { resolve in MessagesWeakLedgerUser(ledger: try resolve.tryResolve()) }
        }
        let message = try #require(await box.validate().problems.first).error.description
        #expect(message.contains("or another actor's service that is not Shared"), "\(message)")
    }
}

private protocol WrappedPort: AnyObject {}
private final class WrappingPort: WrappedPort {
    let inner: any WrappedPort
    init(inner: any WrappedPort) { self.inner = inner }
}

private final class CycleStart { init(end: CycleEnd) {} }
private final class CycleEnd { init(start: CycleStart) {} }

@Suite struct SelfCycleMessageTests {
    /// A wrapper registered as the type it wraps needs itself: the fix names `Decorate`, the way to
    /// wrap a service, instead of an `onResolve` action between two services.
    @Test func aServiceThatNeedsItselfIsToldToUseDecorate() {
        let box = DIContainer()
        box.register { Shared({ resolve in WrappingPort(inner: try resolve.tryResolve()) }, as: WrappedPort.self) }
        let error = #expect(throws: ResolutionError.self) { try box.tryResolve(WrappedPort.self) }
        let message = error?.description ?? ""
        #expect(message.hasPrefix("Dependency cycle: WrappedPort -> WrappedPort."), "\(message)")
        #expect(message.contains("Decorate(WrappedPort.self) { wrapped, resolve in … }"), "\(message)")
    }

    /// The hint names the type asked for again, without its name (a type to decorate), however the
    /// cycle was entered.
    @Test func theHintNamesTheTypeAskedForAgain() {
        let box = DIContainer()
        box.register { Shared({ resolve in WrappingPort(inner: try resolve.tryResolve()) }, as: WrappedPort.self) }
        let direct = #expect(throws: ResolutionError.self) { try box.tryResolve(WrappingPort.self) }
        #expect(direct?.description.contains("Decorate(WrappedPort.self)") == true, "\(String(describing: direct))")
        let named = DIContainer()
        named.register {
            Shared({ resolve in WrappingPort(inner: try resolve.tryResolve(name: "a")) }, as: WrappedPort.self)
                .named("a")
        }
        let error = #expect(throws: ResolutionError.self) { try named.tryResolve(WrappedPort.self, name: "a") }
        #expect(error?.description.contains("Decorate(WrappedPort.self)") == true, "\(String(describing: error))")
    }

    // A parameterized protocol is named as written, and asked for in a form that compiles.
    @Test func aParameterizedProtocolIsNamedAsWritten() throws {
        let box = DIContainer()
        box.register { New { (_: Resolver, id: String) in MessagesIntCatalog() as any MessagesCatalog<Int> } }
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve((any MessagesCatalog<Int>).self) }
        #expect(error.description.contains("Wrong arguments for 'any MessagesCatalog<Int>'"), "\(error)")
        #expect(error.description.contains("container.resolve((any MessagesCatalog<Int>).self) { … }"), "\(error)")
        // As written in the message, it compiles.
        _ = try box.tryResolve((any MessagesCatalog<Int>).self) { "42" }
    }

    /// Swinject's `.initCompleted` mapped to `onResolve` on a `New` (its default scope is graph): the
    /// action's resolve makes a new parent, whose action runs again. The usual hint ("let one side get
    /// the other after creation, e.g. … onResolve") is what the user did; the fix is the lifetime.
    @Test func aCycleThroughTheOnResolveOfANewSaysToShareIt() throws {
        let box = DIContainer()
        box.register {
            New(MessagesNode.init).onResolve { node, resolve in node.leaf = try resolve.tryResolve() }
            New { resolve in try MessagesLeaf(node: resolve.tryResolve()) }
        }
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(MessagesNode.self) }
        #expect(error.description.contains("'MessagesNode' as Graph or Shared, not New"), "\(error)")
        // As the message says, it works.
        box.register { Graph(MessagesNode.init).onResolve { node, resolve in node.leaf = try resolve.tryResolve() } }
        let node = try box.tryResolve(MessagesNode.self)
        #expect(node.leaf?.node === node)
    }

    // A cycle of initializers through a `New` that also has an (unrelated) action: the usual hint, as
    // Graph or Shared would cycle the same.
    @Test func anInitializerCycleThroughANewWithAnActionKeepsTheUsualHint() throws {
        let box = DIContainer()
        box.register {
            New(CycleStart.init).onResolve { _, _ in }
            New(CycleEnd.init)
        }
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(CycleStart.self) }
        #expect(!error.description.contains("as Graph or Shared, not New"), "\(error)")
        #expect(error.description.contains("break the cycle"), "\(error)")
    }
}
private final class MessagesNode {
    var leaf: MessagesLeaf?
    init() {}
}
private final class MessagesLeaf {
    weak var node: MessagesNode?
    init(node: MessagesNode) { self.node = node }
}
