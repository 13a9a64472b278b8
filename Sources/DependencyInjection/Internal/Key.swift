/// Identifies one registration slot: a type and an optional name.
struct Key: Hashable, Sendable {
    /// The type itself; identity is ``typeID``.
    let type: any Any.Type
    let name: String?

    init(_ type: any Any.Type, name: String?) {
        self.type = type
        self.name = name
    }

    var typeID: ObjectIdentifier { ObjectIdentifier(type) }

    static func == (lhs: Key, rhs: Key) -> Bool { lhs.typeID == rhs.typeID && lhs.name == rhs.name }

    func hash(into hasher: inout Hasher) {
        hasher.combine(typeID)
        hasher.combine(name)
    }

    /// The type as the user wrote it, e.g. `Router`.
    var typeName: String { TypeName.of(type) }

    /// What a `resolve` call that asks for it needs, as code outside the type compiles: `Router.self`,
    /// `Feature.Inner.self` or `Store.self, name: "cache"`.
    var request: String {
        // `(Reader & Writer).self`, `(any Catalog<Int>).self`: a type of more than one word is parenthesized.
        let source = TypeName.qualified(type)
        let type = source.contains(" ") ? "(\(source))" : source
        return "\(type).self" + (name.map { ", name: \($0.debugDescription)" } ?? "")
    }

    /// `Router` or `Router (name: "primary")`.
    var displayName: String {
        guard let name else { return typeName }
        return "\(typeName) (name: \(name.debugDescription))"
    }
}

enum TypeName {
    /// `String(describing:)` names a type as written in source (`Router`, `Optional<Router>`),
    /// without the module prefix that `String(reflecting:)` adds.
    static func of(_ type: any Any.Type) -> String {
        var name = String(describing: type)
        // `any Catalog<Int>` is described as `any Catalog<Self.Catalog.Item == Int>`.
        while name.contains("="), let start = name.indices.first(where: { name[$0...].hasPrefix("Self.") }),
            let end = name[start...].indices.first(where: { name[$0...].hasPrefix(" == ") })
        { name.removeSubrange(start..<name.index(end, offsetBy: 4)) }
        return name
    }
}
