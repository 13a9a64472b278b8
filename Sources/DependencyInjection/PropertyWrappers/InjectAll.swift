/// Resolves every registration of a type when the enclosing object is initialized.
///
///     final class Analytics {
///         @InjectAll var trackers: [Tracker]   // the unnamed one, then the named ones in order
///     }
///
/// It resolves from ``DIContainer/current``, as ``DIContainer/resolveAll(_:file:line:)-swift.type.method``
/// does; nothing registered gives `[]`.
@propertyWrapper
public struct InjectAll<Element> {
    /// `nil` only in an owner that `validate()` made and then dropped, a dependency missing.
    @usableFromInline let resolved: [Element]?

    /// Every registered `Element`.
    public var wrappedValue: [Element] { resolved ?? DIContainer.failedInjection() }

    /// Resolves every registration of `Element`; a failure traps naming the property's declaration
    /// (`file`, `line`), or, while `validate()` makes its owner, is reported as `@Inject`'s is.
    @inlinable
    public init(file: StaticString = #fileID, line: UInt = #line) {
        resolved = DIContainer.injectedAll(Element.self, file: file, line: line)
    }
}

extension InjectAll: Sendable where Element: Sendable {}
