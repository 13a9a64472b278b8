import DependencyInjection
import Testing

// A lazy wrapper resolves on first read, after validate() has made and dropped its owner: what
// validate() can still see is whether its dependency is registered at all. A main-actor view model
// registered so that validate() makes it, as a new user writes it.

private final class LazyEngine {}
@MainActor private final class LazyBanner {
    @LazyInject var engine: LazyEngine
    init() {}
}
private final class NamedBanner {
    @LazyInject(name: "fast") var engine: LazyEngine
    init() {}
}
private final class SettableBanner {
    @MutableLazyInject var engine: LazyEngine
    init() {}
}
private final class OptionalBanner {
    @LazyInject var engine: LazyEngine?
    init() {}
}
/// Two services that need each other, one through a lazy wrapper (how such a cycle is broken).
private final class Ping {
    @LazyInject var pong: Pong
    init() {}
}
private final class Pong {
    @Inject var ping: Ping
    init() {}
}

private final class ArgumentsEngine {}
private final class ArgumentsBanner {
    @LazyInject var engine: ArgumentsEngine
    init() {}
}

@globalActor private actor LazyActor { static let shared = LazyActor() }
@LazyActor private final class ActorBanner {
    @LazyInject var engine: LazyEngine
    init() {}
}
private final class AsyncBanner: @unchecked Sendable {  // (made once, read by nobody else)
    @LazyInject var engine: LazyEngine
    init() {}
}

private final class FeatureEngine: Sendable {}
private final class FeatureBanner: @unchecked Sendable {  // (made once, read by nobody else)
    @LazyInject var engine: FeatureEngine
    init() {}
}

@Suite(.timeLimit(.minutes(1))) struct ValidationOfLazyWrappersTests {
    @Test @MainActor func aLazyInjectWhoseDependencyIsMissingIsAProblem() async {
        let box = DIContainer()
        box.register { New(LazyBanner.init) }
        let report = await box.validate()
        #expect(!report.isValid, "\(report)")
        #expect("\(report)".contains("No registration for 'LazyEngine'"), "\(report)")
        #expect("\(report)".contains("ValidationOfLazyWrappersTests.swift:10"), "names the declaration: \(report)")
    }

    @Test func aLazyInjectWhoseNamedDependencyIsMissingIsAProblemInTheSynchronousFormToo() {
        let box = DIContainer()
        box.register {
            Shared(NamedBanner.init)
            Shared(LazyEngine.init)
        }
        let report = box.validate()
        #expect(report.problems.map(\.registration) == ["NamedBanner"], "\(report)")
        #expect("\(report)".contains("No registration for 'LazyEngine' (name: \"fast\")"), "\(report)")
    }

    /// A `@MutableLazyInject` may be set before it is read (by its owner's factory, say): it is not
    /// checked, as what it resolves may never be asked for.
    @Test func aMutableLazyInjectSetByItsFactoryIsNoProblem() {
        let box = DIContainer()
        box.register {
            Shared { () -> SettableBanner in
                let banner = SettableBanner()
                banner.engine = LazyEngine()
                return banner
            }
        }
        #expect(box.validate().isValid)
        _ = box.resolve(SettableBanner.self).engine
    }

    @Test func anOptionalLazyInjectMayBeMissing() {
        let box = DIContainer()
        box.register { Shared(OptionalBanner.init) }
        #expect(box.validate().isValid)
    }

    /// validate() resolves nothing for a lazy wrapper: the cycle it breaks stays broken, and valid.
    @Test func aCycleBrokenByALazyInjectIsValid() {
        let box = DIContainer()
        box.register {
            Shared(Ping.init)
            Shared(Pong.init)
        }
        let report = box.validate()
        #expect(report.isValid, "\(report)")
        // (Not read here: a `Ping` whose `pong` was read holds a cycle, which would leak.)
        #expect(!box.resolve(Ping.self).$pong.isResolved)
    }

    // Its only registration takes arguments: the wrapper's first read, which passes none, fails
    // every time.
    @Test func aDependencyThatNeedsArgumentsIsAProblem() {
        let box = DIContainer()
        box.register {
            New { (_: Resolver, id: String) in ArgumentsEngine() }
            New(ArgumentsBanner.init)
        }
        // What the first read does (it traps with this error).
        #expect(throws: ResolutionError.self) { try box.tryResolve(ArgumentsEngine.self) }
        let report = box.validate()
        #expect(report.problems.map(\.registration) == ["ArgumentsBanner"], "\(report)")
    }

    // Made by a global actor's factory or an async one: checked as in a synchronous factory.
    @Test func aLazyInjectMadeByAnActorsOrAnAsyncFactoryIsChecked() async {
        let box = DIContainer()
        box.register {
            Shared { @LazyActor in ActorBanner() }
            Shared { _ async in AsyncBanner() }
        }
        let report = await box.validate()
        #expect(Set(report.problems.map(\.registration)) == ["ActorBanner", "AsyncBanner"], "\(report)")
    }

    // Made with another container active, the wrapper resolves from that one, where the dependency is
    // registered: no problem, in an async factory as in a synchronous one.
    @Test func aLazyInjectMadeWithAnotherContainerActiveIsNoProblem() async throws {
        let feature = DIContainer()
        feature.register { Shared { FeatureEngine() } }
        let box = DIContainer()
        box.register {
            Shared { _ async in feature.activate { FeatureBanner() } }
            New { feature.activate { FeatureBanner() } }.named("sync")
        }
        let report = await box.validate()
        #expect(report.isValid, "\(report)")
        _ = try await box.resolveAsync(FeatureBanner.self).engine
        _ = box.resolve(FeatureBanner.self, name: "sync").engine
    }
}
