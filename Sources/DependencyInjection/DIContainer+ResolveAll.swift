extension DIContainer {
    /// Resolves every registration of `T` in ``current``: the unnamed one first, then the named
    /// ones in registration order; traps with the ``ResolutionError`` message on failure.
    ///
    ///     DIContainer.register {
    ///         Shared(ConsoleTracker.init, as: Tracker.self).named("console")
    ///         Shared(RemoteTracker.init, as: Tracker.self).named("remote")
    ///     }
    ///     let trackers: [Tracker] = DIContainer.resolveAll(Tracker.self)
    ///
    /// Each one resolves as `resolve(_:name:)` would (its lifetime, its decorators), all in one
    /// resolution. A container's registrations shadow its parent's of the same name; none: `[]`.
    @inlinable
    public static func resolveAll<T>(
        _ type: T.Type = T.self, file: StaticString = #fileID, line: UInt = #line
    ) -> [T] { resolvedAllOrFail(type, from: nil, file: file, line: line) }

    /// Resolves every registration of `T` (see ``resolveAll(_:file:line:)-swift.type.method``).
    @inlinable
    public func resolveAll<T>(
        _ type: T.Type = T.self, file: StaticString = #fileID, line: UInt = #line
    ) -> [T] { Self.resolvedAllOrFail(type, from: reference, file: file, line: line) }

    /// Every `T` the container `source` reaches (``current`` when `nil`) registers, or a trap.
    @inlinable
    static func resolvedAllOrFail<T>(
        _: T.Type, from source: ContainerReference?, file: StaticString, line: UInt
    ) -> [T] {
        do {
            return try resolveAllBoxes(T.self, from: source, file: file, line: line, trapsOnFailure: true).map(unbox)
        } catch {
            fail(error, file: file, line: line)
        }
    }

    /// `@InjectAll`'s value: every `T` of ``current``; a failure traps naming its declaration, or, while
    /// `validate()` makes the wrapper's owner, is recorded instead (see ``deferToValidation(_:file:line:)``).
    @inlinable
    static func injectedAll<T>(_: T.Type, file: StaticString, line: UInt) -> [T]? {
        do { return try resolveAllBoxes(T.self, from: nil, file: file, line: line).map(unbox) } catch {
            deferToValidation(error, file: file, line: line)
            return nil
        }
    }

    /// The values (`AnyBox`es) of every registration of `type`, made through the one resolution path.
    @usableFromInline
    static func resolveAllBoxes(
        _ type: any Any.Type, from source: ContainerReference?, file: StaticString? = nil, line: UInt = 0,
        trapsOnFailure: Bool = false
    ) throws(ResolutionError) -> [AnyBox] {
        // Off the main actor, made on it for the caller when a main-actor Sendable one asks to (as `resolve`).
        try MainActorHop.resolving(trapsOnFailure: trapsOnFailure) { () throws(ResolutionError) in
            try Resolution.lock.withLock { () throws(ResolutionError) in
                Resolution.noteCallSite(file, line)
                let container = source.map(\.container) ?? currentLocked
                // Reached through a weak reference: may be the last strong one; released after the lock.
                defer { Resolution.lock.releaseAfterUnlock(container) }
                let keys = container.allKeys(of: type)
                // At top level off the main actor, one that will be made on the main actor for the caller
                // (see `MainActorHop`) asks for it before any other is made: the attempt here is dropped,
                // and the others' factories would run twice.
                if Resolution.state.frames.isEmpty, !Resolution.state.isResolving, !MainActorCheck.isOnMainActor {
                    for key in keys {
                        guard let (owner, slot) = container.lookup(key), slot.entry.kept == nil,
                            slot.entry.spec.factory.isolation.isMainActor, !slot.entry.spec.factory.isAsync
                        else { continue }
                        let error = owner.mainActorRequired(slot.entry, requested: key, canHop: true)
                        if error.details.asksForMainActor { throw error }
                    }
                }
                return try container.asOneResolution(isFrame: false) { () throws(ResolutionError) in
                    var values: [AnyBox] = []
                    do throws(ResolutionError) {
                        for key in keys { values.append(try container.resolveStep(key, .none)) }
                    } catch {
                        // What was made before the failure goes after the lock (a `deinit` may resolve).
                        Resolution.lock.releaseAfterUnlock(values)
                        throw error
                    }
                    return values
                }
            }
        }
    }

    /// The keys of every registration of `type` here and in the ancestors: the unnamed one, then
    /// each name in the order it was registered (an ancestor's first; an override at the place of
    /// what it replaced). Lock held.
    private func allKeys(of type: any Any.Type) -> [Key] {
        var names: [String?] = []
        for container in lineage.reversed() {
            container.bootstrapIfNeeded()
            let slots = container.slots.filter { $0.key.typeID == ObjectIdentifier(type) }.map { key, slot in
                (key, container.registry.value.places[key] ?? slot.entry.sequence)
            }
            for (key, _) in slots.sorted(by: { $0.1 < $1.1 }) where !names.contains(key.name) {
                names.append(key.name)
            }
        }
        return (names.filter { $0 == nil } + names.filter { $0 != nil }).map { Key(type, name: $0) }
    }
}
