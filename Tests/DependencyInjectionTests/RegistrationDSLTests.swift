import DependencyInjection
import Testing

// The register { } builder and Module: control flow, nesting, single registrations, laziness.

private protocol Channel: AnyObject { var label: String { get } }
private final class ChannelA: Channel { let label = "A" }
private final class ChannelB: Channel { let label = "B" }
private final class Lamp { init() {} }
private final class Switch { init() {} }
private final class Fan { init() {} }

@Suite struct RegistrationDSLTests {
    @Test(arguments: [true, false])
    func ifRegistersOnlyWhenTheConditionHolds(condition: Bool) {
        let box = DIContainer()
        box.register {
            Shared(Switch.init)
            if condition {
                Shared(Lamp.init)
            }
        }
        #expect((box.resolve(Lamp?.self) != nil) == condition)
        #expect(box.resolve(Switch?.self) != nil)
    }

    @Test(arguments: [true, false])
    func ifElseRegistersTheChosenBranchOnly(useA: Bool) {
        let box = DIContainer()
        box.register {
            if useA {
                Shared(ChannelA() as Channel)
            } else {
                Shared(ChannelB() as Channel)
                Shared(Lamp.init)
            }
        }
        #expect(box.resolve(Channel.self).label == (useA ? "A" : "B"))
        #expect((box.resolve(Lamp?.self) != nil) == !useA)
    }

    @Test func forRegistersEveryIteration() {
        let box = DIContainer()
        let labels = ["one", "two", "three"]
        box.register {
            for label in labels {
                Shared(label).named(label)
            }
        }
        for label in labels {
            #expect(box.resolve(String.self, name: label) == label)
        }
        #expect(box.resolve(String?.self) == nil)
    }

    @Test func compilerConditionalsRegisterTheActiveClauseOnly() {
        let box = DIContainer()
        box.register {
            #if swift(>=5.9)
                Shared(ChannelA() as Channel)
            #else
                Shared(ChannelB() as Channel)
            #endif
            #if NEVER_DEFINED_BY_THIS_PACKAGE
                Shared(Lamp.init)
            #endif
        }
        #expect(box.resolve(Channel.self).label == "A")
        #expect(box.resolve(Lamp?.self) == nil)
    }

    @Test func modulesNestAndMixWithRegistrations() {
        let lighting = Module {
            Shared(Lamp.init)
            Module(Shared(Switch.init))
        }
        let climate = Module(New(Fan.init))
        let box = DIContainer()
        box.register {
            Module {
                lighting
                Shared(ChannelA() as Channel)
            }
            climate
            if true {
                Module { New(String("inside if")) }
            }
        }
        #expect(box.resolve(Lamp.self) === box.resolve(Lamp.self))
        #expect(box.resolve(Switch.self) === box.resolve(Switch.self))
        #expect(box.resolve(Fan.self) !== box.resolve(Fan.self))
        #expect(box.resolve(Channel.self).label == "A")
        #expect(box.resolve(String.self) == "inside if")
    }

    @Test func aModuleCanBeRegisteredDirectlyAndSupportsControlFlow() {
        let wantsFan = true
        let module = Module {
            Shared(Lamp.init)
            if wantsFan { New(Fan.init) }
            for index in 0..<2 { Shared(index).named("index \(index)") }
        }
        let box = DIContainer()
        box.register(module)
        #expect(box.resolve(Lamp?.self) != nil)
        #expect(box.resolve(Fan?.self) != nil)
        #expect(box.resolve(Int.self, name: "index 1") == 1)
    }

    @Test func aModuleRegisteredInTwoContainersGivesEachItsOwnInstances() {
        let module = Module { Shared(Lamp.init) }
        let first = DIContainer()
        let second = DIContainer()
        first.register(module)
        second.register(module)
        #expect(first.resolve(Lamp.self) !== second.resolve(Lamp.self))
    }

    @Test func aSingleRegistrationRegistersWithoutABuilder() {
        let box = DIContainer()
        box.register(New(ChannelB() as Channel))
        #expect(box.resolve(Channel.self).label == "B")
        #expect(box.resolve(Channel.self) !== box.resolve(Channel.self))
    }

    @Test func anEmptyBlockRegistersNothing() {
        let box = DIContainer()
        box.register {}
        #expect(box.resolve(Lamp?.self) == nil)
    }

    @Test func theLastRegistrationOfATypeInABlockWins() {
        let box = DIContainer()
        box.register {
            Shared(ChannelA() as Channel)
            Shared(ChannelB() as Channel)
        }
        #expect(box.resolve(Channel.self).label == "B")
    }

    @Test func registeringAgainReplacesTheEarlierRegistration() {
        let box = DIContainer()
        box.register(Shared(ChannelA() as Channel))
        let first = box.resolve(Channel.self)
        box.register(Shared(ChannelB() as Channel))
        #expect(box.resolve(Channel.self).label == "B")
        #expect(first.label == "A")
    }

    @Test func anAutoclosureIsNotEvaluatedUntilResolved() {
        let made = FactoryCallCounter()
        func makeLamp() -> Lamp {
            made.increment()
            return Lamp()
        }
        let box = DIContainer()
        box.register {
            Shared(makeLamp())
            New(makeLamp()).named("new")
        }
        #expect(made.value == 0)
        _ = box.resolve(Lamp.self)
        #expect(made.value == 1)
        _ = box.resolve(Lamp.self)
        #expect(made.value == 1)
        _ = box.resolve(Lamp.self, name: "new")
        _ = box.resolve(Lamp.self, name: "new")
        #expect(made.value == 3)
    }

    @Test func anInitializerReferenceAndAResolverClosureAreCalledOnlyWhenResolved() {
        let made = FactoryCallCounter()
        final class Counted {
            init(_ counter: FactoryCallCounter) { counter.increment() }
        }
        let box = DIContainer()
        box.register {
            Shared { _ in Counted(made) }
            Shared { () -> Lamp in
                made.increment()
                return Lamp()
            }
        }
        #expect(made.value == 0)
        _ = box.resolve(Counted.self)
        _ = box.resolve(Lamp.self)
        #expect(made.value == 2)
    }

    @Test func aResolverClosureGetsItsDependenciesFromTheContainer() {
        final class Room {
            let lamp: Lamp
            let channel: Channel
            init(lamp: Lamp, channel: Channel) {
                self.lamp = lamp
                self.channel = channel
            }
        }
        let box = DIContainer()
        box.register {
            Shared { resolve in Room(lamp: resolve(), channel: resolve(Channel.self)) }
            Shared(Lamp.init)
            Shared(ChannelA() as Channel)
        }
        let room = box.resolve(Room.self)
        #expect(room.lamp === box.resolve(Lamp.self))
        #expect(room.channel === box.resolve(Channel.self))
    }

    @Test func valueTypesRegisterAndResolve() {
        struct Settings: Equatable { var retries: Int }
        let box = DIContainer()
        box.register {
            Shared(Settings(retries: 3))
            New(42)
        }
        #expect(box.resolve(Settings.self) == Settings(retries: 3))
        #expect(box.resolve(Int.self) == 42)
    }
}
