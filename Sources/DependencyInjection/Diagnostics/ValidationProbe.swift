import Dispatch

/// Resolves registrations of a throwaway container on a thread of its own, for `validate()`.
///
/// A non-throwing factory whose nested `resolve()` fails cannot be unwound: Swift has no way
/// out of it but a trap. On a probe thread, ``DIContainer/fail(_:)`` calls
/// ``parkAfterFailure(_:)`` instead: the failure is reported, the resolution in progress is
/// taken back (nothing half-made is kept), the lock is released, and the thread parks for good.
/// The validator then goes on with a new copy on a new thread. No instance is ever fabricated;
/// the cost is one parked thread per such failure.
final class ValidationProbe: @unchecked Sendable {
    // Unchecked: `failures` is read and written only with `Resolution.lock` held.
    private let container: DIContainer
    /// The keys of each registration to probe: its own and those of its aliases.
    private let groups: [[Key]]
    /// For each group probed, in order: its first failure, or `nil`.
    private var failures: [ResolutionError?] = []
    private let finished = DispatchSemaphore(value: 0)

    init(container: DIContainer, groups: [[Key]]) {
        self.container = container
        self.groups = groups
    }

    /// Probes the groups in order on a new thread; returns one result per group probed (a parked
    /// probe's last result is its failure, and the groups after it are not probed).
    func run() -> [ResolutionError?] {
        DispatchQueue(label: "DependencyInjection.validate").async { self.probeAll() }
        finished.wait()
        return Resolution.lock.withLock { failures }
    }

    private func probeAll() {
        for keys in groups {
            Resolution.lock.withLock {
                Resolution.state.probe = self
                defer { Resolution.state.probe = nil }
                do throws(ResolutionError) {
                    for key in keys { _ = try container.provideHere(key) }
                    failures.append(nil)
                } catch {
                    failures.append(error)
                }
            }
        }
        finished.signal()
    }

    /// Reports `error` as the outcome of the key being probed and never returns. Called on the
    /// probe thread, which holds the lock in the middle of a resolution it will not return to.
    func parkAfterFailure(_ error: ResolutionError) -> Never {
        failures.append(error)
        for frame in Resolution.state.frames { frame.entry?.value.isMaking = false }
        Resolution.state.frames = []
        Resolution.state.probe = nil
        // Registrations the resolution was installing, eager ones included, are taken back too.
        let installed = Resolution.state.installing.reversed().map { installing in
            defer { installing.container.registry.value = installing.registry }
            return installing.container.registry.value
        }
        Resolution.state.installing = []
        let dropped = container.rollBack(to: nil)
        (Resolution.state.isResolving, Resolution.state.origin) = (false, nil)
        Resolution.lock.releaseAfterUnlock((installed, dropped))
        Resolution.lock.unlockCompletely()
        finished.signal()
        let never = DispatchSemaphore(value: 0)
        while true { never.wait() }
    }
}
