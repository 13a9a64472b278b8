// A reference that does not retain its object, for the resolution in progress.
//
// Invariant: one is made only for an object that the code making it keeps alive for as long as
// the value exists. A frame of the resolution in progress is pushed by a method of its container
// (`run`, whose caller holds the entry) and popped before that method returns, so its container
// and entry are alive while it is on the stack; `resolveBox` makes one for a container its caller
// passes (alive until it returns) or for `DIContainer.shared` (never released).
//
// The number it buys (callgrind, perf5 in Benchmarks/History.md): app launch's resolves 5,413 ->
// 4,915 instructions per service, a chain of three 6,384 -> 6,118 and a resolve through a
// container instance 1,006 -> 831. A container has weak references to it, so the runtime gives it
// a side table and every retain or release of it takes the slow path.

/// An object reached without retaining it: a container or an entry of the resolution in progress.
struct Unretained<Object: AnyObject> {
    private let object: Unmanaged<Object>

    init(_ object: Object) { self.object = .passUnretained(object) }

    /// Runs `body` with the object (a reference it returns is retained, as any other).
    func with<R>(_ body: (Object) -> R) -> R { object._withUnsafeGuaranteedRef(body) }
}
