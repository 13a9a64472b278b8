import DependencyInjection
import Dispatch
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

private final class OverriddenStore: @unchecked Sendable {}

extension LazyInjectTests {
    /// A task the operation started keeps the copy bound: its `Shared` instances stay (they go only
    /// when the copy goes with the call), so the task gets the same one.
    @Test func aTaskStartedInWithOverridesGetsTheCopysSharedInstance() async {
        let box = DIContainer()
        box.register { Shared { OverriddenStore() } }
        // The task resolves once `withOverrides` has returned.
        func resolvingLater(_ gate: DispatchSemaphore) -> Task<OverriddenStore, Never> {
            Task {
                gate.wait()
                return DIContainer.resolve(OverriddenStore.self)
            }
        }
        let gate = DispatchSemaphore(value: 0)
        let (first, task) = box.withOverrides {
        } operation: {
            (DIContainer.resolve(OverriddenStore.self), resolvingLater(gate))
        }
        gate.signal()
        #expect(first === (await task.value), "a Shared of the copy was made twice")
        let asyncGate = DispatchSemaphore(value: 0)
        let (asyncFirst, asyncTask) = await box.withOverrides {
        } operation: { () async in
            (DIContainer.resolve(OverriddenStore.self), resolvingLater(asyncGate))
        }
        asyncGate.signal()
        #expect(asyncFirst === (await asyncTask.value), "a Shared of the async copy was made twice")
    }
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

    /// The same when withOverrides is called inside a factory (the lock is held).
    @Test func aLazyWrapperReadInTheDeinitOfAnOverrideCopysServiceInsideAFactoryResolvesFromTheCopy() {
        let said = Guarded<String?>(nil)
        let box = DIContainer()
        box.register {
            New { () -> Loud in
                DIContainer.withOverrides {
                    New(MockGreeting() as Greeting)
                    Shared { Farewell(said: said) }
                } operation: {
                    _ = DIContainer.resolve(Farewell.self)
                }
                return Loud()
            }
        }
        _ = box.resolve(Loud.self)
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
