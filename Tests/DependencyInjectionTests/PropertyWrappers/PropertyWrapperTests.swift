import DependencyInjection
import Testing

// @Inject, @LazyInject, @MutableInject and @MutableLazyInject.

private final class EagerHolder {
    @Inject var engine: Engine
    init() {}
}

private final class LazyHolder {
    @LazyInject var engine: Engine
    init() {}
}

private final class MutableHolder {
    @MutableInject var router: Router
    init() {}
}

private final class MutableLazyHolder {
    @MutableLazyInject var router: Router
    init() {}
}

private final class NamedHolder {
    @Inject(name: "primary") var primary: Store
    @LazyInject(name: "cache") var cache: Store
    @MutableInject(name: "primary") var mutablePrimary: Store
    @MutableLazyInject(name: "cache") var mutableCache: Store
    init() {}
}

/// Made by a factory; its wrappers must resolve from the container running that factory.
private final class Dashboard {
    @Inject var router: Router
    @LazyInject var config: AppConfiguration
    init() {}
}

private final class Nested {
    @Inject var dashboard: Dashboard
    init() {}
}

@Suite(.timeLimit(.minutes(1))) struct InjectTests {
    @Test func injectResolvesWhenTheObjectIsMade() {
        let made = Tally()
        let box = DIContainer()
        box.register { New(Counted(made)) }
        final class Holder {
            @Inject var counted: Counted
            init() {}
        }
        let holder = box.activate { Holder() }
        #expect(made.value == 1)
        _ = holder.counted
        _ = holder.counted
        #expect(made.value == 1)
    }

    @Test func injectOfASharedServiceIsTheSharedInstance() throws {
        let box = DIContainer()
        box.register { Shared(Engine.init) }
        let holders = box.activate { [EagerHolder(), EagerHolder()] }
        #expect(holders[0].engine === holders[1].engine)
        #expect(try holders[0].engine === box.tryResolve(Engine.self))
    }

    @Test func mutableWrappersCanBeReplacedAfterTheyResolved() {
        let box = DIContainer()
        box.register { Shared(RouterImpl() as Router) }
        let (eager, lazy) = box.activate { (MutableHolder(), MutableLazyHolder()) }
        #expect(eager.router is RouterImpl)
        #expect(lazy.router is RouterImpl)
        let mock = MockRouter()
        eager.router = mock
        lazy.router = mock
        #expect(eager.router === mock)
        #expect(lazy.router === mock)
    }

    @Test func everyWrapperTakesAName() {
        let box = DIContainer()
        box.register {
            Shared(PostgresStore() as Store).named("primary")
            Shared(MemoryStore() as Store).named("cache")
        }
        let holder = box.activate { NamedHolder() }
        #expect(holder.primary.kind == "postgres")
        #expect(holder.cache.kind == "memory")
        #expect(holder.mutablePrimary.kind == "postgres")
        #expect(holder.mutableCache.kind == "memory")
    }
}

@Suite(.timeLimit(.minutes(1))) struct LazyInjectTests {
    @Test func lazyInjectResolvesOnFirstAccessOnly() {
        let made = Tally()
        let box = DIContainer()
        box.register { New(Counted(made)) }
        final class Holder {
            @LazyInject var counted: Counted
            init() {}
        }
        let holder = box.activate { Holder() }
        #expect(made.value == 0)
        let first = holder.counted
        #expect(made.value == 1)
        #expect(holder.counted === first)
        #expect(made.value == 1)
    }

    @Test func lazyInjectUsesTheContainerThatWasCurrentAtInit() throws {
        let box = DIContainer()
        box.register { Shared(Engine.init) }
        let holder = box.activate { LazyHolder() }
        // Accessed outside `activate`: still resolved from box.
        #expect(try holder.engine === box.tryResolve(Engine.self))
    }

    @Test func lazyInjectFallsBackToCurrentWhenItsContainerIsGone() throws {
        var box: DIContainer? = DIContainer()
        box?.register { Shared(Engine.init) }
        let holder = box!.activate { LazyHolder() }
        weak let released = box
        box = nil
        #expect(released == nil)
        let other = DIContainer()
        other.register { Shared(Engine.init) }
        #expect(try other.activate { holder.engine } === other.tryResolve(Engine.self))
    }

    @Test func mutableLazyInjectSetBeforeFirstAccessResolvesNothing() {
        let made = Tally()
        let box = DIContainer()
        box.register {
            New { _ -> Router in
                made.increment()
                return RouterImpl()
            }
        }
        let holder = box.activate { MutableLazyHolder() }
        let mock = MockRouter()
        holder.router = mock
        #expect(holder.router === mock)
        #expect(made.value == 0)
    }
}

@Suite(.timeLimit(.minutes(1))) struct WrappersInsideFactoriesTests {
    private func container() -> DIContainer {
        let box = DIContainer()
        box.register {
            Shared(RouterImpl() as Router)
            Shared(AppConfigurationImpl() as AppConfiguration)
            New(Dashboard())
            New(Nested())
        }
        return box
    }

    @Test func wrappersOfWhatAFactoryMakesResolveFromThatContainer() throws {
        // box is not activated: only the running factory makes it current.
        let box = container()
        let dashboard = try box.tryResolve(Dashboard.self)
        #expect(try dashboard.router === box.tryResolve(Router.self))
        #expect(try dashboard.config === box.tryResolve(AppConfiguration.self))
    }

    @Test func nestedWrappersResolveWithoutDeadlock() throws {
        let box = container()
        let nested = try box.tryResolve(Nested.self)
        #expect(try nested.dashboard.router === box.tryResolve(Router.self))
    }

    @Test func currentIsTheRunningContainerInsideAFactory() throws {
        let box = DIContainer()
        box.register { New { _ in Pair(DIContainer.current, 0) } }
        #expect(try box.tryResolve(Pair<DIContainer, Int>.self).first === box)
        #expect(DIContainer.current !== box)
    }

    @Test func currentIsRestoredAfterAFactoryFails() {
        let box = DIContainer()
        box.register { New { _ throws -> Engine in throw Offline() } }
        let before = DIContainer.current
        #expect(throws: ResolutionError.self) { try box.tryResolve(Engine.self) }
        #expect(DIContainer.current === before)
    }
}
