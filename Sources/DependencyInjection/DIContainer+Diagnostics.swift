extension DIContainer {
    /// Resolves every registration of ``current`` in a throwaway copy and reports what failed.
    ///
    ///     let report = DIContainer.validate()
    ///     print(report)          // readable in a terminal
    ///     assert(report.isValid)
    public static func validate() -> ValidationReport { current.validate() }

    /// Resolves every registration in a throwaway copy and reports what failed.
    ///
    /// It finds missing dependencies and cycles (with their paths), errors thrown by factories,
    /// registrations of function types and factories whose argument types were inferred as
    /// `Any.Type`, without touching this container's instances: every factory runs in an
    /// isolated copy (fresh instances, the same registrations), on a thread of its own.
    /// Registrations that need arguments, an actor or `await` are listed as not checked.
    /// The dependencies it sees are recorded here, so ``dependencyGraph()`` shows them all.
    ///
    /// It never crashes the process, even when a non-throwing factory's nested `resolve()`
    /// fails: such a probe reports the failure and parks its thread for good (Swift cannot
    /// unwind through the factory), and validation goes on with a new copy. Cost: your
    /// factories run once each (with their side effects, in the copy), plus one parked
    /// thread per such failure. Run it at startup in debug builds or in a test, not on a hot
    /// path, and never inside a factory (that traps: the probes need the lock it holds).
    public func validate() -> ValidationReport {
        let entries = Resolution.lock.withLock { () -> [(Entry, [Key])] in
            if Resolution.state.isResolving {
                fatalError(
                    "DependencyInjection: validate() was called inside a factory; call it before or after resolving.")
            }
            bootstrapIfNeeded()
            return rootEntries.map { ($0, servedKeys(of: $0)) }
        }
        var problems: [ValidationReport.Problem] = []
        var unchecked: [ValidationReport.Unchecked] = []
        var pending: [(entry: Entry, keys: [Key])] = []
        for (entry, keys) in entries {
            if let problem = entry.spec.validationProblem {
                problems.append(.init(registration: entry.key.displayName, error: problem))
            } else if let reason = entry.spec.uncheckableReason {
                unchecked.append(.init(registration: entry.key.displayName, reason: reason))
            } else {
                pending.append((entry, keys))
            }
        }
        var validCount = 0
        while !pending.isEmpty {
            var copies: [ObjectIdentifier: Entry] = [:]
            let copy = isolatedCopy(copies: &copies)
            let failures = ValidationProbe(container: copy, groups: pending.map(\.keys)).run()
            recordEdges(from: copies, of: pending.map(\.entry))
            // A parked probe stops at the registration whose failure it reported: what it did not
            // reach stays pending and gets a new copy and a new thread.
            problems += zip(pending, failures).compactMap { item, failure in
                failure.map { .init(registration: item.entry.key.displayName, error: $0) }
            }
            validCount += failures.filter { $0 == nil }.count
            pending.removeFirst(failures.count)
        }
        return ValidationReport(problems: problems, unchecked: unchecked, validCount: validCount)
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
    /// ``validate()-swift.method`` resolves everything and so fills it in. An edge to an alias
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
                var label = [entry.key.displayName, "\(entry.lifetime)"]
                let aliases = aliasKeys(of: entry).map(\.typeName)
                if !aliases.isEmpty { label.append("as " + aliases.joined(separator: ", ")) }
                if external { label.append("(parent container)") }
                lines.append("    \(id) [label=\(label.joined(separator: "\n").debugDescription)];")
                return id
            }
            let roots = rootEntries
            for entry in roots { _ = node(for: entry, external: false) }
            var missing: [Key: String] = [:]
            for entry in roots {
                let from = node(for: entry, external: false)
                for dependency in entry.value.dependencies {
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

    /// Copies the edges a probe recorded in the copies back to the source entries.
    private func recordEdges(from copies: [ObjectIdentifier: Entry], of sources: [Entry]) {
        Resolution.lock.withLock {
            for source in sources {
                for dependency in copies[ObjectIdentifier(source)]?.value.dependencies ?? [] {
                    source.recordDependency(on: dependency)
                }
            }
        }
    }
}

extension RegistrationSpec {
    /// What this registration says, for listings; `servedAliases` are the alias slots it still serves.
    func info(servedAliases: [Key]) -> RegistrationInfo {
        RegistrationInfo(
            typeName: TypeName.of(type), name: name, lifetime: lifetime, aliases: servedAliases.map(\.typeName),
            // A factory taking `()` takes no arguments: its tuple type is `Void`.
            argumentTypes: factory.takesArguments ? factory.parameterTypes.map(TypeName.of) : [],
            isMainActor: { if case .mainActor = factory.isolation { true } else { false } }(),
            isEager: isEager, fileID: fileID, line: line)
    }

    /// Why `validate()` cannot resolve it alone, if it cannot.
    var uncheckableReason: String? {
        if factory.takesArguments { return "it needs arguments \(Factory.describeArguments(factory.argumentType))" }
        return switch factory.isolation {
        case .none: factory.isAsync ? "its factory is async (prepare() makes it)" : nil
        case .mainActor: "its factory runs on the main actor"
        case .globalActor(_, let name): "its factory runs on \(name)"
        }
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
