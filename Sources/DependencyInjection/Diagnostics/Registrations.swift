/// Everything a container registers, one element per registration (aliases are listed with
/// the registration that serves them). Printing it gives one line per registration.
///
///     print(DIContainer.shared.registrations)
public struct Registrations: RandomAccessCollection, Sendable, CustomStringConvertible {
    let elements: [RegistrationInfo]

    public var startIndex: Int { elements.startIndex }
    public var endIndex: Int { elements.endIndex }
    public subscript(position: Int) -> RegistrationInfo { elements[position] }

    public var description: String {
        elements.isEmpty ? "No registrations." : elements.map(\.description).joined(separator: "\n")
    }
}
