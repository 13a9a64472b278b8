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
    // Unchecked: `outcomes` is read and written only with `Resolution.lock` held.
    enum Outcome {
        case resolved
        case failed(ResolutionError)
    }

    private let container: DIContainer
    private let keys: [Key]
    private var outcomes: [Outcome] = []
    private let finished = DispatchSemaphore(value: 0)

    init(container: DIContainer, keys: [Key]) {
        self.container = container
        self.keys = keys
    }

    /// Probes the keys in order on a new thread; returns one outcome per key probed (a parked
    /// probe's last outcome is its failure, and the keys after it are not probed).
    func run() -> [Outcome] {
        DispatchQueue(label: "DependencyInjection.validate").async { self.probeAll() }
        finished.wait()
        return Resolution.lock.withLock { outcomes }
    }

    private func probeAll() {
        for key in keys {
            Resolution.lock.withLock {
                Resolution.state.probe = self
                defer { Resolution.state.probe = nil }
                do throws(ResolutionError) {
                    _ = try container.withResolutionScope { () throws(ResolutionError) in
                        try container.provideValue(key)
                    }
                    outcomes.append(.resolved)
                } catch {
                    outcomes.append(.failed(error))
                }
            }
        }
        finished.signal()
    }

    /// Reports `error` as the outcome of the key being probed and never returns. Called on the
    /// probe thread, which holds the lock in the middle of a resolution it will not return to.
    func parkAfterFailure(_ error: ResolutionError) -> Never {
        outcomes.append(.failed(error))
        let frames = Resolution.state.frames
        for frame in frames { frame.entry?.value.isMaking = false }
        Resolution.state.frames = []
        Resolution.state.probe = nil
        container.abandonResolution()
        Resolution.lock.unlockCompletely()
        finished.signal()
        let never = DispatchSemaphore(value: 0)
        while true { never.wait() }
    }
}
