/// Resolves a dependency on first access, exactly once even when many threads access it first.
///
///     final class Screen {
///         @LazyInject var config: AppConfiguration
///     }
///     screen.$config.isResolved   // false until `config` is first read
///
/// It resolves from the container that was ``DIContainer/current`` when the enclosing object
/// was initialized (so an object made inside `activate` or `withOverrides` keeps using that
/// container), or from the current one if that container no longer exists.
@propertyWrapper
public struct LazyInject<Value> {
    let storage: LazyStorage<Value>

    /// Resolves the registration of `Value` with `name` (`nil`: the unnamed one) on first access;
    /// a failure traps naming the property's declaration (`file`, `line`).
    public init(name: String? = nil, file: StaticString = #fileID, line: UInt = #line) {
        let container = DIContainer.currentForLazy(Value.self, name: name, file: file, line: line)
        storage = LazyStorage(container: container, name: name, file: file, line: line)
    }

    /// The dependency, resolved on first access.
    public var wrappedValue: Value { storage.value }

    /// What `$property` gives: whether it resolved yet, and resolving again.
    public var projectedValue: LazyInjection<Value> { LazyInjection(storage: storage) }
}

extension LazyInject: Sendable where Value: Sendable {}

/// Like ``LazyInject``, but settable: a value set before the first access means nothing is resolved.
///
///     struct Screen {
///         @MutableLazyInject var cache: Cache
///     }
///     var screen = Screen()
///     screen.cache = MemoryCache()
///
/// A value type: setting needs a `var`, and a copy that is set is independent of the others.
/// Copies made before the first access share that first resolution.
@propertyWrapper
public struct MutableLazyInject<Value> {
    private var storage: LazyStorage<Value>

    /// Resolves the registration of `Value` with `name` (`nil`: the unnamed one) on first access;
    /// a failure traps naming the property's declaration (`file`, `line`).
    public init(name: String? = nil, file: StaticString = #fileID, line: UInt = #line) {
        storage = LazyStorage(container: .current, name: name, file: file, line: line)
    }

    /// The dependency, resolved on first access unless a value was set before.
    public var wrappedValue: Value {
        get { storage.value }
        set {
            // Copy on write: copies of the enclosing value stay independent.
            if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
            storage.store(newValue)
        }
    }

    /// What `$property` gives: whether it resolved (or was set) yet, and resolving again.
    public var projectedValue: LazyInjection<Value> { LazyInjection(storage: storage) }
}

extension MutableLazyInject: Sendable where Value: Sendable {}

/// The projected value of ``LazyInject`` and ``MutableLazyInject``: `$config`.
///
///     if screen.$config.isResolved { … }
///     screen.$config.resolvedOrNil      // the value, without resolving it
///     screen.$config.reset()            // the next access resolves again
public struct LazyInjection<Value> {
    let storage: LazyStorage<Value>

    /// Whether the dependency was resolved (or set) already.
    public var isResolved: Bool { storage.current != nil }

    /// The dependency if it was resolved (or set) already; `nil` without resolving it otherwise.
    public var resolvedOrNil: Value? { storage.current }

    /// Forgets the value, so the next access resolves again (a `New` registration then makes a
    /// new instance; a `Shared` one returns the container's instance).
    ///
    /// Copies of a ``MutableLazyInject`` that share their value (copies made before its first
    /// access, or after a value was set) are reset together; setting a value gives a copy its own.
    public func reset() { storage.store(nil) }
}

extension LazyInjection: Sendable where Value: Sendable {}

/// The once-only storage behind the lazy wrappers.
final class LazyStorage<Value>: @unchecked Sendable {
    // Unchecked: `resolved` is read and written only with `Resolution.lock` held, the lock the
    // resolution itself takes, so the first resolution happens exactly once.
    // Weak: an instance the container keeps must not keep the container alive through this, and
    // an object may outlive its container (then the current one serves it). `nil` for `shared`,
    // which lives as long as the process: a weak reference gives a container a side table, which
    // slows every retain of it, so it is formed only for containers that can go away.
    private weak var container: DIContainer?
    private let isShared: Bool
    private let name: String?
    private var resolved: Value?
    /// The property's declaration, for a trap.
    private let file: StaticString
    private let line: UInt

    init(container: DIContainer?, name: String?, file: StaticString, line: UInt, resolved: Value? = nil) {
        isShared = container === DIContainer.shared
        if !isShared { self.container = container }
        (self.name, self.file, self.line, self.resolved) = (name, file, line, resolved)
    }

    func copy() -> LazyStorage {
        Resolution.lock.withLock {
            let container = isShared ? .shared : container
            // Read through a weak reference: this may be the last strong one; released after the lock.
            Resolution.lock.releaseAfterUnlock(container)
            return LazyStorage(container: container, name: name, file: file, line: line, resolved: resolved)
        }
    }

    var value: Value {
        do {
            // A failure traps: a validate() check blocking the main actor waits for it, as `resolve()` does.
            return try MainActorHop.resolving(trapsOnFailure: true) { () throws(ResolutionError) in
                try Resolution.lock.withLock { () throws(ResolutionError) in
                    Resolution.noteCallSite(file, line)
                    // A value resolved already opens no resolution, which would clear the call site.
                    defer { Resolution.forgetCallSite() }
                    return try resolvedOnce()
                }
            }
        } catch {
            DIContainer.failInWrapper(error, file: file, line: line)
        }
    }

    /// The value, resolved the first time. Lock held.
    private func resolvedOnce() throws(ResolutionError) -> Value {
        if let resolved { return resolved }
        // From the current container when its own is gone (a strong reference while it resolves).
        let source = isShared ? DIContainer.shared : container ?? DIContainer.currentLocked
        // Read through a weak reference: this may become the last strong one; released after the lock.
        defer { if !isShared { Resolution.lock.releaseAfterUnlock(source) } }
        let value: Value = DIContainer.unbox(try source.resolveLocked(Key(Value.self, name: name), .none))
        resolved = value
        // Read inside a resolution that may still fail: forgotten with what that resolution made.
        if Resolution.state.isResolving { Resolution.state.undo.append { self.resolved.take() } }
        return value
    }

    var current: Value? { Resolution.lock.withLock { resolved } }

    /// Sets the value, or forgets it (`nil`), so that the next access resolves again.
    func store(_ newValue: Value?) {
        // The value it replaces is released after the lock: its `deinit` may resolve.
        Resolution.lock.withLock { Resolution.lock.releaseAfterUnlock(exchange(&resolved, with: newValue)) }
    }
}
