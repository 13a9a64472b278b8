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

    /// What `Set` and `Dictionary` ask for: the type's address (and the name's hash, if any) mixed
    /// with the table's seed by MurmurHash3's finalizer instead of SipHash, which was most of a
    /// lookup. Type addresses are not chosen by an attacker, so a keyed hash buys nothing there.
    func _rawHashValue(seed: Int) -> Int {
        var bits = UInt64(UInt(bitPattern: typeID)) ^ UInt64(UInt(bitPattern: seed))
        if let name { bits ^= UInt64(UInt(bitPattern: name._rawHashValue(seed: seed))) }
        bits = (bits ^ bits >> 33) &* 0xff51_afd7_ed55_8ccd
        bits = (bits ^ bits >> 33) &* 0xc4ce_b9fe_1a85_ec53
        return Int(truncatingIfNeeded: bits ^ bits >> 33)
    }

    /// The type as the user wrote it, e.g. `Router`.
    var typeName: String { TypeName.of(type) }

    /// `Router` or `Router (name: "primary")`.
    var displayName: String {
        guard let name else { return typeName }
        return "\(typeName) (name: \(name.debugDescription))"
    }
}

enum TypeName {
    /// `String(describing:)` names a type as written in source (`Router`, `Optional<Router>`),
    /// without the module prefix that `String(reflecting:)` adds.
    static func of(_ type: any Any.Type) -> String { String(describing: type) }
}
