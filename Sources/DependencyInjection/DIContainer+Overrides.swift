extension DIContainer {
    /// Runs `operation` with ``current`` replaced by an isolated copy of it plus `overrides`.
    ///
    ///     DIContainer.withOverrides {
    ///         New(MockRouter() as Router)
    ///     } operation: {
    ///         let screen = Screen()   // gets MockRouter; other tasks are unaffected
    ///     }
    ///
    /// The copy has the current container's registrations (after `registerDependencies()` has
    /// run for it), none of its instances, then the overrides; so a `Shared` service that
    /// depends on an overridden one is made with the override (a parent container's too: its
    /// copy serves the override in place of its own registration). What `operation` registers
    /// stays in the copy, and the copy is released when `operation` returns. The binding is
    /// task-local, which makes this safe for tests that run in parallel.
    public static func withOverrides<R>(
        @RegistrationBuilder _ overrides: () -> Module, isolation: isolated (any Actor)? = #isolation,
        operation: () throws -> R
    ) rethrows -> R {
        try current.withOverrides(overrides, isolation: isolation, operation: operation)
    }

    /// Runs an async `operation` with ``current`` replaced by an isolated copy plus `overrides`.
    ///
    ///     let ok = try await DIContainer.withOverrides {
    ///         New(MockPayments() as Payments)
    ///     } operation: { () async throws -> Bool in
    ///         try await checkout()
    ///     }
    public static func withOverrides<R>(
        @RegistrationBuilder _ overrides: () -> Module, isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> R
    ) async rethrows -> R {
        try await current.withOverrides(overrides, isolation: isolation, operation: operation)
    }

    /// Runs `operation` with an isolated copy of this container plus `overrides` as ``current``.
    /// The overrides are bound to the actor whose code wrote them, as `register { … }` binds them.
    public func withOverrides<R>(
        @RegistrationBuilder _ overrides: () -> Module, isolation: isolated (any Actor)? = #isolation,
        operation: () throws -> R
    ) rethrows -> R {
        var copy = overriddenCopy(overrides().bound(to: isolation))
        defer { Self.letGo(of: &copy) }
        return try copy.activate(operation)
    }

    /// Runs an async `operation` with an isolated copy of this container plus `overrides` as ``current``.
    public func withOverrides<R>(
        @RegistrationBuilder _ overrides: () -> Module, isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> R
    ) async rethrows -> R {
        var copy = overriddenCopy(overrides().bound(to: isolation))
        defer { Self.letGo(of: &copy) }
        return try await copy.activate(isolation: isolation, operation)
    }

    /// Lets go of a copy `withOverrides` made: its instances first, while it still exists (a `deinit`
    /// that reads a lazy wrapper resolves from it), unless something else holds the copy (a task the
    /// operation started keeps it, and its instances, bound). Inside a factory, where the lock is
    /// held, the copy goes once the lock is let go.
    private static func letGo(of copy: inout DIContainer) {
        if isKnownUniquelyReferenced(&copy) { for container in copy.lineage { container.releaseInstances() } }
        Resolution.lock.withLock { Resolution.lock.releaseAfterUnlock(copy) }
    }

    private func overriddenCopy(_ overrides: Module) -> DIContainer {
        var copies: [ObjectIdentifier: Entry] = [:]
        let copy = isolatedCopy(copies: &copies)
        Resolution.lock.withLock { copy.letAncestorsUseOverrides() }
        copy.register(overrides)
        return copy
    }
}
