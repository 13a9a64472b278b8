import DependencyInjection
import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// The checks' own harness (no test framework: the executables print every check). Built with
// default MainActor isolation: the counters are main-actor state; what runs off the main actor
// is `nonisolated`.

/// Counts passed checks, collects failed ones and the library's known issues.
public enum Checks {
    public private(set) static var passed = 0
    public private(set) static var failures: [String] = []
    /// What the library gets wrong today: each is printed (`KNOWN`) and listed in the summary;
    /// the run fails on them only with STRICT_KNOWN_ISSUES=1.
    public private(set) static var knownIssues: [String] = []

    public static func expect(_ condition: Bool, _ what: String) {
        if condition {
            passed += 1
            emit("ok    \(what)")
        } else {
            failures.append(what)
            emit("FAIL  \(what)")
        }
    }

    /// A check the library fails today; when it passes, the list of known issues needs updating.
    public static func expectKnownIssue(_ condition: Bool, _ what: String) {
        if condition {
            passed += 1
            emit("ok    \(what)  (listed as a known library issue, which now passes: update the checks)")
        } else {
            knownIssues.append(what)
            emit("KNOWN \(what)")
        }
    }

    public static func section(_ title: String) {
        emit("\n-- \(title)")
    }

    /// Writes a line to standard output at once (unbuffered), so that what the checks printed
    /// survives a trap that ends the process.
    public static func emit(_ line: String) {
        var text = line + "\n"
        text.withUTF8 { bytes in _ = write(1, bytes.baseAddress, bytes.count) }
    }

    /// Prints the summary line of `suite`; exits with status 1 if a check failed (or, with
    /// STRICT_KNOWN_ISSUES=1, if a known issue remains).
    public static func finish(_ suite: String) -> Never {
        emit(
            "\n\(suite): \(passed) checks passed, \(failures.count) failed, "
                + "\(knownIssues.count) known library issue(s)")
        for failure in failures { emit("  FAILED: \(failure)") }
        for issue in knownIssues { emit("  KNOWN LIBRARY ISSUE: \(issue)") }
        let strict = getenv("STRICT_KNOWN_ISSUES").map { String(cString: $0) } == "1"
        exit(failures.isEmpty && (!strict || knownIssues.isEmpty) ? 0 : 1)
    }
}

/// How a resolve (or any call to the library) ended.
nonisolated public enum Outcome: Sendable, Equatable, CustomStringConvertible {
    case resolved
    case failed(ResolutionError.Reason)
    case threw(String)
    /// The code meant to run off the main actor ran on it: the check itself is wrong.
    case ranOnMainActor

    public var description: String {
        switch self {
        case .resolved: "resolved"
        case .failed(let reason): "ResolutionError(\(reason))"
        case .threw(let error): "threw \(error)"
        case .ranOnMainActor: "ran on the main actor"
        }
    }

    /// Runs `body` here and says how it ended.
    public static func of(_ body: () throws -> Void) -> Outcome {
        do {
            try body()
            return .resolved
        } catch let error as ResolutionError {
            return .failed(error.reason)
        } catch {
            return .threw("\(error)")
        }
    }

    /// Runs `body` here and says how it ended, with what it returned.
    public static func value<Value>(of body: () throws -> Value) -> (Outcome, Value?) {
        var value: Value?
        let outcome = Outcome.of { value = try body() }
        return (outcome, value)
    }

    /// Runs `body` (async) here and says how it ended.
    public static func of(
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Void
    ) async -> Outcome {
        do {
            try await body()
            return .resolved
        } catch let error as ResolutionError {
            return .failed(error.reason)
        } catch {
            return .threw("\(error)")
        }
    }
}

/// Runs `body` synchronously in a detached task (never on the main actor).
nonisolated public func inDetachedTask(_ body: @escaping @Sendable () throws -> Void) async -> Outcome {
    await Task.detached { () -> Outcome in
        isOnMainQueue() ? .ranOnMainActor : Outcome.of(body)
    }.value
}

/// Runs `body` on a Dispatch worker thread (never the main actor), outside any task.
nonisolated public func onDispatchThread(_ body: @escaping @Sendable () throws -> Void) async -> Outcome {
    await withCheckedContinuation { continuation in
        DispatchQueue.global().async {
            continuation.resume(returning: isOnMainQueue() ? .ranOnMainActor : Outcome.of(body))
        }
    }
}

/// Runs `body` synchronously in a detached task (never on the main actor); returns how it ended
/// and what it returned.
nonisolated public func valueInDetachedTask<Value: Sendable>(
    _ body: @escaping @Sendable () throws -> Value
) async -> (Outcome, Value?) {
    await Task.detached { () -> (Outcome, Value?) in
        isOnMainQueue() ? (.ranOnMainActor, nil) : Outcome.value(of: body)
    }.value
}

/// Runs `body` on a Dispatch worker thread (never the main actor), outside any task; returns how
/// it ended and what it returned.
nonisolated public func valueOnDispatchThread<Value: Sendable>(
    _ body: @escaping @Sendable () throws -> Value
) async -> (Outcome, Value?) {
    await withCheckedContinuation { continuation in
        DispatchQueue.global().async {
            continuation.resume(returning: isOnMainQueue() ? (.ranOnMainActor, nil) : Outcome.value(of: body))
        }
    }
}

/// The message of the error `body` throws in a detached task (never on the main actor), or
/// "resolved" if it throws none.
nonisolated public func messageInDetachedTask(_ body: @escaping @Sendable () throws -> Void) async -> String {
    await Task.detached { () -> String in
        if isOnMainQueue() { return "ran on the main actor" }
        do {
            try body()
            return "resolved"
        } catch {
            return "\(error)".split(separator: "\n").joined(separator: " | ")
        }
    }.value
}

/// An instance a check got off the main actor, kept only so that the main actor can compare it
/// with `===` (and keep it alive meanwhile): nothing reads or writes its state.
nonisolated public struct Identity: @unchecked Sendable {
    // Unchecked: `object` is only compared by identity.
    public let object: AnyObject
    public init(_ object: AnyObject) { self.object = object }
}

/// Runs `body` (an async resolve) in a detached task; returns how it ended and what it made.
nonisolated public func asyncInDetachedTask<Value: Sendable>(
    _ body: @escaping @Sendable () async throws -> Value
) async -> (Outcome, Value?) {
    await Task.detached { () -> (Outcome, Value?) in
        if isOnMainQueue() { return (.ranOnMainActor, nil) }
        do {
            return (.resolved, try await body())
        } catch let error as ResolutionError {
            return (.failed(error.reason), nil)
        } catch {
            return (.threw("\(error)"), nil)
        }
    }.value
}

/// Whether this code runs on the main dispatch queue (where the main actor runs), without
/// trapping: the checks' own test, independent of the library's.
nonisolated public func isOnMainQueue() -> Bool {
    DispatchQueue.getSpecific(key: mainQueueMarker.key) == true
}

nonisolated private let mainQueueMarker = MainQueueMarker()

nonisolated private final class MainQueueMarker: Sendable {
    let key = DispatchSpecificKey<Bool>()
    init() { DispatchQueue.main.setSpecific(key: key, value: true) }
}

/// A thread-safe count.
nonisolated public final class Tally: @unchecked Sendable {
    // Unchecked: `value` is only read and written on `queue`.
    private let queue = DispatchQueue(label: "Tally")
    private var value = 0

    public init() {}

    public var count: Int { queue.sync { value } }

    public func add() { queue.sync { value += 1 } }
}

/// Thread-safe counts by name: how many instances of each service were made.
nonisolated public final class Tallies: @unchecked Sendable {
    // Unchecked: `counts` is only read and written on `queue`.
    private let queue = DispatchQueue(label: "Tallies")
    private var counts: [String: Int] = [:]

    public init() {}

    public func add(_ name: String) { queue.sync { counts[name, default: 0] += 1 } }

    public func count(_ name: String) -> Int { queue.sync { counts[name] ?? 0 } }

    public var total: Int { queue.sync { counts.values.reduce(0, +) } }
}
