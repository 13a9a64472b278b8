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
    /// Every registered `Element`.
    public let wrappedValue: [Element]

    /// Resolves every registration of `Element`.
    @inlinable
    public init(file: StaticString = #fileID, line: UInt = #line) {
        wrappedValue = DIContainer.resolveAll(Element.self, file: file, line: line)
    }
}

extension InjectAll: Sendable where Element: Sendable {}
