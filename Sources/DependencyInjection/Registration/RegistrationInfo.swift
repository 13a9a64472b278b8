/// What one registration says: the listing ``DIContainer/registrations`` is made of these.
public struct RegistrationInfo: Sendable, CustomStringConvertible {
    /// The registered type, as written in source (`RouterImpl`, `Router`).
    public let typeName: String
    /// The registration's name, if it has one.
    public let name: String?
    /// How long its instances live.
    public let lifetime: Lifetime
    /// The scope of a `Scoped` registration.
    public let scope: DIScope?
    /// The other types it is registered as (`as: Router.self, …`), in order.
    public let aliases: [String]
    /// The argument types its factory takes, empty for a factory without arguments.
    public let argumentTypes: [String]
    /// Whether it is made by a `@MainActor` factory.
    public let isMainActor: Bool
    /// Whether it is made as soon as it is registered (`eager()`).
    public let isEager: Bool
    /// Where it was registered (`#fileID`).
    public let fileID: String
    /// The line it was registered on.
    public let line: Int

    /// One line: type, name, lifetime, aliases, arguments, and where it was registered.
    ///
    ///     Logger (name: "audit") — Shared — App/AppDependencies.swift:15
    public var description: String {
        var text = typeName
        if let name { text += " (name: \(name.debugDescription))" }
        text += " — \(lifetime)" + (scope.map { "(\($0.name))" } ?? "")
        if !aliases.isEmpty { text += ", as \(aliases.joined(separator: ", "))" }
        if !argumentTypes.isEmpty { text += ", arguments (\(argumentTypes.joined(separator: ", ")))" }
        if isMainActor { text += ", @MainActor" }
        if isEager { text += ", eager" }
        return text + " — \(fileID):\(line)"
    }
}
