/// Resolves a dependency when the enclosing object is initialized.
///
///     final class Screen {
///         @Inject var router: Router
///         @Inject(name: "primary") var store: Store
///         @Inject var player: MediaPlayer?   // nil when nothing is registered
///     }
///
/// It resolves from ``DIContainer/current``: inside a factory, the container running it.
/// While `validate()` makes its owner, a failure is reported as a problem of the owner's
/// registration, naming this declaration, instead of trapping (see `DIContainer.injected(_:name:file:line:)`).
@propertyWrapper
public struct Inject<Value> {
    /// `nil` only in an owner that `validate()` made and then dropped, its dependency missing.
    @usableFromInline let resolved: Value?

    /// The resolved dependency.
    public var wrappedValue: Value { resolved ?? DIContainer.failedInjection() }

    /// Resolves the registration of `Value` with `name` (`nil`: the unnamed one); a failure traps
    /// naming the property's declaration (`file`, `line`).
    @inlinable
    public init(name: String? = nil, file: StaticString = #fileID, line: UInt = #line) {
        resolved = DIContainer.injected(Value.self, name: name, file: file, line: line)
    }
}

extension Inject: Sendable where Value: Sendable {}

/// Like ``Inject``, but settable: resolved at initialization, replaceable afterwards.
///
///     final class Screen {
///         @MutableInject var tracker: Tracker
///     }
///     screen.tracker = RecordingTracker()
@propertyWrapper
public struct MutableInject<Value> {
    /// `nil` only in an owner that `validate()` made and then dropped, its dependency missing.
    @usableFromInline var resolved: Value?

    /// The resolved dependency, or what was set since.
    public var wrappedValue: Value {
        get { resolved ?? DIContainer.failedInjection() }
        set { resolved = newValue }
    }

    /// Resolves the registration of `Value` with `name` (`nil`: the unnamed one); a failure traps
    /// naming the property's declaration (`file`, `line`).
    @inlinable
    public init(name: String? = nil, file: StaticString = #fileID, line: UInt = #line) {
        resolved = DIContainer.injected(Value.self, name: name, file: file, line: line)
    }
}

extension MutableInject: Sendable where Value: Sendable {}
