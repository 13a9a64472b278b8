/// One resolve of a production registration in a strict test, as `DependencyInjectionTesting`
/// gets it (see ``DIContainer/reportResolvesOfCurrentRegistrations(_:)``).
@_spi(Testing)
public struct StrictResolve: Sendable {
    /// The type asked for, as code outside it names it (`Payments`, `Feature.Payments`).
    public let typeName: String
    /// The name asked for, if any.
    public let name: String?
    /// The resolution path, ending in the type asked for.
    public let path: [String]
    /// The type asked for, the registration's own type and its aliases: what allows it.
    public let types: [ObjectIdentifier]
    /// Where the top-level resolve was written (`#fileID`, line), if it says.
    public let fileID: String?
    public let line: Int
    /// The type of each argument the registration's factory takes, as code outside it names it
    /// (`["String", "Int"]`); empty for one that takes none. An override must take them too.
    public let argumentTypes: [String]
    /// Whether the registration's factory is async (or a global actor's): an override that awaits its
    /// mock is an async factory too.
    public let isAsync: Bool

    /// Lock held.
    init(_ requested: Key, of entry: Entry, path: [String]) {
        (typeName, name, self.path) = (TypeName.qualified(requested.type), requested.name, path)
        argumentTypes = entry.spec.factory.parameterTypes.map(TypeName.qualified)
        isAsync = entry.spec.factory.isAsync
        types =
            [ObjectIdentifier(requested.type), ObjectIdentifier(entry.spec.type)]
            + entry.spec.aliases.map { ObjectIdentifier($0.type) }
        let site = Resolution.state.callSite
        (fileID, line) = (site.map { "\($0.file)" }, site.map { Int($0.line) } ?? 0)
    }
}

extension DIContainer {
    /// For `DependencyInjectionTesting`'s strict mode: from now on, every resolve of a registration
    /// this container or an ancestor has now (production) calls `report`; what is registered later
    /// (the test's overrides) is not reported. Copies made from it keep reporting. `report` runs on
    /// the resolving thread once the library's lock is let go (it may wait for a test framework's own
    /// locks); it is how the testing product records
    /// issues without the library importing a test framework.
    @_spi(Testing)
    public func reportResolvesOfCurrentRegistrations(_ report: @escaping @Sendable (StrictResolve) -> Void) {
        Resolution.lock.withLock {
            Resolution.keepsCallSites = true
            for container in lineage {
                container.registry.value.strict = (container === self ? registry.value.installedCount : .max, report)
            }
        }
    }
}

extension Resolution {
    /// Set once a strict test exists in the process, and never cleared: top-level resolves then
    /// keep their call site for its issues. Written and read with `lock` held.
    nonisolated(unsafe) static var keepsCallSites = false

    /// Forgets the call site noted by a top-level access that opened no resolution (a lazy wrapper
    /// resolved already), so that no later resolve's issue is recorded there. Lock held.
    @inline(__always)
    static func forgetCallSite() {
        if keepsCallSites, !state.isResolving { state.callSite = nil }
    }

    /// Keeps `file:line` as the call site of the top-level resolve about to begin, once a strict
    /// test exists (cleared when it ends, see `asOneResolution`). Lock held. Until then, it only
    /// reads a flag: nothing is kept, and no frame is added to the resolution's stack.
    @inline(__always)
    static func noteCallSite(_ file: StaticString?, _ line: UInt) {
        if keepsCallSites, !state.isResolving { state.callSite = file.map { ($0, line) } }
    }
}
