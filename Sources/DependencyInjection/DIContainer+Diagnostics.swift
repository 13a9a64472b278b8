extension DIContainer {
    /// Resolves every registration of ``current`` in a throwaway copy and reports what failed.
    ///
    ///     let report = DIContainer.validate()
    ///     print(report)          // readable in a terminal
    ///     assert(report.isValid)
    public static func validate(isolation: isolated (any Actor)? = #isolation) -> ValidationReport {
        current.validate()
    }

    /// Resolves every registration of ``current`` in a throwaway copy, awaiting what needs an
    /// actor, and reports what failed: the form to use in tests and async code.
    ///
    ///     @Test func wiring() async {
    ///         let report = await DIContainer.validate()
    ///         #expect(report.isValid, "\(report)")
    ///     }
    public static func validate() async -> ValidationReport { await current.validate() }

    /// Resolves every registration in a throwaway copy and reports what failed, without blocking
    /// the caller's actor: main-actor factories run on the main actor, global-actor ones on their
    /// actor, async ones are awaited, the others run on threads of the library's own.
    ///
    /// It checks what ``validate(isolation:)-swift.method`` checks; on the main actor it also checks what
    /// needs the main actor, which the synchronous form (blocking it) lists as not checked.
    ///
    /// Cancelling the awaiting task cancels the check running then, and lists what is not checked
    /// yet as not checked. A factory that ignores cancellation goes on after `validate()` returns,
    /// in the throwaway copy; what it makes is released when it ends, and a failure there parks
    /// its thread (a thread of the library's own) without being reported.
    public func validate() async -> ValidationReport {
        let cancellation = ValidationProbe.Cancellation()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { finished in
                DetachedThread.start {
                    finished.resume(returning: self.validate(blocking: .none, cancellation: cancellation))
                }
            }
        } onCancel: {
            cancellation.cancel()
        }
    }

    /// Resolves every registration in a throwaway copy and reports what failed.
    ///
    /// It reports this container's own registrations; a parent's are reported by the parent's
    /// `validate()` (so validate the parent too: a child's report may say valid while a resolve
    /// through the child of a broken parent registration fails). It finds missing dependencies and
    /// cycles (with their paths), errors thrown by factories, factories whose argument types were
    /// inferred as `Any.Type`, lifetime mismatches (a service that keeps one that lives shorter: a
    /// `Graph`, or a `Scoped` one), isolation conflicts (a service made on any thread
    /// that needs a main-actor or global-actor service it cannot get there) and the same type and
    /// name registered twice in one `register` call or `Module`, without touching this container's
    /// instances: every factory runs once (again once what it needed is made, as in `prepare()`), in
    /// an isolated copy (fresh instances, the same registrations). It judges as the app runs after ``prepare()-swift.method``: async and
    /// actor-isolated services are made first (or taken as this container made them), main-actor
    /// factories run on the main actor, global-actor ones on their actor, async ones are awaited.
    /// Only registrations that need arguments are left unchecked, and, where a failure could not
    /// be recovered from, non-throwing closures that take a resolver (see ``ValidationReport/unchecked``).
    /// The dependencies it sees are recorded here, so ``dependencyGraph()`` shows them all.
    ///
    /// Call it anywhere: on the main thread or another, in async code, in `registerDependencies()`
    /// (not inside a factory: that traps, also when a factory's first use of ``shared`` is what runs
    /// `registerDependencies()`). In `registerDependencies()`, call it last: it checks what
    /// is registered so far, and while it runs the library's lock is free, so another thread that
    /// resolves from ``shared`` meanwhile sees only those registrations.
    ///
    /// Called on an actor (the main actor, a global actor, an actor's method), it blocks that actor
    /// and never waits for it: its synchronous factories run inline, and what needs it otherwise (an
    /// async factory of it, or a service that needs one) is listed as unchecked, naming
    /// `await validate()`, which checks them.
    ///
    /// It never hangs: a non-throwing factory whose nested `resolve()` fails is probed on a thread
    /// of the library's own, which reports the failure and parks for good (Swift cannot unwind
    /// through the factory); once 64 such threads parked in the process, such factories are listed
    /// as unchecked (a check already running parks a thread for each of its child tasks that fails).
    /// On an actor, where it runs factories inline, a failing static `DIContainer.resolve()` in one
    /// still traps, as does a non-throwing `resolve()` failing in a `Task {}` a factory started (not
    /// a thread of the library's). Actors and async factories not finished 10 seconds after it began
    /// (for all of them together) are listed as unchecked too. One wait it cannot end: called on the
    /// main thread, a factory that waits for the main thread (`DispatchQueue.main.sync`) never returns;
    /// after 10 seconds it says so on standard error, with the fix: `await validate()`. Run it in a test
    /// or at startup of a debug build, not on a hot path.
    public func validate(isolation: isolated (any Actor)? = #isolation) -> ValidationReport {
        validate(blocking: MainActorCheck.isOnMainActor ? .mainActor : .init(isolation))
    }

    /// `blocking`: the actor the caller runs on, which this call blocks until it returns.
    private func validate(
        blocking: Factory.Isolation, cancellation: ValidationProbe.Cancellation = .init()
    ) -> ValidationReport {
        Self.settingAsideResolution {
            var copies: [ObjectIdentifier: Entry] = [:]
            let copy = isolatedCopy(copies: &copies, forValidation: true)
            let (entries, items, duplicates) = Resolution.lock.withLock {
                var items: [ValidationProbe.Item] = []
                // This container's registrations, then an ancestor's factories that can only trap when
                // they fail, probed (and not reported) too, so that what this container's factories
                // need of them fails at once.
                for (container, itsCopy) in zip(lineage, copy.lineage) {
                    for entry in container.rootEntries {
                        // An ancestor's: what prepare() makes, made first for this container's checks too.
                        let isMadeFirst = container !== self && entry.needsPreparing
                        // Each as its value needs: on the actor of its factory, else of a decorator or an action;
                        // where it can park, if any of them cannot unwind.
                        var spec = entry.spec
                        spec.factory.isolation = container.isolation(of: entry)
                        let type = ObjectIdentifier(spec.type)
                        spec.factory.canUnwind =
                            spec.factory.canUnwind && spec.onResolve.allSatisfy(\.canUnwind)
                            && !container.registry.value.decorators.contains { $0.type == type && !$0.canUnwind }
                        guard container === self || isMadeFirst || !spec.factory.canUnwind else { continue }
                        items.append((spec, copies[ObjectIdentifier(entry)], container.servedKeys(of: entry), itsCopy))
                    }
                }
                return (rootEntries, items, registry.value.duplicates)
            }
            let probe = ValidationProbe(copy: copy, items: items, blocking: blocking, cancellation: cancellation)
            let outcomes = probe.run().prefix(entries.count)
            let (wiring, conflicted, madeByPrepare) = Resolution.lock.withLock {
                // The edges the probes recorded in the copies, copied back to the source entries.
                // The ancestors' too: a lifetime is followed through their `New`s (see `wiringProblems`).
                for entry in lineage.flatMap(\.rootEntries) {
                    for dependency in copies[ObjectIdentifier(entry)]?.state.dependencies ?? Entry.Dependencies() {
                        entry.recordDependency(on: dependency)
                    }
                }
                let wiring = entries.flatMap(wiringProblems) + overriddenAncestorsWiringProblems()
                // A registration's isolation conflict is reported once: it is why its probe failed off the
                // actor; where its probe resolved (on the actor) it is not valid either, and where it was not
                // checked (a synchronous validate() blocking the actor it needs) it is a problem all the same.
                let conflicted = Set(wiring.filter { $0.error.reason.isIsolationConflict }.map(\.error.key))
                let resolved = zip(entries, outcomes).filter { entry, outcome in
                    if case .resolved? = outcome { !conflicted.contains(entry.key) } else { false }
                }
                return (wiring, conflicted, madeFirst(for: resolved.map(\.0)))
            }
            var problems = duplicates.map { ValidationReport.Problem(registration: $0.key.displayName, error: $0) }
            var unchecked: [ValidationReport.Unchecked] = []
            var validCount = 0
            for (entry, outcome) in zip(entries, outcomes) {
                let isConflicted = conflicted.contains(entry.key)
                switch outcome {
                case .failed(let error)? where !(isConflicted && error.reason.isIsolation):
                    // Where it was registered, unless the message says so (an isolation error names it,
                    // closing its summary: `(Shared, App/File.swift:12)`).
                    var problem = ValidationReport.Problem(registration: entry.key.displayName, error: error)
                    let place = entry.spec.place
                    if !error.description.contains(place + ")") { problem.registeredAt = place }
                    problems.append(problem)
                case .unchecked(let reason)? where !isConflicted:
                    unchecked.append(.init(registration: entry.key.displayName, reason: reason))
                case .resolved? where !isConflicted: validCount += 1
                default: break
                }
            }
            problems += wiring
            problems += Resolution.lock.withLock { decoratorsOfNothing() }
            return ValidationReport(
                problems: problems, unchecked: unchecked, validCount: validCount,
                madeFirst: madeByPrepare)
        }
    }

    /// The services `prepare()` makes first, not made yet, that a synchronous factory of `entries` (those
    /// whose check resolved), or one not made yet that it needs, needs from an async factory or another
    /// actor, with what makes them so: checked as the app runs after `prepare()`, what needs them fails
    /// before it. Lock held.
    private func madeFirst(for entries: [Entry]) -> [(registration: String, madeBy: String)] {
        var found: [(registration: String, madeBy: String)] = []
        var followed: Set<ObjectIdentifier> = []
        // `owner` made `dependent`, and looked its dependencies up in itself and its ancestors.
        func follow(_ dependent: Entry, in owner: DIContainer, mine: String?) {
            guard followed.insert(ObjectIdentifier(dependent)).inserted else { return }
            for key in dependent.state.dependencies {
                guard let (theirOwner, slot) = owner.lookup(key) else { continue }
                let factory = slot.entry.spec.factory
                guard slot.entry.needsPreparing else {
                    if !factory.isAsync, slot.entry.kept == nil { follow(slot.entry, in: theirOwner, mine: mine) }
                    continue
                }
                // A global actor's synchronous closure is made only by awaiting it, on its actor too.
                let theirs = factory.isolation.actorName
                let why = factory.isActorClosure ? theirs : factory.isAsync ? "async" : theirs == mine ? nil : theirs
                guard let why, slot.entry.state.shared == nil,
                    !found.contains(where: { $0.registration == key.displayName })
                else { continue }
                found.append((key.displayName, why))
            }
        }
        for entry in entries where !entry.spec.factory.isAsync {
            follow(entry, in: self, mine: isolation(of: entry).actorName)
        }
        return found
    }

    /// Decorators of a type this container does not register, under any name (an `as:` alias counts): they
    /// never run, as a decorator applies only to its container's registrations of its type. Lock held.
    private func decoratorsOfNothing() -> [ValidationReport.Problem] {
        registry.value.decorators.filter { decorator in !slots.contains { $0.key.typeID == decorator.type } }.map {
            let error = ResolutionError(reason: .missingRegistration, key: Key($0.valueType, name: nil))
            // An ancestor registers the type itself (not as an alias): the Decorate belongs there.
            let type = $0.type
            let isAncestors = lineage.dropFirst().contains {
                $0.slots.contains { $0.key.typeID == type && $0.value.alias == nil }
            }
            return .init(
                registration: "Decorate(\(TypeName.of($0.valueType)).self)",
                error: error.with { ($0.decoratesNothing, $0.decoratesAncestorsType) = (true, isAncestors) },
                registeredAt: $0.site)
        }
    }

    /// In a `withOverrides` copy: the lifetime mismatches and isolation conflicts of its ancestors'
    /// services that depend on one of its overrides, which only this copy's `validate()` can see
    /// (an ancestor's own never sees the overrides). Lock held.
    private func overriddenAncestorsWiringProblems() -> [ValidationReport.Problem] {
        guard registry.value.overridesAfter != nil else { return [] }
        return lineage.dropFirst().flatMap { ancestor in
            // Directly, or through the ancestors' `New`s in between (what a `New` keeps, its holder keeps):
            // an override is served by a copy below the ancestor.
            ancestor.rootEntries.filter { entry in
                ancestor.keptDependencies(of: entry).contains { kept in
                    !ancestor.lineage.contains { $0 === kept.owner }
                }
            }.flatMap(ancestor.wiringProblems)
        }
    }

    /// What an instance of `entry` keeps: each registration its recorded edges reach from this
    /// container, once, with the container that serves it and the `New`s in between, followed
    /// through every `New` (what a `New` instance keeps, its holder keeps). Lock held.
    private func keptDependencies(of entry: Entry) -> [(owner: DIContainer, entry: Entry, through: [String])] {
        var kept: [(owner: DIContainer, entry: Entry, through: [String])] = []
        var seen: Set<ObjectIdentifier> = [ObjectIdentifier(entry)]
        // `owner` made `dependent`, and looked its dependencies up in itself and its ancestors.
        func follow(_ dependent: Entry, in owner: DIContainer, through: [String]) {
            for key in dependent.state.dependencies {
                guard let (theirOwner, slot) = owner.lookup(key), seen.insert(ObjectIdentifier(slot.entry)).inserted
                else { continue }
                kept.append((theirOwner, slot.entry, through))
                if slot.entry.spec.lifetime == .new {
                    follow(slot.entry, in: theirOwner, through: through + [slot.entry.spec.summary])
                }
            }
        }
        follow(entry, in: self, through: [])
        return kept
    }

    /// Lifetime mismatches and isolation conflicts of `entry`, along its recorded edges. Lock held.
    ///
    /// A lifetime is followed through every `New` in between (what a `New` instance keeps, its
    /// holder keeps); an isolation conflict is a direct need.
    private func wiringProblems(of entry: Entry) -> [ValidationReport.Problem] {
        let mine = entry.spec
        var problems: [ResolutionError] = []
        for (_, their, through) in keptDependencies(of: entry)
        where mine.lifetime.outlives(their.spec.lifetime, scope: mine.scope, dependencyScope: their.spec.scope) {
            let path = through.isEmpty ? "" : " (through \(through.joined(separator: " -> ")))"
            let reason = ResolutionError.Reason.lifetimeMismatch(
                registration: mine.summary, dependency: their.spec.summary + path)
            problems.append(ResolutionError(reason: reason, key: entry.key))
        }
        let runsAnywhere = mine.factory.isolation.actor == nil
        for key in entry.state.dependencies where !mine.factory.isAsync {
            guard let their = lookup(key)?.1.entry else { continue }
            // A synchronous factory, on any actor, gets an async factory's service only as a Shared
            // one prepare() made. Off its actor, an actor's service is only ever a Shared one prepare()
            // made too (and, for the main actor, Sendable as it is asked for: not through an alias).
            let isolation = their.spec.factory.isolation
            // (A `Scoped` or `Weak` one may be kept already: made by `resolveAsync` in the same run, or held.)
            let isAsyncOnly =
                their.spec.factory.isAsync && (their.spec.lifetime == .new || their.spec.lifetime == .graph)
                && (isolation.actor == nil || !runsAnywhere)
            let isOffItsActor =
                runsAnywhere && isolation.actor != nil
                && (their.spec.lifetime != .shared || (isolation.isMainActor && !their.isSendable(as: key)))
            guard isAsyncOnly || isOffItsActor else { continue }
            let reason = ResolutionError.Reason.isolationConflict(
                registration: mine.summary, dependency: their.spec.summary)
            problems.append(
                ResolutionError(reason: reason, key: entry.key).with {
                    // Another actor's service that is not `Shared` is only awaited too, never made by a
                    // synchronous resolve on that actor.
                    $0.conflictActor =
                        isAsyncOnly || their.spec.lifetime != .shared && !isolation.isMainActor
                        ? nil : isolation.actorName
                    $0.conflictKey = key
                    // The fix makes the registration's factory async: as written, with its lifetime.
                    ($0.servedLifetime, $0.conflictLifetime) = (mine.writtenLifetime, mine.writtenLifetime)
                    // Only through an alias of a main-actor Shared: the fix is to make it as the alias.
                    guard their.spec.lifetime == .shared, isolation.isMainActor,
                        let implementation = their.servedThrough(as: key)
                    else { return }
                    ($0.servedThrough, $0.servedLifetime) = (implementation, their.spec.writtenLifetime)
                })
        }
        return problems.map { .init(registration: entry.key.displayName, error: $0) }
    }

    /// Every registration: type, name, lifetime, aliases, and where it was registered.
    ///
    ///     print(DIContainer.shared.registrations)
    ///     // RouterImpl — Shared, as Router, DeeplinkHandler — App/Registrations.swift:12
    ///
    /// An alias that was registered again elsewhere is listed with the registration that
    /// serves it now.
    public var registrations: Registrations {
        Resolution.lock.withLock {
            bootstrapIfNeeded()
            return Registrations(elements: rootEntries.map { $0.spec.info(servedAliases: aliasKeys(of: $0)) })
        }
    }

    /// Graphviz DOT text of who depends on whom: a node per registration (type, name,
    /// lifetime), an edge from a service to each dependency its factory resolved.
    ///
    ///     let dot = DIContainer.shared.dependencyGraph()   // then: dot -Tsvg graph.dot
    ///
    /// Edges are recorded while resolving, so the graph shows what has been resolved so far;
    /// ``validate(isolation:)-swift.method`` resolves everything and so fills it in. An edge to an alias
    /// points at the registration that serves it; one to `T?` points at `T`. A dependency that
    /// is not registered is drawn dashed.
    public func dependencyGraph() -> String {
        Resolution.lock.withLock {
            bootstrapIfNeeded()
            var ids: [ObjectIdentifier: String] = [:]
            var lines = [
                "digraph DependencyInjection {",
                "    rankdir=LR;",
                "    node [shape=box, style=rounded, fontname=\"Helvetica\"];",
            ]
            func node(for entry: Entry, external: Bool) -> String {
                if let id = ids[ObjectIdentifier(entry)] { return id }
                let id = "n\(ids.count + 1)"
                ids[ObjectIdentifier(entry)] = id
                var label = [entry.key.displayName, entry.spec.writtenLifetime]
                let aliases = aliasKeys(of: entry).map(\.typeName)
                if !aliases.isEmpty { label.append("as " + aliases.joined(separator: ", ")) }
                if external { label.append("(parent container)") }
                lines.append("    \(id) [label=\(label.joined(separator: "\n").debugDescription)];")
                return id
            }
            // Every registration's node first, then the edges (and the nodes they reach outside).
            let roots = rootEntries
            let rootIDs = roots.map { node(for: $0, external: false) }
            var missing: [Key: String] = [:]
            for (entry, from) in zip(roots, rootIDs) {
                for dependency in entry.state.dependencies {
                    let to: String
                    if let (owner, slot) = lookup(dependency) {
                        to = node(for: slot.entry, external: owner !== self)
                    } else if let id = missing[dependency] {
                        to = id
                    } else {
                        to = "m\(missing.count + 1)"
                        missing[dependency] = to
                        let label = (dependency.displayName + "\nnot registered").debugDescription
                        lines.append("    \(to) [label=\(label), style=\"rounded,dashed\"];")
                    }
                    lines.append("    \(from) -> \(to);")
                }
            }
            lines.append("}")
            return lines.joined(separator: "\n") + "\n"
        }
    }
}

extension DIContainer {
    /// This container's registrations, in registration order. Lock held.
    var rootEntries: [Entry] {
        var seen = Set<ObjectIdentifier>()
        return slots.values.map(\.entry).filter { seen.insert(ObjectIdentifier($0)).inserted }
            .sorted { $0.sequence < $1.sequence }
    }

    /// The alias slots (not its own) `entry` serves in this container, in the order its aliases
    /// were registered. Lock held.
    private func aliasKeys(of entry: Entry) -> [Key] {
        entry.spec.aliases.map { Key($0.type, name: entry.spec.name) }.filter {
            $0 != entry.key && slots[$0]?.entry === entry
        }
    }

    /// The slots `entry` serves in this container: its own type's (unless unregistered or taken
    /// by another registration since), then its aliases'. Lock held.
    func servedKeys(of entry: Entry) -> [Key] {
        (slots[entry.key]?.entry === entry ? [entry.key] : []) + aliasKeys(of: entry)
    }
}

extension RegistrationSpec {
    /// What this registration says, for listings; `servedAliases` are the alias slots it still serves.
    func info(servedAliases: [Key]) -> RegistrationInfo {
        RegistrationInfo(
            typeName: TypeName.of(type), name: name, lifetime: lifetime, scope: scope,
            aliases: servedAliases.map(\.typeName),
            // A factory taking `()` takes no arguments: its tuple type is `Void`.
            argumentTypes: factory.takesArguments ? factory.parameterTypes.map(TypeName.of) : [],
            isMainActor: factory.isolation.isMainActor,
            isEager: isEager, fileID: fileID, line: line)
    }

    /// A registration that can never be resolved as meant: an argument inferred as a metatype
    /// (`New { _, id in … "\(id)" }` infers `Any.Type`; a metatype written out, `owner: Repo.Type`,
    /// is meant). (A function type as the service is refused when it is registered.)
    var validationProblem: ResolutionError? {
        guard factory.parameterTypes.contains(where: { $0 == Any.Type.self }) else { return nil }
        return ResolutionError(
            reason: .argumentInferredAsMetatype(Factory.describeArguments(factory.argumentType)), key: key)
    }
}
