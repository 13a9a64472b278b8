import DependencyInjection
import Testing

// Optional values in the lazy wrappers.

private protocol Speaker: AnyObject {}
private final class Loud: Speaker { init() {} }

private final class Listener {
    @LazyInject var speaker: Speaker?
    @MutableLazyInject var mutableSpeaker: Speaker?
}

/// Reads its lazy wrapper in `deinit`: it must resolve from its own container, which is going.
private final class Farewell {
    @LazyInject var greeting: Greeting
    let said: Guarded<String?>
    init(said: Guarded<String?>) { self.said = said }
    deinit { said.withLock { $0 = greeting.text } }
}

extension LazyInjectTests {
    /// A `withOverrides` copy's service reading its lazy wrapper in `deinit` when the copy goes gets
    /// the copy's service, not `shared`'s (the copy's instances go while it still exists).
    @Test func aLazyWrapperReadInTheDeinitOfAnOverrideCopysServiceResolvesFromTheCopy() {
        let said = Guarded<String?>(nil)
        DIContainer.withOverrides {
            New(MockGreeting() as Greeting)
            Shared { Farewell(said: said) }
        } operation: {
            _ = DIContainer.resolve(Farewell.self)
        }
        #expect(said.current == "mock")
    }

    @Test func lazyWrappersOfAnOptionalAreNilWhenNothingIsRegistered() {
        let listener = DIContainer().activate { Listener() }
        #expect(listener.speaker == nil)
        #expect(listener.mutableSpeaker == nil)
    }

    @Test func lazyWrappersOfAnOptionalResolveWhenRegistered() throws {
        let box = DIContainer()
        box.register(Shared(Loud() as Speaker))
        let listener = box.activate { Listener() }
        #expect(try listener.speaker === box.tryResolve(Speaker.self))
        #expect(try listener.mutableSpeaker === box.tryResolve(Speaker.self))
    }
}
