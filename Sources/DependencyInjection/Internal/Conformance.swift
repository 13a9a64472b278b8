/// Answers "is `Impl` a `Target`?" from types alone, without making an instance.
///
/// Inside generic code `Impl.self is Target.Type` only sees subclassing: for a protocol `P`,
/// `Target.Type` is the protocol's own metatype `(any P).Type`, which no concrete type inhabits.
/// The question needs the existential metatype `any P.Type`, which Swift cannot spell for a
/// generic `Target`; the runtime can build it from the mangled name (`…Xp`), after which an
/// ordinary dynamic cast performs the conformance check, compositions and class bounds included.
///
/// The answer is `nil` for an existential the runtime cannot rebuild from its mangled name: a
/// `private` or `fileprivate` protocol (its name carries an address-based context that
/// `_typeByName` does not resolve) or a parameterized one (`any Sequence<Int>`). Callers then
/// rely on the cast made once an instance exists.
enum Conformance {
    static func isSubtype<Impl, Target>(_ impl: Impl.Type, of target: Target.Type) -> Bool? {
        if Impl.self == Target.self || Impl.self is Target.Type { return true }
        guard let mangled = _mangledTypeName(Target.self) else { return nil }
        guard let existentialMetatype = _typeByName(mangled + "Xp") else {
            // Not an existential (a struct or an unrelated class): the checks above were complete.
            return isExistential(mangled) ? nil : false
        }
        func isInstance<Metatype>(of _: Metatype.Type) -> Bool { (Impl.self as Any) is Metatype }
        return _openExistential(existentialMetatype, do: isInstance)
    }

    /// Whether a mangled type name denotes an existential: protocols and compositions end in `p`,
    /// class-bound ones in `Xl`, ones with a superclass in `Xc`, parameterized ones in `XP`;
    /// nominal types end in `C`, `V`, `O` or, with generic arguments, `G`.
    private static func isExistential(_ mangled: String) -> Bool {
        mangled.hasSuffix("p") || mangled.hasSuffix("Xl") || mangled.hasSuffix("Xc") || mangled.hasSuffix("XP")
    }

    /// Same question for a type held as a value.
    static func isSubtype<Target>(_ impl: any Any.Type, of target: Target.Type) -> Bool? {
        func open<Impl>(_ type: Impl.Type) -> Bool? { isSubtype(Impl.self, of: Target.self) }
        return _openExistential(impl, do: open)
    }
}
