import DependencyInjection
import Testing

// @Inject, @LazyInject, @MutableInject, @MutableLazyInject: when and where they resolve.

private protocol Clock: AnyObject { var label: String { get } }
private final class SystemClock: Clock {
    let label: String
    init(_ label: String = "system") { self.label = label }
}
private protocol Speaker: AnyObject {}

private final class Eager {
    @Inject var clock: Clock
    @MutableInject var mutableClock: Clock
    @Inject var speaker: Speaker?
    @MutableInject var mutableSpeaker: Speaker?
}

private final class Lazy {
    @LazyInject var clock: Clock
    @MutableLazyInject var mutableClock: Clock
    @LazyInject var speaker: Speaker?
    @MutableLazyInject var mutableSpeaker: Speaker?
}

private final class Panel {
    @Inject var clock: Clock
    @LazyInject var lazyClock: Clock
}

private func countingClock(_ counter: FactoryCallCounter, label: String = "system") -> Registration<Clock, NewLifetime> {
    New { () -> Clock in
        counter.increment()
        return SystemClock(label)
    }
}

@Suite struct PropertyWrapperTests {
    @Test func injectResolvesWhenTheObjectIsMade() {
        let made = FactoryCallCounter()
        let box = DIContainer()
        box.register(countingClock(made))
        let object = box.activate { Eager() }
        #expect(made.value == 2)
        #expect(object.clock.label == "system")
        #expect(object.mutableClock.label == "system")
        _ = object.clock
        #expect(made.value == 2)
    }

    @Test func injectOfAnOptionalIsNilWhenNothingIsRegistered() {
        let box = DIContainer()
        box.register(New(SystemClock() as Clock))
        let object = box.activate { Eager() }
        #expect(object.speaker == nil)
        #expect(object.mutableSpeaker == nil)
    }

    @Test func injectOfAnOptionalResolvesWhenRegistered() {
        final class Loud: Speaker {}
        let box = DIContainer()
        box.register {
            New(SystemClock() as Clock)
            Shared(Loud() as Speaker)
        }
        let object = box.activate { Eager() }
        #expect(object.speaker === box.resolve(Speaker.self))
        #expect(object.mutableSpeaker === box.resolve(Speaker.self))
    }

    @Test func mutableInjectCanBeReplaced() {
        let box = DIContainer()
        box.register(New(SystemClock() as Clock))
        let object = box.activate { Eager() }
        let replacement = SystemClock("replacement")
        object.mutableClock = replacement
        #expect(object.mutableClock === replacement)
    }

    @Test func lazyInjectResolvesOnFirstAccessOnly() {
        let made = FactoryCallCounter()
        let box = DIContainer()
        box.register(countingClock(made))
        let object = box.activate { Lazy() }
        #expect(made.value == 0)
        let first = object.clock
        #expect(made.value == 1)
        #expect(object.clock === first)
        #expect(made.value == 1)
        let mutableFirst = object.mutableClock
        #expect(object.mutableClock === mutableFirst)
        #expect(made.value == 2)
    }

    @Test func lazyInjectOfAnOptionalIsNilWhenNothingIsRegistered() {
        let box = DIContainer()
        let object = box.activate { Lazy() }
        #expect(object.speaker == nil)
        #expect(object.mutableSpeaker == nil)
    }

    @Test func mutableLazyInjectSetBeforeFirstAccessResolvesNothing() {
        // Nothing is registered: resolving would trap, so the set value must be used as is.
        let box = DIContainer()
        let object = box.activate { Lazy() }
        let replacement = SystemClock("set")
        object.mutableClock = replacement
        #expect(object.mutableClock === replacement)
    }

    @Test func mutableLazyInjectCanBeReplacedAfterFirstAccess() {
        let box = DIContainer()
        box.register(New(SystemClock() as Clock))
        let object = box.activate { Lazy() }
        #expect(object.mutableClock.label == "system")
        object.mutableClock = SystemClock("later")
        #expect(object.mutableClock.label == "later")
    }

    @Test func lazyInjectResolvesFromTheContainerCurrentAtInit() {
        let made = FactoryCallCounter()
        let box = DIContainer()
        box.register(countingClock(made, label: "box"))
        let other = DIContainer()
        other.register(New(SystemClock("other") as Clock))
        let object = box.activate { Lazy() }
        let clock = other.activate { object.clock }
        #expect(clock.label == "box")
        #expect(made.value == 1)
    }

    @Test func lazyInjectFallsBackToTheCurrentContainerWhenItsOwnIsGone() {
        let other = DIContainer()
        other.register(New(SystemClock("other") as Clock))
        let object: Lazy = {
            let transient = DIContainer()
            return transient.activate { Lazy() }
        }()
        #expect(other.activate { object.clock.label } == "other")
    }

    @Test func wrappersOfWhatAFactoryMakesResolveFromThatContainer() {
        let box = DIContainer()
        box.register {
            Shared(SystemClock("box") as Clock)
            New(Panel())
        }
        let other = DIContainer()
        other.register(Shared(SystemClock("other") as Clock))
        let panel = other.activate { box.resolve(Panel.self) }
        #expect(panel.clock.label == "box")
        #expect(other.activate { panel.lazyClock.label } == "box")
    }

    @Test func wrappersResolveFromTheActivatedContainerAndNotFromShared() {
        let box = DIContainer()
        box.register(Shared(SystemClock("box") as Clock))
        let panel = box.activate { Panel() }
        #expect(panel.clock === box.resolve(Clock.self))
        #expect(DIContainer.shared.resolve(Clock?.self) == nil)
    }
}
