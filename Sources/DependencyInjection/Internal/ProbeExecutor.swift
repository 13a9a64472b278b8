// The task executor `validate()`'s async checks prefer: it runs each job on a new thread of the
// library's own (a task runs one job at a time; a default actor's code runs on its task's
// preferred executor too), so a check whose non-throwing `resolve()` fails can park that thread
// for good without taking one of the cooperative pool's (see docs/Design.md, "validate()").
//
// Invariant: `enqueue` turns each `ExecutorJob` into an `UnownedJob` and runs it exactly once, on a
// new thread: the closure given to `DetachedThread.start` owns it, and a failed `pthread_create`
// traps, so no job is dropped or run twice. The `UnownedTaskExecutor` a job runs on, and the one
// `isPreferredByCurrentTask` compares with, is `shared`'s, a `static let` never released.
// `isPreferredByCurrentTask` uses the task handle `withUnsafeCurrentTask` gives only inside its
// closure, to read a value.
//
// The number it buys: a failing check's thread parks without ever stalling the cooperative pool
// (with two parked pool threads on a 2-core machine, nothing async in the process ran again).

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class ProbeExecutor: TaskExecutor {
    static let shared = ProbeExecutor()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        DetachedThread.start { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }

    /// Whether the current task prefers this executor: a check's own task, or a child of it (a
    /// `Task {}` its factory started, or one preferring another executor, does not).
    static var isPreferredByCurrentTask: Bool {
        withUnsafeCurrentTask { $0?.unownedTaskExecutor } == shared.asUnownedTaskExecutor()
    }
}
