// Trap scenarios of the core (run by `TrapScenarioTests`); the protocol
// is the one main.swift describes.

import DependencyInjection
import Dispatch
import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Keeps the resolver its factory received, to resolve later.
private final class LateBinder {
    let resolve: Resolver
    init(resolve: Resolver) { self.resolve = resolve }
}

private final class Link {
    let next: Link?
    init(next: Link?) { self.next = next }

    var length: Int {
        var count = 1
        var link = next
        while let current = link {
            count += 1
            link = current.next
        }
        return count
    }
}

/// Links named "0" to "count - 1", each resolving the next (with `tryResolve` when `throwing`);
/// the last one ends the chain, or resolves "0" when `cycle`.
private func chain(of count: Int, throwing: Bool, cycle: Bool = false) -> DIContainer {
    let box = DIContainer()
    box.register {
        for index in 0..<count {
            let next = "\((index + 1) % count)"
            if index == count - 1 && !cycle {
                New { _ in Link(next: nil) }.named("\(index)")
            } else if throwing {
                New { resolve in try Link(next: resolve.tryResolve(Link.self, name: next)) }.named("\(index)")
            } else {
                New { resolve in Link(next: resolve(Link.self, name: next)) }.named("\(index)")
            }
        }
    }
    return box
}

/// Collects failed checks; prints `checks-passed` or what failed.
private final class Checks {
    private var failures: [String] = []

    func check(_ condition: Bool, _ what: String) {
        if !condition { failures.append(what) }
    }

    func report() {
        print(failures.isEmpty ? "checks-passed" : "failed: \(failures.joined(separator: "; "))")
    }
}

private final class Fresh {}

/// An instance whose `deinit` resolves from its container, recording what it got.
private final class DeinitResolver {
    weak var container: DIContainer?
    let record: (String) -> Void

    init(container: DIContainer, record: @escaping (String) -> Void) {
        self.container = container
        self.record = record
    }

    deinit {
        record("deinit")
        guard let container else { return }
        do {
            _ = try container.tryResolve(Fresh.self)
            record("resolved")
        } catch {
            record("\((error as? ResolutionError)?.reason ?? .factoryFailed)")
        }
    }
}

/// What the `deinit`s of a scenario did, in order.
private final class Events {
    var list: [String] = []
    func record(_ event: String) { list.append(event) }
}

/// A `Shared` instance made by a resolution of `first` whose registration in `second` is removed
/// (by `remove`) while that resolution still runs: it is released once, and its `deinit` may
/// resolve. The resolution's own list of what it made must not be the last owner of the
/// registration released in the middle of an update of that list.
private func checkReleaseOfInstanceWhoseEntryIsRemoved(
    expecting expected: [String], _ remove: @escaping (DIContainer, Events) -> Void
) {
    let checks = Checks()
    let events = Events()
    let first = DIContainer()
    let second = DIContainer()
    second.register {
        Shared { [unowned second] _ in DeinitResolver(container: second, record: events.record) }
        New { _ in Fresh() }
    }
    first.register {
        New { _ -> Fresh in
            _ = second.resolve(DeinitResolver.self)
            remove(second, events)
            return Fresh()
        }
    }
    _ = first.resolve(Fresh.self)
    checks.check(events.list == expected, "events \(events.list), expected \(expected)")
    checks.report()
}

/// Runs the scenario's body on a thread with a 512 KiB stack; the process ends there.
private enum SmallStackThread {
    nonisolated(unsafe) static var body: () -> Void = {}

    static func run(_ body: @escaping () -> Void) -> Never {
        self.body = body
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setstacksize(&attributes, 512 * 1024)
        #if canImport(Darwin)
            var thread: pthread_t?
        #else
            var thread = pthread_t()
        #endif
        let status = pthread_create(
            &thread, &attributes,
            { _ in
                SmallStackThread.body()
                didNotTrap()
            }, nil)
        precondition(status == 0, "pthread_create failed: \(status)")
        let never = DispatchSemaphore(value: 0)
        while true { never.wait() }
    }
}

/// A service whose nonisolated factory waits for the main thread while it holds the library's lock.
final class WaitsForTheMainThread: Sendable {
    init() {}
}

/// Registered here, in nonisolated code: its factory runs on the thread that resolves it.
func mainThreadWaitingModule(inside: DispatchSemaphore) -> Module {
    Module {
        New { () -> WaitsForTheMainThread in
            inside.signal()
            DispatchQueue.main.sync {}
            return WaitsForTheMainThread()
        }
    }
}

/// Rounds of: one thread resolves a service whose factory waits for the main thread (holding the
/// lock), while another resolves a Sendable main-actor service, which is made on the main actor for
/// it. The main thread must never wait for the lock, or the first thread's wait never ends.
func hopWhileTheLockHolderWaitsForTheMainThread(mainActorService: Module) {
    let box = DIContainer()
    let inside = DispatchSemaphore(value: 0)
    box.register(mainActorService)
    box.register(mainThreadWaitingModule(inside: inside))
    DispatchQueue.global().async {
        for _ in 0..<20 {
            let round = DispatchGroup()
            DispatchQueue.global().async(group: round) { _ = box.resolve(WaitsForTheMainThread.self) }
            DispatchQueue.global().async(group: round) {
                inside.wait()
                _ = box.resolve(ProfileModel.self)
            }
            round.wait()
        }
        announce(expected: nil)
        didNotTrap()
    }
    dispatchMain()
}

var safeCoreScenarios: [String: () -> Void] {
    [
        // The resolver is kept by the instance its factory made, which outlives the container; even
        // `tryResolve` traps (a programming error, not a resolution failure).
        "resolverKeptByAnInstanceAfterContainerIsGone": {
            var binder: LateBinder?
            do {
                let box = DIContainer()
                box.register { Shared { resolve in LateBinder(resolve: resolve) } }
                binder = box.resolve(LateBinder.self)
                _ = try? binder?.resolve.tryResolve(LateBinder.self)
            }
            announce(expected: nil)
            _ = try? binder?.resolve.tryResolve(LateBinder.self)
        },
        // A chain of 1,000 plain factories on a 512 KiB stack: the trap says it is too deep (the same
        // message tryResolve gives for the throwing twin), it does not overflow the stack.
        "deepChainOfPlainFactoriesOnASmallStack": {
            SmallStackThread.run {
                announce(expected: thrown { try chain(of: 1_000, throwing: true).tryResolve(Link.self, name: "0") })
                _ = chain(of: 1_000, throwing: false).resolve(Link.self, name: "0")
            }
        },
        "unregisterInsideFactory": {
            let box = DIContainer()
            box.register {
                Shared { _ -> Fresh in
                    _ = DIContainer.unregister(Fresh.self)
                    return Fresh()
                }
            }
            announce(expected: nil)
            _ = box.resolve(Fresh.self)
        },
        // The running container is refused even when the call comes from another container's
        // factory further down the same resolution.
        "resetOfARunningContainerFromAnotherContainersFactory": {
            let outer = DIContainer()
            let inner = DIContainer()
            outer.register {
                New { _ -> Fresh in
                    _ = inner.resolve(LateBinder.self)
                    return Fresh()
                }
            }
            inner.register {
                New { resolve -> LateBinder in
                    outer.reset()
                    return LateBinder(resolve: resolve)
                }
            }
            announce(expected: nil)
            _ = outer.resolve(Fresh.self)
        },
        // resolveAll whose second element fails: the first, made already, is released after the
        // lock (its deinit finds another thread can resolve), then the call traps.
        "resolveAllReleasesWhatItMadeAfterTheLockWhenOneFails": {
            let box = DIContainer()
            box.register {
                Shared(Engine())
                New { ReleaseReporter(box) as Reporting }.named("first")
                Shared { _ throws -> Reporting in throw ScenarioFailure() }.named("second")
            }
            announce(expected: nil)
            _ = box.resolveAll(Reporting.self)
        },
        "resetInsideOnResolve": {
            let box = DIContainer()
            box.register { Shared(Fresh()).onResolve { _, _ in box.reset() } }
            announce(expected: nil)
            _ = box.resolve(Fresh.self)
        },
        "chainOf150OnASmallStack": {
            SmallStackThread.run {
                // 150 steps fit in 512 KiB in a release build; in a debug build a step takes
                // more stack, and the chain is reported as too deep instead. Never a crash.
                let checks = Checks()
                do {
                    let length = try chain(of: 150, throwing: true).tryResolve(Link.self, name: "0").length
                    checks.check(length == 150, "tryResolve length \(length)")
                } catch let error as ResolutionError {
                    let isTooDeep = if case .tooDeep = error.reason { true } else { false }
                    checks.check(isTooDeep, "\(error)")
                } catch {
                    checks.check(false, "\(error)")
                }
                checks.report()
            }
        },
        "deepChainAndCycleOfThrowingFactoriesOnASmallStack": {
            SmallStackThread.run {
                let checks = Checks()
                for cycle in [false, true] {
                    let error = thrown {
                        try chain(of: 1_000, throwing: true, cycle: cycle).tryResolve(Link.self, name: "0")
                    }
                    let isTooDeep = if case .tooDeep = error?.reason { true } else { false }
                    checks.check(isTooDeep, "cycle \(cycle): \(String(describing: error))")
                }
                checks.report()
            }
        },
        "instanceWhoseEntryIsUnregisteredDuringTheResolution": {
            checkReleaseOfInstanceWhoseEntryIsRemoved(expecting: ["deinit", "resolved"]) { second, _ in
                _ = second.unregister(DeinitResolver.self)
            }
        },
        "instanceWhoseEntryIsReplacedDuringTheResolution": {
            checkReleaseOfInstanceWhoseEntryIsRemoved(expecting: ["deinit", "resolved"]) { second, events in
                second.register {
                    Shared { [unowned second] _ in DeinitResolver(container: second, record: events.record) }
                }
            }
        },
        "instanceWhoseContainerIsResetDuringTheResolution": {
            checkReleaseOfInstanceWhoseEntryIsRemoved(expecting: ["deinit", "missingRegistration"]) { second, _ in
                second.reset()
            }
        },
    ]
}

/// Written in nonisolated code: a factory that, off the main thread, waits for the main queue.
func registerAFactoryThatWaitsForTheMainQueueOffIt(in box: DIContainer) {
    box.register {
        Shared { () -> WaitsForTheMainThread in
            if Thread.isMainThread { return WaitsForTheMainThread() }
            return DispatchQueue.main.sync { WaitsForTheMainThread() }
        }
    }
}

protocol Reporting: AnyObject {}
struct ScenarioFailure: Error {}

/// Reports on stderr (unbuffered: the process then traps) whether another thread could resolve
/// from `box` while it was released: `released-after-the-lock`, or `released-under-the-lock`.
final class ReleaseReporter: Reporting {
    let box: DIContainer
    init(_ box: DIContainer) { self.box = box }
    deinit {
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async { [box] in
            _ = box.resolve(Engine.self)
            done.signal()
        }
        let free = done.wait(timeout: .now() + 2) == .success
        let line = free ? "released-after-the-lock\n" : "released-under-the-lock\n"
        _ = line.utf8CString.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, line.utf8.count) }
    }
}
