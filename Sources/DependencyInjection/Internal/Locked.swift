// State that only the thread holding `Resolution.lock` reads or writes, in a class whose stored
// `var` skips Swift's run-time exclusivity check in release builds.
//
// Invariant (every use keeps both):
// 1. `value` is read and written only with `Resolution.lock` held, so accesses from two threads
//    never overlap (the lock's acquire and release order them).
// 2. On the holding thread, no access is open while user code runs: each is one read, one write
//    or one in-place mutation of a standard collection, and a value that a write replaces or
//    removes is handed back to the caller and released after the access ends (a `deinit` may
//    resolve, and so access `value` again).
// Debug builds (and so the test suite, sanitizers included) keep Swift's run-time check, which
// traps on any access that breaks the second; `.ci/steps/release.sh` runs the suite without it.
//
// The number it buys (callgrind): about 1,000 of the 4,800 instructions a cached `Shared`
// resolve took, the thread-local access-set bookkeeping of the check. `LockedEntryState` and
// `LockedRegistry` are the same class for the two states every launch makes, non-generic: 40
// instructions fewer per service of app launch (perf5 in Benchmarks/History.md), as a generic
// class's metadata (and a subclass's of it) is made at run time, the first time a process uses it.

/// Mutable state that only the thread holding ``Resolution/lock`` reads or writes.
@usableFromInline
class Locked<Value>: @unchecked Sendable {
    // Unchecked, and sound, by the invariants above.
    #if DEBUG
        final var value: Value
    #else
        @exclusivity(unchecked) final var value: Value
    #endif

    init(_ value: Value) { self.value = value }
}

/// ``Locked`` for an entry's state (see the invariants above).
@usableFromInline
class LockedEntryState: @unchecked Sendable {
    #if DEBUG
        final var state: Entry.State
    #else
        @exclusivity(unchecked) final var state: Entry.State
    #endif

    init(_ state: Entry.State) { self.state = state }
}

/// ``Locked`` for a container's registry (see the invariants above).
final class LockedRegistry: @unchecked Sendable {
    #if DEBUG
        final var value: DIContainer.Registry
    #else
        @exclusivity(unchecked) final var value: DIContainer.Registry
    #endif

    init(_ value: DIContainer.Registry) { self.value = value }
}
