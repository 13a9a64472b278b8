import DependencyInjection
import Foundation
import Testing

/// Counts calls (of a factory, usually) from any thread.
final class FactoryCallCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    init() {}

    /// Records one call and returns how many there have been, this one included.
    @discardableResult
    func increment() -> Int {
        lock.withLock {
            count += 1
            return count
        }
    }

    var value: Int { lock.withLock { count } }
}

/// Collects values from any thread.
final class ConcurrentCollector<Element>: @unchecked Sendable {
    private let lock = NSLock()
    private var elements: [Element] = []

    init() {}

    func append(_ element: Element) {
        lock.withLock { elements.append(element) }
    }

    var all: [Element] { lock.withLock { elements } }
}

/// The ``ResolutionError`` that `body` throws; records an issue when it returns or throws another error.
func resolutionError<T>(
    sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> T
) -> ResolutionError? {
    do {
        let value = try body()
        Issue.record("expected a ResolutionError, got \(value)", sourceLocation: sourceLocation)
    } catch let error as ResolutionError {
        return error
    } catch {
        Issue.record("expected a ResolutionError, got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}
