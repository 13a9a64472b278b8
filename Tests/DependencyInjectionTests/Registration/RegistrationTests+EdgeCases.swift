import DependencyInjection
import Testing

// Builder and registration forms beyond RegistrationTests: `if` without `else`, control flow
// inside `Module { }`, an empty block, value types, aliases of New, and what `as` registers.

private protocol Channel: AnyObject { var label: String { get } }
private final class ChannelA: Channel {
    let label = "A"
    init() {}
}
private final class Lamp { init() {} }
private final class Fan { init() {} }

extension RegistrationBuilderTests {
    @Test(arguments: [true, false])
    func ifWithoutElseRegistersOnlyWhenTheConditionHolds(condition: Bool) {
        let box = DIContainer()
        box.register {
            Shared(Fan.init)
            if condition {
                Shared(Lamp.init)
            }
        }
        #expect((box.resolve(Lamp?.self) != nil) == condition)
        #expect(box.resolve(Fan?.self) != nil)
    }

    @Test func aModuleSupportsControlFlowToo() throws {
        let wantsFan = true
        let module = Module {
            Shared(Lamp.init)
            if wantsFan { New(Fan.init) }
            for index in 0..<2 { Shared(index).named("index \(index)") }
        }
        let box = DIContainer()
        box.register(module)
        #expect(box.resolve(Lamp?.self) != nil)
        #expect(try box.tryResolve(Fan.self) !== box.tryResolve(Fan.self))
        #expect(try box.tryResolve(Int.self, name: "index 1") == 1)
    }

    @Test func anEmptyBlockRegistersNothing() {
        let box = DIContainer()
        box.register {}
        #expect(box.resolve(Lamp?.self) == nil)
    }
}

extension RegistrationFormTests {
    @Test func valueTypesRegisterAndResolve() throws {
        struct Settings: Equatable { var retries: Int }
        let box = DIContainer()
        box.register {
            Shared(Settings(retries: 3))
            New(42)
        }
        #expect(try box.tryResolve(Settings.self) == Settings(retries: 3))
        #expect(try box.tryResolve(Int.self) == 42)
    }

    @Test func anExpressionCastWithAsRegistersOnlyTheCastType() {
        let box = DIContainer()
        box.register(Shared(ChannelA() as Channel))
        #expect(box.resolve(Channel?.self) != nil)
        #expect(box.resolve(ChannelA?.self) == nil)
    }

    @Test func newWithAliasesMakesOneInstancePerResolveWhicheverSlotIsAsked() throws {
        let box = DIContainer()
        box.register(New(ChannelA.init, as: Channel.self))
        #expect(try box.tryResolve(Channel.self) !== box.tryResolve(Channel.self))
        #expect(try box.tryResolve(Channel.self) !== box.tryResolve(ChannelA.self))
    }
}
