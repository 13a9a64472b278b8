/// Answers "is `Impl` a `Target`?" from types alone, without making an instance.
///
/// Inside generic code `Impl.self is Target.Type` only sees subclassing: for a protocol `P`,
/// `Target.Type` is the protocol's own metatype `(any P).Type`, which no concrete type inhabits.
/// The question needs the existential metatype `any P.Type`, which Swift cannot spell for a
/// generic `Target`; the runtime can build it from the mangled name (`…Xp`), after which an
/// ordinary dynamic cast performs the conformance check, compositions and class bounds included.
enum Conformance {
    static func isSubtype<Impl, Target>(_ impl: Impl.Type, of target: Target.Type) -> Bool {
        answer(Impl.self, isSubtypeOf: Target.self) ?? false
    }

    /// Whether a registration of `Impl` may be installed as `Target`: `false` only when `Impl`
    /// certainly is not a `Target`.
    static func mayBeSubtype<Impl, Target>(_ impl: Impl.Type, of target: Target.Type) -> Bool {
        answer(Impl.self, isSubtypeOf: Target.self) ?? true
    }

    /// The answer, or `nil` where types alone cannot give it: for an existential whose name
    /// cannot be looked up (a `private` protocol: its mangled name holds symbolic references).
    private static func answer<Impl, Target>(_ impl: Impl.Type, isSubtypeOf target: Target.Type) -> Bool? {
        if Impl.self == Target.self || Impl.self is Target.Type { return true }
        guard let mangled = _mangledTypeName(Target.self),
            let existentialMetatype = _typeByName(mangled + "Xp")
        else {
            // Not an existential (a struct or an unrelated class): the checks above were complete.
            return isExistential(Target.self) ? nil : false
        }
        func isInstance<Metatype>(of _: Metatype.Type) -> Bool { (Impl.self as Any) is Metatype }
        return _openExistential(existentialMetatype, do: isInstance)
    }

    /// Whether `type` is an existential (`any P`, `any P & Q`, `AnyObject`, `any P<T>`), read from
    /// its metadata kind: the first word of non-class type metadata.
    private static func isExistential(_ type: any Any.Type) -> Bool {
        let existential = 0x303
        let extendedExistential = 0x307
        let kind = unsafeBitCast(type, to: UnsafeRawPointer.self).load(as: Int.self)
        return kind == existential || kind == extendedExistential
    }

    /// Same question for a type held as a value.
    static func isSubtype<Target>(_ impl: any Any.Type, of target: Target.Type) -> Bool {
        func open<Impl>(_ type: Impl.Type) -> Bool { isSubtype(Impl.self, of: Target.self) }
        return _openExistential(impl, do: open)
    }
}
