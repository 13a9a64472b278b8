extension DIContainer {
    /// Resolves every registration of ``current`` in a throwaway copy and reports what failed.
    ///
    ///     let report = DIContainer.validate()
    ///     print(report)          // readable in a terminal
    ///     assert(report.isValid)
    public static func validate() -> ValidationReport {
        current.validate()
    }

    /// Resolves every registration in a throwaway copy and reports what failed.
    ///
    /// It finds missing dependencies and cycles (with their paths) and errors thrown by
    /// factories, without touching this container's instances: every factory runs in an
    /// isolated copy (fresh instances, the same registrations), on a thread of its own.
    /// Registrations that need arguments or the main actor are listed as not checked.
    /// The dependencies it sees are recorded here, so ``dependencyGraph()`` shows them all.
    ///
    /// It never crashes the process, even when a non-throwing factory's nested `resolve()`
    /// fails: such a probe reports the failure and parks its thread for good (Swift cannot
    /// unwind through the factory), and validation goes on with a new copy. Cost: your
    /// factories run once each (with their side effects, in the copy), plus one parked
    /// thread and copy per such failure for the rest of the process. Run it at startup in
    /// debug builds or in a test, not on a hot path.
    public func validate() -> ValidationReport {
        let (sources, aliasSlots) = queue.sync { (rootEntries, aliasSlotsByRoot()) }
        var problems: [ValidationReport.Problem] = []
        var unchecked: [ValidationReport.Unchecked] = []
        var pending: [(source: any RootRegistration, slots: [Key])] = []
        for root in sources {
            if let reason = root.uncheckableReason {
                unchecked.append(.init(registration: root.key.displayName, reason: reason))
            } else {
                pending.append((root, aliasSlots[ObjectIdentifier(root)] ?? []))
            }
        }
        var validCount = 0
        while !pending.isEmpty {
            var copies: [ObjectIdentifier: AnyEntry] = [:]
            let copy = isolatedCopy(roots: &copies)
            // Each registration is probed through its own slot first, then through its aliases.
            let plan = pending.map { item in
                (item, [copies[ObjectIdentifier(item.source)]!] + item.slots.compactMap { copy.entryForProbe($0) })
            }
            let probe = ValidationProbe(container: copy, entries: plan.flatMap(\.1))
            let (outcomes, edges) = probe.run()
            // A parked probe stops at the registration whose failure it reported: what it did not
            // reach stays pending and gets a new copy and a new thread.
            var next = outcomes.startIndex
            var done = 0
            for (item, entries) in plan {
                let results = outcomes[next..<min(next + entries.count, outcomes.endIndex)]
                next += results.count
                if let error = results.lazy.compactMap({ if case .failed(let error) = $0 { error } else { nil } }).first
                {
                    problems.append(.init(registration: item.source.key.displayName, error: error))
                } else if results.count == entries.count {
                    validCount += 1
                } else {
                    break
                }
                done += 1
            }
            pending.removeFirst(done)
            recordEdges(edges, copies: copies, sources: sources)
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
        queue.sync {
            let aliasSlots = aliasSlotsByRoot()
            return Registrations(
                rootEntries.map { root in
                    let info = root.info
                    let servedAliases = Set((aliasSlots[ObjectIdentifier(root)] ?? []).map(\.typeName))
                    return RegistrationInfo(
                        typeName: info.typeName, name: info.name, lifetime: info.lifetime,
                        aliases: info.aliases.filter(servedAliases.contains), argumentTypes: info.argumentTypes,
                        isMainActor: info.isMainActor, isEager: info.isEager, fileID: info.fileID, line: info.line)
                })
        }
    }

    /// Graphviz DOT text of who depends on whom: a node per registration (type, name,
    /// lifetime), an edge from a service to each dependency its factory resolved.
    ///
    ///     try DIContainer.shared.dependencyGraph().write(to: "graph.dot")   // then: dot -Tsvg graph.dot
    ///
    /// Edges are recorded while resolving, so the graph shows what has been resolved so far;
    /// ``validate()-swift.method`` resolves everything and so fills it in. A dependency that is not
    /// registered is drawn dashed.
    public func dependencyGraph() -> String {
        queue.sync {
            let roots = rootEntries
            let aliasSlots = aliasSlotsByRoot()
            var ids: [ObjectIdentifier: String] = [:]
            var lines = [
                "digraph DependencyInjection {",
                "    rankdir=LR;",
                "    node [shape=box, style=rounded, fontname=\"Helvetica\"];",
            ]
            func node(for root: any RootRegistration, external: Bool) -> String {
                if let id = ids[ObjectIdentifier(root)] { return id }
                let id = "n\(ids.count + 1)"
                ids[ObjectIdentifier(root)] = id
                let info = root.info
                var label = [root.key.displayName, "\(info.lifetime)"]
                let aliases = (aliasSlots[ObjectIdentifier(root)] ?? []).map(\.typeName)
                if !aliases.isEmpty { label.append("as " + aliases.joined(separator: ", ")) }
                if external { label.append("(parent container)") }
                lines.append("    \(id) [label=\(Self.dotString(label.joined(separator: "\n")))];")
                return id
            }
            for root in roots { _ = node(for: root, external: false) }
            var missing: [Key: String] = [:]
            for root in roots {
                let from = node(for: root, external: false)
                for dependency in root.dependencies {
                    let to: String
                    if let (owner, entry) = lookupEntry(dependency) {
                        to = node(for: entry.root, external: owner !== self)
                    } else if let id = missing[dependency] {
                        to = id
                    } else {
                        to = "m\(missing.count + 1)"
                        missing[dependency] = to
                        lines.append(
                            "    \(to) [label=\(Self.dotString(dependency.displayName + "\nnot registered")), style=\"rounded,dashed\"];"
                        )
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
    /// This container's root registrations, in registration order. Called with the queue held.
    var rootEntries: [any RootRegistration] {
        var seen = Set<ObjectIdentifier>()
        var roots: [any RootRegistration] = []
        for entry in state.pointee.table.entries where seen.insert(ObjectIdentifier(entry.root)).inserted {
            roots.append(entry.root)
        }
        return roots.sorted { $0.sequence < $1.sequence }
    }

    /// For each root registration (by identity), the alias slots (not its own) it serves in this
    /// container, in the order its aliases were registered. One pass over the table. Queue held.
    func aliasSlotsByRoot() -> [ObjectIdentifier: [Key]] {
        var served: [ObjectIdentifier: (root: any RootRegistration, keys: [Key])] = [:]
        for entry in state.pointee.table.entries where entry.root !== entry {
            served[ObjectIdentifier(entry.root), default: (entry.root, [])].keys.append(entry.key)
        }
        return served.mapValues { root, keys in
            guard keys.count > 1 else { return keys }
            let order = root.aliasTypes.map { ObjectIdentifier($0) }
            return keys.sorted { (order.firstIndex(of: $0.typeID) ?? 0) < (order.firstIndex(of: $1.typeID) ?? 0) }
        }
    }

    func entryForProbe(_ key: Key) -> AnyEntry? {
        queue.sync { state.pointee.table.entry(for: key) }
    }

    /// The entry for `key` here or in an ancestor, with its owner. Queue held.
    func lookupEntry(_ key: Key) -> (DIContainer, AnyEntry)? {
        var container: DIContainer? = self
        while let candidate = container {
            let entry =
                candidate === self
                ? state.pointee.table.entry(for: key)
                : candidate.queue.sync { candidate.state.pointee.table.entry(for: key) }
            if let entry { return (candidate, entry) }
            container = candidate.parent
        }
        return nil
    }

    /// Copies dependencies a probe recorded in a copy back to this container's registrations.
    private func recordEdges(
        _ edges: [(root: any RootRegistration, dependencies: [Key])], copies: [ObjectIdentifier: AnyEntry],
        sources: [any RootRegistration]
    ) {
        var sourceOfCopy: [ObjectIdentifier: any RootRegistration] = [:]
        for source in sources {
            if let copy = copies[ObjectIdentifier(source)] { sourceOfCopy[ObjectIdentifier(copy)] = source }
        }
        queue.sync {
            for (root, dependencies) in edges {
                guard let source = sourceOfCopy[ObjectIdentifier(root)] else { continue }
                for dependency in dependencies { source.recordDependency(on: dependency) }
            }
        }
    }

    static func dotString(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            default: escaped.append(character)
            }
        }
        return "\"\(escaped)\""
    }
}
