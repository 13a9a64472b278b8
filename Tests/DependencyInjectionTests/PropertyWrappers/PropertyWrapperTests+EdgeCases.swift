import DependencyInjection
import Testing

// Optional values in the lazy wrappers.

private protocol Speaker: AnyObject {}
private final class Loud: Speaker { init() {} }

private final class Listener {
    @LazyInject var speaker: Speaker?
    @MutableLazyInject var mutableSpeaker: Speaker?
}

extension LazyInjectTests {
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
