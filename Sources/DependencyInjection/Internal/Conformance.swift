/// Answers questions about types without making an instance.
enum Conformance {
    /// Whether `Impl` is a `Target`: a subclass, the same type, or a conforming type of a protocol.
    ///
    /// Inside generic code `Impl.self is Target.Type` only sees subclassing: for a protocol `P`,
    /// `Target.Type` is the protocol's own metatype `(any P).Type`, which no concrete type
    /// inhabits. The question needs the existential metatype `any P.Type`, which Swift cannot
    /// spell for a generic `Target`; the runtime builds it from the mangled name (`…Xp`), and an
    /// ordinary dynamic cast then checks conformance, compositions and class bounds included.
    ///
    /// `nil` for an existential the runtime cannot rebuild from its name (a `private` protocol,
    /// a parameterized one): callers then rely on the cast made once an instance exists.
    static func isSubtype(_ impl: any Any.Type, of target: any Any.Type) -> Bool? {
        // `impl is Target.Type` for the target held as a value: the same type, or a subclass.
        func isKind<Target>(of _: Target.Type) -> Bool { impl is Target.Type }
        if impl == target || _openExistential(target, do: isKind) { return true }
        guard let mangled = _mangledTypeName(target) else { return nil }
        guard let existentialMetatype = _typeByName(mangled + "Xp") else {
            // Not an existential (a struct or an unrelated class): the checks above were complete.
            return isExistential(target) ? nil : false
        }
        func isInstance<Metatype>(of _: Metatype.Type) -> Bool { (impl as Any) is Metatype }
        return _openExistential(existentialMetatype, do: isInstance)
    }

    /// Whether `type` is an existential (`any P`, a composition, `AnyObject`): mangled names of
    /// protocols and compositions end in `p`, class-bound ones in `Xl`, ones with a superclass
    /// in `Xc`, parameterized ones in `XP`; nominal types end in `C`, `V`, `O` or `G`.
    static func isExistential(_ type: any Any.Type) -> Bool {
        guard let mangled = _mangledTypeName(type) else { return false }
        return ["p", "Xl", "Xc", "XP"].contains { mangled.hasSuffix($0) }
    }

    /// Whether `type` is a function type (`(A) -> B`, `@Sendable () async -> C`, …): mangled
    /// function types end in `c` (a composition with a superclass ends in `Xc`).
    static func isFunction(_ type: any Any.Type) -> Bool {
        // A class is none: asking first spares most types the mangled-name lookup, which is slow
        // the first time a type is seen.
        guard !isClass(type), let mangled = _mangledTypeName(type) else { return false }
        return mangled.hasSuffix("c") && !mangled.hasSuffix("Xc")
    }

    /// Whether `type` is a class.
    static func isClass(_ type: any Any.Type) -> Bool { type is AnyObject.Type }
}
