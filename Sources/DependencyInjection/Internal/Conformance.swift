/// Answers "is `Impl` a `Target`?" from types alone, without making an instance.
///
/// Inside generic code `Impl.self is Target.Type` only sees subclassing: for a protocol `P`,
/// `Target.Type` is the protocol's own metatype `(any P).Type`, which no concrete type inhabits.
/// The question needs the existential metatype `any P.Type`, which Swift cannot spell for a
/// generic `Target`; the runtime can build it from the mangled name (`…Xp`), after which an
/// ordinary dynamic cast performs the conformance check, compositions and class bounds included.
enum Conformance {
    static func isSubtype<Impl, Target>(_ impl: Impl.Type, of target: Target.Type) -> Bool {
        if Impl.self == Target.self || Impl.self is Target.Type { return true }
        guard let mangled = _mangledTypeName(Target.self),
            let existentialMetatype = _typeByName(mangled + "Xp")
        else {
            // Not an existential (a struct or an unrelated class): the checks above were complete.
            return false
        }
        func isInstance<Metatype>(of _: Metatype.Type) -> Bool { (Impl.self as Any) is Metatype }
        return _openExistential(existentialMetatype, do: isInstance)
    }

    /// Same question for a type held as a value.
    static func isSubtype<Target>(_ impl: any Any.Type, of target: Target.Type) -> Bool {
        func open<Impl>(_ type: Impl.Type) -> Bool { isSubtype(Impl.self, of: Target.self) }
        return _openExistential(impl, do: open)
    }

    /// Whether `type` is an `Optional`, without a protocol-conformance lookup (which scans the
    /// conformance tables, hundreds of nanoseconds, on every registration).
    static func isOptional(_ type: any Any.Type) -> Bool {
        // The first word of a type's metadata is its kind; 0x202 is `Optional`'s in Swift's
        // stable ABI. A class's first word is a kind of 0 or an isa pointer, never 0x202.
        unsafeBitCast(type, to: UnsafePointer<UInt>.self).pointee == 0x202
    }
}
