/// Every problem this package reports: a missing registration, a cycle, wrong arguments, a
/// registration that cannot be right, or an error thrown by a factory.
///
/// `tryResolve` and `tryRegister` throw it; `resolve` and `register` trap with exactly its
/// ``description``, which names the type, the name, the resolution path and what to do:
///
///     No registration for 'Router' (name: nil).
///     Resolution path: CheckoutScreen -> PaymentService -> Router
///     Registered types that conform: none. Did you mean: 'RouterImpl'?
///     To fix, register it: DIContainer.register { Shared(RouterImpl() as Router) }
public struct ResolutionError: Error, CustomStringConvertible, Sendable {
    /// What went wrong.
    public enum Reason: Sendable, Equatable {
        /// Nothing is registered for the type and name.
        case missingRegistration
        /// Factories that need each other; `cycle` lists the steps, first and last alike.
        case dependencyCycle(cycle: [String])
        /// The arguments given do not match the factory's parameters.
        case argumentMismatch(expected: String, received: String)
        /// A registration's alias is a type its instance does not conform to.
        case aliasNotConforming(implementation: String)
        /// An `Optional` type was registered.
        case optionalRegistration
        /// The factory (or its `onResolve`) threw ``ResolutionError/underlyingError``.
        case factoryFailed
        /// A `@MainActor` factory was resolved off the main actor.
        case mainActorRequired
        /// A `Weak` registration made a value that is not a class instance.
        case weakRequiresClass(instanceType: String)
        /// A factory tried to change the container that is running it.
        case mutationDuringResolution(operation: String)
    }

    /// What went wrong.
    public let reason: Reason
    /// The type that was requested (or registered), as written in source.
    public let typeName: String
    /// The name that was requested, if any.
    public let name: String?
    /// The resolutions that led here, outermost first, ending with the failing one.
    public let path: [String]
    /// The error a factory threw, for ``Reason/factoryFailed``.
    public let underlyingError: (any Error)?
    /// Registered types that conform to the requested one (for a missing registration).
    public let conformingTypes: [String]
    /// Registered types whose name resembles the requested one.
    public let similarTypes: [String]
    /// Names registered for the requested type, when the requested name is not among them.
    public let registeredNames: [String]

    init(
        reason: Reason, key: Key, path: [String] = [], underlyingError: (any Error)? = nil,
        conformingTypes: [String] = [], similarTypes: [String] = [], registeredNames: [String] = []
    ) {
        self.reason = reason
        self.typeName = key.typeName
        self.name = key.name
        self.path = path
        self.underlyingError = underlyingError
        self.conformingTypes = conformingTypes
        self.similarTypes = similarTypes
        self.registeredNames = registeredNames
    }

    /// The full message: what happened, where, and how to fix it.
    public var description: String {
        var lines = [headline]
        if path.count > 1 { lines.append("Resolution path: \(path.joined(separator: " -> "))") }
        lines += details
        lines.append(hint)
        return lines.joined(separator: "\n")
    }

    private var quotedName: String { name.map { "\"\($0)\"" } ?? "nil" }
    private var subject: String { "'\(typeName)' (name: \(quotedName))" }
    private var registration: String {
        "Shared(\(similarTypes.first ?? conformingTypes.first ?? "\(typeName)Impl")() as \(typeName))"
            + (name.map { ".named(\"\($0)\")" } ?? "")
    }

    private var headline: String {
        switch reason {
        case .missingRegistration:
            return "No registration for \(subject)."
        case .dependencyCycle(let cycle):
            return "Dependency cycle: \(cycle.joined(separator: " -> "))."
        case .argumentMismatch(let expected, let received):
            return "Wrong arguments for \(subject): expected \(expected), received \(received)."
        case .aliasNotConforming(let implementation):
            return "'\(implementation)' does not conform to '\(typeName)', so it cannot be registered as '\(typeName)'."
        case .optionalRegistration:
            return "'\(typeName)' is an Optional type and cannot be registered."
        case .factoryFailed:
            return
                "The factory for \(subject) threw an error: \(underlyingError.map { String(describing: $0) } ?? "unknown")."
        case .mainActorRequired:
            return "\(subject) is made by a @MainActor factory and was resolved off the main actor."
        case .weakRequiresClass(let instanceType):
            return
                "\(subject) is registered as Weak, but its factory made '\(instanceType)', which is not a class instance."
        case .mutationDuringResolution(let operation):
            return "\(operation)() was called on a container while it was resolving \(subject)."
        }
    }

    private var details: [String] {
        guard reason == .missingRegistration else { return [] }
        var lines: [String] = []
        if !registeredNames.isEmpty {
            lines.append(
                "Registered names for '\(typeName)': \(registeredNames.map { name in "\"\(name)\"" }.joined(separator: ", "))."
            )
        }
        var candidates =
            "Registered types that conform: "
            + (conformingTypes.isEmpty ? "none." : conformingTypes.map { "'\($0)'" }.joined(separator: ", ") + ".")
        if !similarTypes.isEmpty {
            candidates += " Did you mean: \(similarTypes.map { "'\($0)'" }.joined(separator: ", "))?"
        }
        lines.append(candidates)
        return lines
    }

    private var hint: String {
        switch reason {
        case .missingRegistration:
            return "To fix, register it: DIContainer.register { \(registration) }"
        case .dependencyCycle:
            return "To fix, break the cycle: let one side get the other after creation, "
                + "e.g. Shared(A.init).onResolve { a, resolve in a.b = resolve() }."
        case .argumentMismatch(let expected, _):
            return expected == "no arguments"
                ? "To fix, resolve it without arguments: DIContainer.resolve(\(typeName).self)."
                : "To fix, pass arguments of the registered types \(expected): DIContainer.resolve(\(typeName).self) { … }."
        case .aliasNotConforming(let implementation):
            return "To fix, make '\(implementation)' conform to '\(typeName)', or remove '\(typeName).self' from `as:`."
        case .optionalRegistration:
            return
                "To fix, register the wrapped type; resolving the Optional then gives nil while nothing is registered."
        case .factoryFailed:
            return
                "To fix, make the factory succeed, or handle the error where you call tryResolve (underlyingError keeps it)."
        case .mainActorRequired:
            return
                "To fix, resolve it from main-actor code (e.g. a @MainActor function), or register a factory that is not @MainActor."
        case .weakRequiresClass:
            return "To fix, register it as Shared or New, or make the factory return a class instance."
        case .mutationDuringResolution:
            return
                "To fix, register, reset or release instances before or after resolving, not inside a factory, onResolve or an initializer it runs."
        }
    }

}

extension DIContainer {
    /// An error for `key`, at the current point of the resolution path.
    func error(_ reason: ResolutionError.Reason, for key: Key, underlying: (any Error)? = nil) -> ResolutionError {
        var path = state.pointee.path
        if state.pointee.frames.last?.requested.key != key { path.append(key.displayName) }
        return ResolutionError(reason: reason, key: key, path: path, underlyingError: underlying)
    }

    /// A missing registration, with the path, conforming and similar types, and other names.
    func missing(_ key: Key) -> ResolutionError {
        var roots: [any RootRegistration] = []
        var names: [String] = []
        var container: DIContainer? = self
        while let candidate = container {
            let entries =
                candidate === self
                ? state.pointee.table.entries : candidate.queue.sync { candidate.state.pointee.table.entries }
            for entry in entries {
                if entry.key.typeID == key.typeID, let name = entry.key.name { names.append(name) }
                if entry.root === entry { roots.append(entry.root) }
            }
            container = candidate.parent
        }
        let requested = key.typeName
        let rootTypes = roots.map(\.key.type)
        let conforming = Set(
            rootTypes.filter { $0 != key.type && Conformance.isSubtype($0, of: key.type) == true }.map(TypeName.of))
        let similar = Set(rootTypes.map(TypeName.of).filter { $0 != requested && Self.resembles($0, requested) })
        return ResolutionError(
            reason: .missingRegistration, key: key, path: state.pointee.path + [key.displayName],
            conformingTypes: conforming.sorted(), similarTypes: similar.subtracting(conforming).sorted(),
            registeredNames: names.sorted())
    }

    /// A cycle: `root` is being made further up the path and was reached again.
    func cycleError(reaching root: any RootRegistration, requested: AnyEntry) -> ResolutionError {
        let frames = state.pointee.frames.all
        let start = frames.lastIndex { $0.root === root } ?? 0
        let cycle = frames[start...].map(\.requested.key.displayName) + [requested.key.displayName]
        return ResolutionError(
            reason: .dependencyCycle(cycle: cycle), key: requested.key,
            path: state.pointee.path + [requested.key.displayName])
    }

    private static func resembles(_ candidate: String, _ requested: String) -> Bool {
        let a = candidate.lowercased()
        let b = requested.lowercased()
        return a.hasPrefix(b) || b.hasPrefix(a) || a.hasSuffix(b) || b.hasSuffix(a)
    }
}
