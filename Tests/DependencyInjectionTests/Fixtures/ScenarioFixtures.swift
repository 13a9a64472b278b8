import DependencyInjection
import Foundation

// Shared by the scenario suites: scenarios for the core's transaction, release and
// locking rules, found by adversarial testing of the previous core.

/// A value that factories, `deinit`s and threads update, guarded by a lock of its own.
final class Guarded<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    var current: Value { withLock { $0 } }
}

extension Guarded where Value == Int {
    func increment() { withLock { $0 += 1 } }
}

extension Guarded where Value == [String] {
    func append(_ line: String) { withLock { $0.append(line) } }
}

/// The file at `path` as UTF-8 text; "" when it cannot be read. Read with the C library:
/// Foundation's `String(contentsOf:)` and `Data(contentsOf:)` on Linux leak their read buffers
/// (LeakSanitizer reports them in every AddressSanitizer run of the suite).
func readTextFile(_ path: String) -> String {
    guard let file = fopen(path, "rb") else { return "" }
    defer { fclose(file) }
    var (text, buffer) = ([UInt8](), [UInt8](repeating: 0, count: 4096))
    while case let count = fread(&buffer, 1, buffer.count, file), count > 0 { text += buffer[..<count] }
    return String(decoding: text, as: UTF8.self)
}

/// Runs `body` on a new thread with a stack of `stackSize` bytes and awaits it; `nil` when it has
/// not finished after `timeout` seconds (a hang), so the test fails instead of hanging.
///
/// The caller is suspended, not blocked: Swift Testing runs tests on the cooperative pool, a few
/// threads (two on a 2-core machine). Tests that block them while they wait for threads of their own
/// starve every other test's async work, a `validate()` checking on a global actor among it, which
/// then reports its check as not finished after 10 s.
func onThread<Result: Sendable>(
    stackSize: Int? = nil, timeout: TimeInterval = 30, _ body: @escaping @Sendable () -> Result
) async -> Result? {
    let waiting = Guarded<CheckedContinuation<Result?, Never>?>(nil)
    @Sendable func finish(_ result: Result?) {
        waiting.withLock { continuation in
            continuation?.resume(returning: result)
            continuation = nil
        }
    }
    return await withCheckedContinuation { continuation in
        waiting.withLock { $0 = continuation }
        let thread = Thread { finish(body()) }
        if let stackSize { thread.stackSize = stackSize }
        thread.start()
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { finish(nil) }
    }
}

/// The error `body` threw, as a ``ResolutionError``; `nil` when it threw nothing (or another error).
func resolutionError(_ body: () throws -> Void) -> ResolutionError? {
    do {
        try body()
        return nil
    } catch {
        return error as? ResolutionError
    }
}

/// Whether this process runs under AddressSanitizer (the CI sanitizer step sets ASAN_OPTIONS).
/// ASan keeps a frame's locals on a fake stack of its own, so the library cannot measure the stack
/// left there, and its instrumented frames are several times larger: resolutions hundreds of steps
/// deep overflow before the 1,000-step limit. Those tests run in every other build.
let runsUnderAddressSanitizer = ProcessInfo.processInfo.environment["ASAN_OPTIONS"] != nil

/// Whether this process runs under ThreadSanitizer (the CI sanitizer step sets TSAN_OPTIONS). Its
/// instrumented debug frames are about three times larger: one resolution step takes some 14 KiB,
/// so the first eight steps, which the library does not measure (see `DIContainer.run`), fill a
/// 128 KiB stack. Small-stack tests give such a thread three times the stack there.
let runsUnderThreadSanitizer = ProcessInfo.processInfo.environment["TSAN_OPTIONS"] != nil

/// `size`, or three times it under ThreadSanitizer (see `runsUnderThreadSanitizer`).
func smallStack(_ size: Int) -> Int { runsUnderThreadSanitizer ? 3 * size : size }

/// Records, in each `deinit`, whether another thread could resolve then (not while the lock is held).
final class DeinitLockProbe: Sendable {
    let log: Guarded<[Bool]>
    init(_ log: Guarded<[Bool]>) { self.log = log }
    deinit {
        let probe = DIContainer()
        probe.register { Shared(Engine()) }
        let free = anotherThreadCanResolve(from: probe)
        log.withLock { $0.append(free) }
    }
}

/// Whether another thread could resolve from `box` while this code runs (it cannot while this
/// thread holds the library's lock): waits at most two seconds.
func anotherThreadCanResolve(from box: DIContainer) -> Bool {
    let done = DispatchSemaphore(value: 0)
    Thread {
        _ = box.resolve(Engine.self)
        done.signal()
    }.start()
    return done.wait(timeout: .now() + 2) == .success
}
