/// Lets an app register its production dependencies on first use of ``DIContainer/shared``.
///
///     extension DIContainer: @retroactive DependencyRegistering {
///         public static func registerDependencies() {
///             register(Shared(RouterImpl() as Router))
///         }
///     }
///
/// `registerDependencies()` runs once, before the first registration or resolution on
/// ``DIContainer/shared``, so a mock a test registers before its first resolve is never
/// overwritten by production registrations. After ``DIContainer/reset()-swift.type.method`` it runs again.
///
/// In an app (another module), Swift 6 warns that the conformance is retroactive;
/// `@retroactive`, as above, states that this is intended and silences the warning.
///
/// Declare it once, in the app (composition) target: a process runs only one of several such
/// conformances, so one in each feature library builds without a warning and only one runs.
/// Feature libraries export ``Module``s that the app's `registerDependencies()` registers.
///
/// `registerDependencies()` may run on any thread (on the first use of `shared`). In a module
/// with default MainActor isolation, write `nonisolated extension DIContainer: …`: a conformance
/// isolated to the main actor cannot be used from other threads, and Swift 6.2 says so.
public protocol DependencyRegistering: SendableMetatype {
    /// Registers the app's dependencies; call `register` on `DIContainer` inside.
    static func registerDependencies()
}
