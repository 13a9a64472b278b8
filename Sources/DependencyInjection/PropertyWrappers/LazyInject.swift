/// Resolves a dependency on first access, exactly once even when many threads access it first.
///
///     final class Screen {
///         @LazyInject var config: AppConfiguration
///     }
///
/// It resolves from the container that was ``DIContainer/current`` when the enclosing object
/// was initialized (so an object made inside `activate` or `withOverrides` keeps using that
/// container), or from the current one if that container no longer exists.
@propertyWrapper
public struct LazyInject<Value> {
    let storage: LazyStorage<Value>

    /// Resolves the registration of `Value` with `name` (`nil`: the unnamed one) on first access.
    public init(name: String? = nil) {
        storage = LazyStorage(name: name)
    }

    /// The dependency, resolved on first access.
    public var wrappedValue: Value {
        storage.value
    }
}

extension LazyInject: Sendable where Value: Sendable {}

/// Like ``LazyInject``, but settable: a value set before the first access means nothing is resolved.
///
///     final class Screen {
///         @MutableLazyInject var cache: Cache
///     }
@propertyWrapper
public struct MutableLazyInject<Value> {
    let storage: LazyStorage<Value>

    /// Resolves the registration of `Value` with `name` (`nil`: the unnamed one) on first access.
    public init(name: String? = nil) {
        storage = LazyStorage(name: name)
    }

    /// The dependency, resolved on first access unless a value was set before.
    public var wrappedValue: Value {
        get { storage.value }
        nonmutating set { storage.value = newValue }
    }
}

extension MutableLazyInject: Sendable where Value: Sendable {}

/// The once-only storage behind the lazy wrappers.
///
/// `resolved` is read and written only while `queue` is held: the queue of the container that
/// was current at initialization, the same (reentrant) lock its resolution takes, so the first
/// resolution happens exactly once and a factory may access lazy properties without lock-order
/// deadlocks. The queue is kept even if that container is released (it references nothing).
final class LazyStorage<Value>: @unchecked Sendable {
    // Weak: an instance the container keeps must not keep the container alive through this.
    private weak var container: DIContainer?
    private let queue: ReentrantQueue
    private let name: String?
    private var resolved: Value?

    init(name: String?) {
        let container = DIContainer.current
        self.container = container
        self.queue = container.queue
        self.name = name
    }

    var value: Value {
        get {
            let kept = queue.sync { () -> Value? in
                if let resolved { return resolved }
                guard let container else { return nil }
                let value = container.resolve(Value.self, name: name)
                resolved = value
                return value
            }
            if let kept { return kept }
            // The container is gone: resolve from the current one without holding the old queue
            // (holding it while taking another container's lock could invert the lock order),
            // then keep whichever value was stored first.
            let value = DIContainer.current.resolve(Value.self, name: name)
            return queue.sync {
                if let resolved { return resolved }
                resolved = value
                return value
            }
        }
        set {
            queue.sync { resolved = newValue }
        }
    }
}
