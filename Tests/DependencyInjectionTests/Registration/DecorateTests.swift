import DependencyInjection
import Testing

// Decorators: Decorate(T.self) { value, resolve in … } wraps what every registration of T makes.

private protocol Billing: AnyObject { var log: [String] { get } }
private final class StripeBilling: Billing {
    let log = ["stripe"]
}
private final class MockBilling: Billing {
    let log = ["mock"]
}
private final class LoggingBilling: Billing {
    let inner: Billing
    let label: String
    init(_ inner: Billing, label: String) {
        self.inner = inner
        self.label = label
    }
    var log: [String] { inner.log + [label] }
}
private protocol Refunds: AnyObject {}
private final class BillingCheckout {
    let payments: Billing
    init(payments: Billing) { self.payments = payments }
}

private final class AsyncEngine: Sendable {}

@Suite(.timeLimit(.minutes(1))) struct DecorateTests {
    /// A decorator runs as a step of its service, async or not: it may not change that container.
    @Test func aDecoratorOfAnAsyncServiceCannotRegisterInItsContainer() async throws {
        let box = DIContainer()
        let refused = Guarded<Bool?>(nil)
        box.register {
            Shared { _ async in AsyncEngine() }
            Decorate(AsyncEngine.self) { engine, _ in
                refused.withLock { $0 = (try? box.tryRegister { New(Engine()) }) == nil }
                return engine
            }
        }
        _ = try await box.resolveAsync(AsyncEngine.self)
        #expect(refused.current == true)
    }

    @Test func aDecoratorWrapsWhatTheRegistrationMakesAndMayResolve() {
        let box = DIContainer()
        box.register {
            Shared(StripeBilling() as Billing)
            Shared(Engine.init)
            Decorate(Billing.self) { payments, resolve in
                _ = resolve(Engine.self)
                return LoggingBilling(payments, label: "logged")
            }
        }
        #expect(box.resolve(Billing.self).log == ["stripe", "logged"])
        #expect(box.dependencyGraph().contains("->"))
    }

    @Test func aSharedIsDecoratedOnceWhenMade() {
        let box = DIContainer()
        let runs = Tally()
        box.register {
            Shared(StripeBilling() as Billing)
            Decorate(Billing.self) { payments, _ in
                runs.increment()
                return LoggingBilling(payments, label: "logged")
            }
        }
        box.register(New(BillingCheckout.init))
        let first = box.resolve(Billing.self)
        #expect(box.resolve(Billing.self) === first)
        #expect(box.resolve(BillingCheckout.self).payments === first)
        #expect(runs.value == 1)
    }

    @Test func decoratorsApplyInRegistrationOrderToEveryNameAndEveryLaterRegistration() {
        let box = DIContainer()
        box.register {
            Decorate(Billing.self) { payments, _ in LoggingBilling(payments, label: "first") }
            Decorate(Billing.self) { payments, _ in LoggingBilling(payments, label: "second") }
        }
        box.register {
            New(StripeBilling() as Billing)
            New(MockBilling() as Billing).named("mock")
        }
        #expect(box.resolve(Billing.self).log == ["stripe", "first", "second"])
        #expect(box.resolve(Billing.self, name: "mock").log == ["mock", "first", "second"])
        #expect(box.resolve(Billing.self) !== box.resolve(Billing.self))
        #expect(box.resolveAll(Billing.self).map(\.log.count) == [3, 3])
    }

    @Test func testOverridesAreDecoratedToo() {
        let box = DIContainer()
        box.register {
            Shared(StripeBilling() as Billing)
            Decorate(Billing.self) { payments, _ in LoggingBilling(payments, label: "logged") }
        }
        box.withOverrides {
            New(MockBilling() as Billing)
        } operation: {
            #expect(DIContainer.resolve(Billing.self).log == ["mock", "logged"])
        }
    }

    @Test func aDecoratorAppliesOnlyInTheContainerItIsRegisteredIn() {
        let parent = DIContainer()
        parent.register(Shared(StripeBilling() as Billing))
        let child = DIContainer(parent: parent)
        child.register {
            New(MockBilling() as Billing).named("child")
            Decorate(Billing.self) { payments, _ in LoggingBilling(payments, label: "child") }
        }
        #expect(child.resolve(Billing.self).log == ["stripe"])
        #expect(child.resolve(Billing.self, name: "child").log == ["mock", "child"])
    }

    @Test func theAliasesOfADecoratedRegistrationShareItsOneDecoratedInstance() {
        final class Both: Billing, Refunds {
            let log = ["both"]
        }
        final class LoggingBoth: Billing, Refunds {
            let inner: Billing
            init(_ inner: Billing) { self.inner = inner }
            var log: [String] { inner.log + ["logged"] }
        }
        let box = DIContainer()
        box.register {
            Shared(Both() as Billing, as: Refunds.self)
            Decorate(Billing.self) { payments, _ in LoggingBoth(payments) }
        }
        #expect(box.resolve(Refunds.self) === box.resolve(Billing.self))
        #expect(box.resolve(Billing.self).log == ["both", "logged"])
    }

    @Test func aDecoratedTypeServedOnlyAsAnAliasIsAnErrorNotASecondInstance() throws {
        let box = DIContainer()
        box.register {
            Shared(StripeBilling.init, as: Billing.self)
            Decorate(Billing.self) { payments, _ in LoggingBilling(payments, label: "logged") }
        }
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(Billing.self) }
        #expect(error.reason == .decoratedAlias(implementation: "StripeBilling"))
        #expect(error.description.contains("register it as the decorated type, Shared(StripeBilling(…) as Billing)"))
        #expect(try box.tryResolve(StripeBilling.self).log == ["stripe"])
    }

    /// A main-actor implementation is made in main-actor code only: `Shared(Impl(…) as P)` in nonisolated
    /// code (a module) does not compile, so the fix gives the `@MainActor` closure.
    @Test func theFixOfADecoratedAliasOfAMainActorFactoryIsAMainActorClosure() async throws {
        let box = DIContainer()
        await registerMainActorBillingDecorated(in: box)
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(Billing.self) }
        #expect(
            error.description.contains(
                "register it as the decorated type, Shared { @MainActor in MainActorBilling(…) as Billing }"),
            "\(error)")
    }

    @Test func aFailingDecoratorFailsTheResolutionAndKeepsNothing() throws {
        struct Declined: Error {}
        let box = DIContainer()
        let made = Tally()
        box.register {
            Shared { _ -> Billing in
                made.increment()
                return StripeBilling()
            }
            Decorate(Billing.self) { _, _ in throw Declined() }
        }
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(Billing.self) }
        #expect(error.underlyingError is Declined)
        _ = try? box.tryResolve(Billing.self)
        #expect(made.value == 2)
    }

    @Test func anAsyncRegistrationIsDecoratedToo() async throws {
        final class RemoteConfig: Sendable {}
        let box = DIContainer()
        let runs = Tally()
        box.register {
            Shared { _ async in RemoteConfig() }
            Decorate(RemoteConfig.self) { config, _ in
                runs.increment()
                return config
            }
        }
        let config = try await box.resolveAsync(RemoteConfig.self)
        #expect(box.resolve(RemoteConfig.self) === config)
        #expect(runs.value == 1)
    }

    @Test func aMainActorDecoratorRunsOnlyOnTheMainActor() async {
        let box = DIContainer()
        box.register {
            Shared(StripeBilling() as Billing)
            Decorate(Billing.self) { @MainActor payments, _ in
                MainActor.preconditionIsolated("a @MainActor decorator ran off the main actor")
                return LoggingBilling(payments, label: "main")
            }
        }
        let reason = await errorInDetachedTask { _ = try box.tryResolve(Billing.self) }?.reason
        #expect(reason == .mainActorRequired)
        #expect(await MainActor.run { box.resolve(Billing.self).log } == ["stripe", "main"])
    }

    @Test func resetForgetsDecorators() {
        let box = DIContainer()
        box.register { Decorate(Billing.self) { payments, _ in LoggingBilling(payments, label: "logged") } }
        box.reset()
        box.register(Shared(StripeBilling() as Billing))
        #expect(box.resolve(Billing.self).log == ["stripe"])
    }
}

private final class DecoratedCounter {
    let value: Int
    init(_ value: Int) { self.value = value }
}

/// A module registered again (or given to `withOverrides` as its own override) brings its
/// `Decorate` again: the container applies each `Decorate` once.
@Suite struct DecorateRegisteredAgainTests {
    static let feature = Module {
        New { DecoratedCounter(1) }
        Decorate(DecoratedCounter.self) { counter, _ in DecoratedCounter(counter.value * 10) }
    }

    @Test func aModuleRegisteredAgainDecoratesOnce() {
        let box = DIContainer()
        box.register { Self.feature }
        #expect(box.resolve(DecoratedCounter.self).value == 10)
        box.register { Self.feature }
        #expect(box.resolve(DecoratedCounter.self).value == 10)
        let overridden = box.activate {
            DIContainer.withOverrides({ Self.feature }) { DIContainer.resolve(DecoratedCounter.self).value }
        }
        #expect(overridden == 10)
    }

    /// A module built anew each time it is read (`static var`, as the Example and GettingStarted
    /// write them) brings new `Decorate` values written in the same place: still applied once.
    static var computed: Module {
        Module {
            New { DecoratedCounter(1) }
            Decorate(DecoratedCounter.self) { counter, _ in DecoratedCounter(counter.value * 10) }
        }
    }

    @Test func aComputedModuleRegisteredAgainDecoratesOnce() {
        let box = DIContainer()
        box.register { Self.computed }
        box.register { Self.computed }
        #expect(box.resolve(DecoratedCounter.self).value == 10)
        let overridden = box.withOverrides {
            Self.computed
        } operation: {
            DIContainer.resolve(DecoratedCounter.self).value
        }
        #expect(overridden == 10)
    }

    /// Two `Decorate`s written in one place and registered in one call (a loop) both apply.
    @Test func decoratorsFromOnePlaceInOneCallAllApply() {
        let box = DIContainer()
        box.register {
            New { DecoratedCounter(1) }
            for _ in 0..<2 { Decorate(DecoratedCounter.self) { counter, _ in DecoratedCounter(counter.value * 10) } }
        }
        #expect(box.resolve(DecoratedCounter.self).value == 100)
    }
}

@MainActor private final class MainActorBilling: Billing {
    nonisolated var log: [String] { ["main"] }
    init() {}
}

@MainActor private func registerMainActorBillingDecorated(in box: DIContainer) {
    box.register {
        Shared(MainActorBilling.init, as: Billing.self)
        Decorate(Billing.self) { @MainActor payments, _ throws in payments }
    }
}
