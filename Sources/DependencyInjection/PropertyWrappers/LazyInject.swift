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
/// `resolved` is read and written only while the container's queue is held: one lock orders
/// both the first resolution and every later read, and because it is the same (reentrant) lock
/// that resolution takes, a factory may access lazy properties without lock-order deadlocks.
final class LazyStorage<Value>: @unchecked Sendable {
    // Weak: an instance the container keeps must not keep the container alive through this.
    private weak var container: DIContainer?
    private let name: String?
    private var resolved: Value?

    init(name: String?) {
        self.container = DIContainer.current
        self.name = name
    }

    var value: Value {
        get {
            let container = self.container ?? DIContainer.current
            return container.queue.sync {
                if let resolved { return resolved }
                let value = container.resolve(Value.self, name: name)
                resolved = value
                return value
            }
        }
        set {
            let container = self.container ?? DIContainer.current
            container.queue.sync { resolved = newValue }
        }
    }
}
