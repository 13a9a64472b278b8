// Adversarial scenarios for the main-actor hop (see `IsolationEdgeCaseTests`): each prints what
// it saw, then `did-not-trap`; a hang is terminated by the test and fails there.

import DependencyInjection
import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Made on the main actor only (a `@MainActor` class is `Sendable`).
@MainActor final class MainOnlyService {
    nonisolated(unsafe) static var made = 0
    init() { Self.made += 1 }
}

struct Refusal: Error {}

/// Runs `body` on a thread that is not the main actor, while the main queue runs.
private func offTheMainActor(_ body: @escaping @Sendable () -> Void) -> Never {
    DispatchQueue.global().async {
        body()
        didNotTrap()
    }
    dispatchMain()
}

var adversarialScenarios: [String: () -> Void] {
    [
        // Many threads resolve one main-actor Shared service for the first time at once: each hops,
        // and exactly one instance is made, on the main actor.
        "adversarialHopSharedUnderContention": {
            let box = DIContainer()
            box.register { Shared { @MainActor in MainOnlyService() } }
            offTheMainActor {
                let seen = Locked2<[ObjectIdentifier]>([])
                DispatchQueue.concurrentPerform(iterations: 16) { _ in
                    let service = box.resolve(MainOnlyService.self)
                    seen.with { $0.append(ObjectIdentifier(service)) }
                }
                let ids = seen.with { $0 }
                print("made \(MainOnlyService.made) distinct \(Set(ids).count) resolves \(ids.count)")
            }
        },
        // A hop whose main-actor factory throws: the caller gets the error, and a later hop works.
        "adversarialHopWhoseFactoryThrows": {
            let box = DIContainer()
            nonisolated(unsafe) var fails = true
            box.register {
                Shared { @MainActor () throws -> MainOnlyService in
                    if fails { throw Refusal() }
                    return MainOnlyService()
                }
            }
            offTheMainActor {
                let first = thrown { try box.tryResolve(MainOnlyService.self) }
                print("first \(first.map { "\($0.reason)" } ?? "none")")
                fails = false
                let second = thrown { try box.tryResolve(MainOnlyService.self) }
                print("second \(second.map { "\($0.reason)" } ?? "none")")
            }
        },
        // resolveAll of a main-actor Sendable service off the main actor, as resolve does: made on
        // the main actor for the caller.
        "adversarialHopForResolveAll": {
            let box = DIContainer()
            box.register { Shared { @MainActor in MainOnlyService() } }
            offTheMainActor {
                print("resolveAll \(box.resolveAll(MainOnlyService.self).count)")
            }
        },
        // Main-queue work, which `dispatchMain()` runs on a worker thread, resolves a main-actor
        // Sendable service inside a serial queue's `sync`: it must not wait for the main queue that
        // its own thread is holding.
        "adversarialHopFromTheMainQueueOnAWorkerInsideASerialQueueSync": {
            let box = DIContainer()
            box.register { New { @MainActor in MainOnlyService() } }
            DispatchQueue.main.async {
                let serial = DispatchQueue(label: "serial")
                let error = serial.sync { thrown { try box.tryResolve(MainOnlyService.self) } }
                print("inside sync: \(error.map { "\($0.reason)" } ?? "made")")
                didNotTrap()
            }
            dispatchMain()
        },
        // The same on the process's main thread, which Swift counts as the main actor wherever it
        // runs (its runtime's `MainActor.assumeIsolated` passes there): made there, inline.
        "adversarialMainThreadInsideASerialQueueSync": {
            let box = DIContainer()
            box.register { New { @MainActor in MainOnlyService() } }
            let error = DispatchQueue(label: "serial").sync { thrown { try box.tryResolve(MainOnlyService.self) } }
            print("inside sync: \(error.map { "\($0.reason)" } ?? "made") \(MainOnlyService.made)")
            didNotTrap()
        },
        // A deinit that runs once a resolve let go of the lock, off the main actor, resolves a
        // main-actor Sendable service: it hops like any top-level resolve.
        "adversarialHopFromADeinit": {
            let box = DIContainer()
            box.register {
                New { @MainActor in MainOnlyService() }
                Graph {
                    DeinitProbe {
                        _ = box.resolve(MainOnlyService.self)
                        print("deinit resolved")
                    }
                }
                New { resolve -> DeinitUser in
                    _ = resolve(DeinitProbe.self)
                    return DeinitUser()
                }
            }
            offTheMainActor { _ = box.resolve(DeinitUser.self) }
        },
    ]
}

final class DeinitProbe {
    let onDeinit: () -> Void
    init(onDeinit: @escaping () -> Void) { self.onDeinit = onDeinit }
    deinit { onDeinit() }
}

final class DeinitUser {}

final class Locked2<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = DispatchQueue(label: "locked2")
    init(_ value: Value) { self.value = value }
    func with<R>(_ body: (inout Value) -> R) -> R { lock.sync { body(&value) } }
}
