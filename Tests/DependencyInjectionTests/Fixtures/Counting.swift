import Foundation

/// A thread-safe count of how often something happened (a factory ran, an instance was made).
final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func increment() {
        lock.withLock { count += 1 }
    }

    var value: Int { lock.withLock { count } }
}

/// A thread-safe collection of the distinct objects seen, by identity.
final class IdentitySet: @unchecked Sendable {
    private let lock = NSLock()
    private var identities: Set<ObjectIdentifier> = []
    private var objects: [AnyObject] = []

    func insert(_ object: AnyObject) {
        lock.withLock {
            if identities.insert(ObjectIdentifier(object)).inserted { objects.append(object) }
        }
    }

    var count: Int { lock.withLock { identities.count } }
}

/// A class whose every instance counts itself.
final class Counted {
    init(_ counter: Tally) { counter.increment() }
}
