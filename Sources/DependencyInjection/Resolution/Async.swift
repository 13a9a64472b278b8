/// An async factory's run in progress: later async resolves of the same entry wait for it.
final class AsyncMaking: @unchecked Sendable {
    // Unchecked: `waiters` is read and written only with `Resolution.lock` held.
    var waiters: [CheckedContinuation<Void, Never>] = []
}
