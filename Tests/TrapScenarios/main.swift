// Scenarios that must end the process with a trap. `TrapTests` runs this executable once per
// scenario (the name is the only argument) and reads what it printed:
//
// - stdout: the message the non-trapping API gives for the same mistake (tryResolve's or
//   tryRegister's `description`), between `expected-begin` and `expected-end` lines, when the
//   scenario has such a twin; then `trapping`, just before the call that must trap.
// - stderr: the runtime's `Fatal error: …` line, which must carry exactly that message.
//
// A scenario that does not trap prints `did-not-trap` and exits with status 0.

import DependencyInjection
import Dispatch

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

protocol AppConfiguration: AnyObject {}
protocol Router: AnyObject {}
final class RouterImpl: Router {
    init() {}
    init(config: AppConfiguration) {}
}
final class Engine { init() {} }
final class CycleA { init(b: CycleB) {} }
final class CycleB { init(a: CycleA) {} }
final class ViewModel { init(id: String) {} }
struct Point { var x = 0 }
struct Offline: Error {}
protocol Store: AnyObject {}
final class MemoryStore: Store {}
@MainActor final class ProfileModel { init() {} }
/// Not Sendable: made on the main actor, it stays there.
final class ScreenState { var title = "" }

final class Screen {
    @Inject var router: Router
    init() {}
}

final class LazyScreen {
    @LazyInject var router: Router
    init() {}
}

/// Each needs the other through an `@Inject` property.
final class WrapperCycleA {
    @Inject var b: WrapperCycleB
    init() {}
}
final class WrapperCycleB {
    @Inject var a: WrapperCycleA
    init() {}
}

// In this package no `@retroactive` is needed. Every scenario's first use of `shared` runs this;
// only the scenario that needs it registers anything.
extension DIContainer: DependencyRegistering {
    public static func registerDependencies() {
        guard CommandLine.arguments.dropFirst().first == "validateInRegisterDependenciesReachedInAFactory" else {
            return
        }
        register(Shared(RouterImpl() as Router))
        _ = validate()
    }
}

func announce(expected error: ResolutionError?) {
    if let error {
        print("expected-begin")
        print(error.description)
        print("expected-end")
    }
    print("trapping")
    fflush(nil)
}

func thrown<R>(_ body: () throws -> R) -> ResolutionError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error as? ResolutionError
    }
}

func didNotTrap() -> Never {
    print("did-not-trap")
    fflush(nil)
    exit(0)
}

/// A container where `RouterImpl` needs an `AppConfiguration` that nobody registers.
func containerMissingConfiguration(throwing: Bool) -> DIContainer {
    let box = DIContainer()
    if throwing {
        box.register { Shared { resolve in try RouterImpl(config: resolve.tryResolve()) } }
    } else {
        box.register { Shared { resolve in RouterImpl(config: resolve()) } }
    }
    return box
}

/// A container where `CycleA` and `CycleB` need each other to be made.
func containerWithCycle(throwing: Bool) -> DIContainer {
    let box = DIContainer()
    if throwing {
        box.register {
            Shared { resolve in try CycleA(b: resolve.tryResolve()) }
            Shared { resolve in try CycleB(a: resolve.tryResolve()) }
        }
    } else {
        box.register {
            Shared { resolve in CycleA(b: resolve()) }
            Shared { resolve in CycleB(a: resolve()) }
        }
    }
    return box
}

final class Token { init() {} }
final class TokenPair {
    let first: Token
    let second: Token
    init(first: Token, second: Token) {
        self.first = first
        self.second = second
    }
}
final class InjectedEngine {
    @Inject var engine: Engine
    init() {}
}

/// What `shared` does while no container was ever bound to a task (the process-wide default,
/// which tests with traits cannot observe): factories see `shared` as `current`, wrappers and
/// the static API inside factories resolve from it, and a child reaching it is handled.
func checkSharedWithoutBindings() {
    var failures: [String] = []
    func check(_ condition: Bool, _ what: String) { if !condition { failures.append(what) } }
    nonisolated(unsafe) var currentInFactory: DIContainer?
    DIContainer.register {
        Shared(Engine.init)
        New { _ -> InjectedEngine in
            currentInFactory = DIContainer.current
            return InjectedEngine()
        }
        New { _ in RouterImpl(config: DIContainer.resolve()) }
        Shared(AppConfigurationImpl() as AppConfiguration)
        Graph(Token.init)
        New { resolve in TokenPair(first: resolve(), second: resolve()) }
        New { (_, id: String) in ViewModel(id: id) }
    }
    let injected = DIContainer.resolve(InjectedEngine.self)
    check(currentInFactory === DIContainer.shared, "current inside a factory of shared is shared")
    check(injected.engine === DIContainer.resolve(Engine.self), "@Inject inside a factory resolves from shared")
    _ = DIContainer.resolve(RouterImpl.self)
    let pair = DIContainer.resolve(TokenPair.self)
    check(pair.first === pair.second, "a Graph instance is shared within one resolution")
    check(DIContainer.resolve(TokenPair.self).first !== pair.first, "and made anew by the next")
    _ = DIContainer.resolve(ViewModel.self) { "seven" }
    let child = DIContainer(parent: .shared)
    currentInFactory = nil
    let fromChild = child.resolve(InjectedEngine.self)
    check(
        currentInFactory === DIContainer.shared, "a parent's factory reached from a child runs with the parent current")
    check(fromChild.engine === DIContainer.resolve(Engine.self), "and its wrappers resolve from the parent")
    check(DIContainer.current === DIContainer.shared, "after all that, current is shared again")
    print(failures.isEmpty ? "checks-passed" : "failed: \(failures.joined(separator: "; "))")
}

final class AppConfigurationImpl: AppConfiguration { init() {} }

protocol MisspeltShelf: AnyObject {}
final class WoodMisspeltShelf: MisspeltShelf { init() {} }
final class MisspeltShelfScreen {
    @Inject(name: "primery") var shelf: MisspeltShelf
    init() {}
}

let scenarios: [String: () -> Void] = [
    "sharedWithoutBindings": { checkSharedWithoutBindings() },
    "resolverUsedAfterItsContainer": {
        nonisolated(unsafe) var kept: Resolver?
        do {
            let box = DIContainer()
            box.register {
                New { resolve -> Engine in
                    kept = resolve
                    return Engine()
                }
            }
            _ = box.resolve(Engine.self)
        }
        announce(expected: nil)
        _ = kept.map { $0(Engine.self) }
    },
    "missingRegistration": {
        let box = DIContainer()
        announce(expected: thrown { try box.tryResolve(Router.self) })
        _ = box.resolve(Router.self)
    },
    "missingRegistrationThroughStaticAPI": {
        let box = DIContainer()
        box.activate {
            announce(expected: thrown { try DIContainer.tryResolve(Router.self) })
            _ = DIContainer.resolve(Router.self)
        }
    },
    "missingName": {
        let box = DIContainer()
        box.register { Shared(MemoryStore() as Store).named("cache") }
        announce(expected: thrown { try box.tryResolve(Store.self, name: "primary") })
        _ = box.resolve(Store.self, name: "primary")
    },
    "missingNestedDependencyInPlainFactory": {
        let expected = thrown { try containerMissingConfiguration(throwing: true).tryResolve(RouterImpl.self) }
        announce(expected: expected)
        _ = containerMissingConfiguration(throwing: false).resolve(RouterImpl.self)
    },
    "tryResolveThroughPlainFactoryWithMissingDependency": {
        let expected = thrown { try containerMissingConfiguration(throwing: true).tryResolve(RouterImpl.self) }
        announce(expected: expected)
        // Swift cannot unwind through a non-throwing factory: even tryResolve must trap here.
        _ = try? containerMissingConfiguration(throwing: false).tryResolve(RouterImpl.self)
        didNotTrap()
    },
    "cycleThroughPlainFactories": {
        announce(expected: thrown { try containerWithCycle(throwing: true).tryResolve(CycleA.self) })
        _ = containerWithCycle(throwing: false).resolve(CycleA.self)
    },
    "argumentTypeMismatch": {
        let box = DIContainer()
        box.register { New { (_, id: String) in ViewModel(id: id) } }
        announce(expected: thrown { try box.tryResolve(ViewModel.self, arguments: { 42 }) })
        _ = box.resolve(ViewModel.self, arguments: { 42 })
    },
    "argumentsMissing": {
        let box = DIContainer()
        box.register { New { (_, id: String) in ViewModel(id: id) } }
        announce(expected: thrown { try box.tryResolve(ViewModel.self) })
        _ = box.resolve(ViewModel.self)
    },
    "factoryError": {
        let box = DIContainer()
        box.register { Shared { _ throws -> Engine in throw Offline() } }
        announce(expected: thrown { try box.tryResolve(Engine.self) })
        _ = box.resolve(Engine.self)
    },
    "aliasNotConforming": {
        let box = DIContainer()
        // One registration, so that both messages name the line it was written on.
        let registration = Module(Shared(Engine(), as: Router.self))
        announce(expected: thrown { try box.tryRegister(registration) })
        box.register(registration)
    },
    "optionalRegistration": {
        let box = DIContainer()
        let registration = Module(Shared(Engine?.none))
        announce(expected: thrown { try box.tryRegister(registration) })
        box.register(registration)
    },
    "weakValueType": {
        let box = DIContainer()
        box.register { Weak(Point()) }
        announce(expected: thrown { try box.tryResolve(Point.self) })
        _ = box.resolve(Point.self)
    },
    "registerInsideFactory": {
        let twin = DIContainer()
        twin.register {
            Shared { _ throws -> Engine in
                try DIContainer.tryRegister(Shared(MemoryStore() as Store))
                return Engine()
            }
        }
        announce(expected: thrown { try twin.tryResolve(Engine.self) })
        let box = DIContainer()
        box.register {
            Shared { _ -> Engine in
                DIContainer.register(Shared(MemoryStore() as Store))
                return Engine()
            }
        }
        _ = box.resolve(Engine.self)
    },
    "resetInsideFactory": {
        let box = DIContainer()
        box.register {
            Shared { _ -> Engine in
                DIContainer.reset()
                return Engine()
            }
        }
        announce(expected: nil)
        _ = box.resolve(Engine.self)
    },
    "releaseInstancesInsideFactory": {
        let box = DIContainer()
        box.register {
            Shared { _ -> Engine in
                DIContainer.releaseInstances()
                return Engine()
            }
        }
        announce(expected: nil)
        _ = box.resolve(Engine.self)
    },
    // validate() in registerDependencies(), which a factory's first use of `shared` runs: inside
    // that factory too, whose half-made state the checks' threads must not see.
    "validateInRegisterDependenciesReachedInAFactory": {
        let box = DIContainer()
        box.register {
            Shared { _ -> Engine in
                _ = DIContainer.shared.resolve(Router.self)
                return Engine()
            }
        }
        announce(expected: nil)
        _ = box.resolve(Engine.self)
    },
    "validateInsideFactory": {
        let box = DIContainer()
        box.register {
            Shared { _ -> Engine in
                _ = box.validate()
                return Engine()
            }
        }
        announce(expected: nil)
        _ = box.resolve(Engine.self)
    },
    "injectMissing": {
        let box = DIContainer()
        box.activate {
            announce(expected: thrown { try DIContainer.tryResolve(Router.self) })
            _ = Screen()
        }
    },
    "injectCycle": {
        let box = DIContainer()
        box.register {
            Shared(WrapperCycleA.init)
            Shared(WrapperCycleB.init)
        }
        _ = box.resolve(WrapperCycleA.self)
    },
    "lazyInjectMissing": {
        let box = DIContainer()
        let screen = box.activate { LazyScreen() }
        announce(expected: thrown { try box.tryResolve(Router.self) })
        _ = screen.router
    },
    // Debug builds: a slow synchronous factory is reported once, by its own time (not the outer
    // factory that resolves it), also when validate()'s copy and an override copy make it again;
    // a slow Decorate of a fast one is neither that factory's time nor the outer one's.
    "slowFactoryIsReportedOnce": {
        let box = DIContainer()
        box.register {
            New { () -> Engine in
                usleep(150_000)  // the factory's work, not synchronization
                return Engine()
            }
            New { Thing() }
            Decorate(Thing.self) { thing, _ in
                usleep(150_000)  // the decorator's work
                return thing
            }
            New { resolve -> ViewModel in
                _ = resolve(Engine.self)
                _ = resolve(Thing.self)
                return ViewModel(id: "outer")
            }
        }
        _ = box.resolve(ViewModel.self)
        _ = box.resolve(ViewModel.self)
        _ = box.validate()
        box.withOverrides({}, operation: { _ = DIContainer.resolve(ViewModel.self) })
        didNotTrap()
    },
    // Debug builds: a slow eager() factory a fast factory's register call makes (a transaction of its
    // own, the resolution set aside) is its own time, not the fast factory's.
    // A wrapper that asks for a misspelt name traps with the fix validate() gives: the wrapper's name.
    "aWrapperAskingForAMisspeltNameTraps": {
        let box = DIContainer()
        box.register {
            Shared(WoodMisspeltShelf.init, as: MisspeltShelf.self).named("primary")
            New(MisspeltShelfScreen.init)
        }
        print(box.validate())
        announce(expected: nil)
        _ = box.resolve(MisspeltShelfScreen.self)
    },
    "slowEagerFactoryRegisteredInsideAFastOne": {
        let other = DIContainer()
        let box = DIContainer()
        box.register {
            New { () -> ViewModel in
                other.register {
                    Shared { () -> Engine in
                        usleep(150_000)  // the eager factory's work, not synchronization
                        return Engine()
                    }.eager()
                }
                return ViewModel(id: "fast")
            }
        }
        _ = box.resolve(ViewModel.self)
        didNotTrap()
    },
    // validate() called on the main thread, for a factory that waits for the main queue when it
    // runs anywhere else: it must neither deadlock nor report a false problem.
    "validateOnTheMainThreadOfAFactoryThatWaitsForTheMainQueue": {
        let box = DIContainer()
        registerAFactoryThatWaitsForTheMainQueueOffIt(in: box)
        print(box.validate())
        didNotTrap()
    },
    "mainActorHopWhileTheLockHolderWaitsForTheMainThread": {
        hopWhileTheLockHolderWaitsForTheMainThread(mainActorService: Module { New { @MainActor in ProfileModel() } })
    },
    // resolveAll off the main actor of a non-Sendable main-actor service (not hopped: it cannot leave the main actor).
    "resolveAllOfANonSendableMainActorServiceOffTheMainActor": {
        let box = DIContainer()
        box.register { Shared { @MainActor in ScreenState() } }
        DispatchQueue.global().async {
            announce(expected: thrown { try box.tryResolve(ScreenState.self) })
            _ = box.resolveAll(ScreenState.self)
            didNotTrap()
        }
        dispatchMain()
    },
    "mainActorFactoryOffTheMainActor": {
        let box = DIContainer()
        box.register { Shared { @MainActor in ScreenState() } }
        DispatchQueue.global().async {
            announce(expected: thrown { try box.tryResolve(ScreenState.self) })
            _ = box.resolve(ScreenState.self)
            didNotTrap()
        }
        dispatchMain()
    },
]

let arguments = CommandLine.arguments
let allScenarios = scenarios.merging(safeCoreScenarios) { first, _ in first }.merging(featureScenarios) { first, _ in
    first
}.merging(adversarialScenarios) { first, _ in first }.merging(validateScenarios) { first, _ in first }.merging(
    validateCapScenarios
) { first, _ in first }.merging(validateTrustScenarios) { first, _ in first }
guard arguments.count == 2, let scenario = allScenarios[arguments[1]] else {
    print("usage: TrapScenarios <scenario>; scenarios: \(allScenarios.keys.sorted().joined(separator: ", "))")
    exit(2)
}
scenario()
didNotTrap()
