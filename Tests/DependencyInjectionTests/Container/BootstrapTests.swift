import DependencyInjection
import Testing

// registerDependencies(): production registrations made on first use of shared.
//
// These tests never change `shared` itself (other tests run in parallel against it): they use
// `withOverrides`, whose copy of shared runs registerDependencies() again after reset(), as
// shared does.

private final class EagerService: Sendable {}
private final class NeverRegistered {}

@Suite(.timeLimit(.minutes(1))) struct BootstrapTests {
    @Test func sharedHasTheProductionRegistrations() throws {
        #expect(try DIContainer.shared.tryResolve(Greeting.self).text == "production")
    }

    @Test func resetRunsRegisterDependenciesAgainBeforeTheNextResolve() {
        DIContainer.shared.withOverrides {
        } operation: {
            DIContainer.register { Shared(MockGreeting() as Greeting) }
            #expect(DIContainer.resolve(Greeting.self).text == "mock")
            DIContainer.reset()
            #expect(DIContainer.resolve(Greeting.self).text == "production")
        }
    }

    /// `registerDependencies()` is a registration of its own: a first resolve that fails (or hops,
    /// and so fails once before the main actor retries it) drops what it made, not the eager
    /// instances the registrations made.
    @Test func aFailedFirstResolveKeepsTheEagerInstancesRegisterDependenciesMade() {
        expectEagerInstanceKept { _ in
            #expect(throws: ResolutionError.self) { try DIContainer.tryResolve(NeverRegistered.self) }
        }
    }

    /// The same when the first use is a failed resolve inside another container's factory, which
    /// catches it and goes on.
    @Test func aFailedFirstResolveInsideAFactoryKeepsTheEagerInstancesRegisterDependenciesMade() {
        expectEagerInstanceKept { copy in
            let box = DIContainer()
            box.register {
                New { _ -> Engine in
                    _ = try? copy.tryResolve(NeverRegistered.self)
                    return Engine()
                }
            }
            _ = box.resolve(Engine.self)
        }
    }

    /// The same when the resolution that first reached it (inside another container's factory) then
    /// fails as a whole: registerDependencies() was not part of it, and what it made stays.
    @Test func aResolutionThatFailsAfterReachingSharedFirstKeepsTheEagerInstances() {
        expectEagerInstanceKept { copy in
            let box = DIContainer()
            box.register {
                New { _ -> Engine in
                    _ = try copy.tryResolve(Greeting.self)
                    throw Offline()
                }
            }
            #expect(throws: ResolutionError.self) { try box.tryResolve(Engine.self) }
        }
    }

    /// In a copy of `shared` whose `registerDependencies()` is due again and registers an eager
    /// service too, runs `firstUse` (given the copy); then expects the eager instance made once,
    /// by `registerDependencies()`, and kept.
    private func expectEagerInstanceKept(afterFirstUse firstUse: (DIContainer) -> Void) {
        let made = Guarded(0)
        DIContainer.shared.withOverrides {
        } operation: {
            DIContainer.reset()
            let copy = DIContainer.current
            BootstrapExtra.current.withValue(eagerModule(counting: made)) { firstUse(copy) }
            #expect(made.current == 1, "made by registerDependencies()")
            _ = DIContainer.resolve(EagerService.self)
            #expect(made.current == 1, "kept, not made again")
        }
    }

    private func eagerModule(counting made: Guarded<Int>) -> Module {
        Module {
            Shared { () -> EagerService in
                made.withLock { $0 += 1 }
                return EagerService()
            }.eager()
        }
    }

    @Test func aMockRegisteredBeforeTheFirstResolveIsNotOverwritten() {
        DIContainer.shared.withOverrides {
        } operation: {
            DIContainer.reset()
            DIContainer.register { Shared(MockGreeting() as Greeting) }
            #expect(DIContainer.resolve(Greeting.self).text == "mock")
            DIContainer.register { Shared(Engine.init) }
            #expect(DIContainer.resolve(Greeting.self).text == "mock")
        }
    }

    @Test func registerDependenciesReachesTheContainerThatNeedsIt() {
        // Inside registerDependencies(), the static API reaches the copy, not shared.
        DIContainer.shared.withOverrides {
        } operation: {
            let copy = DIContainer.current
            copy.reset()
            #expect(copy.resolve(Greeting.self) !== DIContainer.shared.resolve(Greeting.self))
        }
    }

    @Test func unregisterBeforeRegisterDependenciesRanRemovesWhatItRegisters() {
        DIContainer.shared.withOverrides {
        } operation: {
            DIContainer.reset()
            #expect(DIContainer.unregister(Greeting.self))
            // Not registered again by a later first use.
            #expect(DIContainer.resolve(Greeting?.self) == nil)
        }
    }

    @Test func theListingAndTheGraphShowWhatRegisterDependenciesRegisters() {
        DIContainer.shared.withOverrides {
        } operation: {
            DIContainer.reset()
            #expect(DIContainer.current.registrations.map(\.typeName) == ["Greeting"])
            DIContainer.reset()
            #expect(DIContainer.current.dependencyGraph().contains("label=\"Greeting\\nShared\""))
        }
    }
}

private protocol EagerPort: AnyObject {}
private final class EagerImpl: EagerPort {
    let tag: String
    init(tag: String) { self.tag = tag }
}

/// An `eager()` registration is made by its own factory, even when a later line of the same call
/// takes its type's key (here for a factory with arguments): through a key it still serves.
@Suite struct EagerRegistrationShadowedInItsCallTests {
    @Test func anEagerRegistrationShadowedInItsCallIsStillMade() throws {
        let made = Tally()
        let box = DIContainer()
        try box.tryRegister {
            Shared(
                {
                    made.increment()
                    return EagerImpl(tag: "eager")
                }, as: EagerPort.self
            ).eager()
            New { (_, tag: String) in EagerImpl(tag: tag) }
        }
        #expect(made.value == 1)
        #expect((box.resolve(EagerPort.self) as? EagerImpl)?.tag == "eager")
    }
}
