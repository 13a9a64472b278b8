/// Identifies one registration slot: a type and an optional name.
struct Key: Hashable, Sendable {
    let typeID: ObjectIdentifier
    let name: String?
    /// The type itself, for messages and listings; identity is `typeID`.
    let type: any Any.Type

    init(_ type: any Any.Type, name: String?) {
        self.typeID = ObjectIdentifier(type)
        self.name = name
        self.type = type
    }

    static func == (lhs: Key, rhs: Key) -> Bool { lhs.typeID == rhs.typeID && lhs.name == rhs.name }

    func hash(into hasher: inout Hasher) {
        hasher.combine(typeID)
        hasher.combine(name)
    }

    /// The type as the user wrote it, e.g. `Router`.
    var typeName: String { TypeName.of(type) }

    /// `Router` or `Router (name: "primary")`.
    var displayName: String {
        guard let name else { return typeName }
        return "\(typeName) (name: \"\(name)\")"
    }
}

enum TypeName {
    /// `String(describing:)` names a type as written in source (`Router`, `Optional<Router>`),
    /// without the module prefix that `String(reflecting:)` adds.
    static func of(_ type: any Any.Type) -> String { String(describing: type) }
}
