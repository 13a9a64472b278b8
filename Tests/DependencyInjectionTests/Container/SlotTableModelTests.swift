import DependencyInjection
import Testing

// The container's table (`SlotTable`) against a model, through the public API only: hundreds of
// keys of distinct types with and without names, each registration possibly also `as:` one shared
// protocol (so alias slots of one name are taken over by other types' registrations), registered
// alone or in batches (growth in the middle of them), replaced, unregistered (own slots and alias
// slots), reset, and read back by resolving, `resolveAll`, `registrations`, `dependencyGraph()`,
// `validate()`, a child container and a `withOverrides` copy (both iterate or read the table).

private protocol ModelMarker { var value: Int { get } }

private struct ModelLeaf {}
private struct ModelLeft<Path> {}
private struct ModelRight<Path> {}
private struct ModelMarkerOf<Path>: ModelMarker { let value: Int }

private protocol ModelProbe {
    func module(name: String?, value: Int, aliased: Bool) -> Module
    func resolved(from container: DIContainer, name: String?) -> Int?
    func unregister(from container: DIContainer, name: String?) -> Bool
}

extension ModelMarkerOf: ModelProbe {
    func module(name: String?, value: Int, aliased: Bool) -> Module {
        // One line: a batch that has a key twice is no duplicate (the same registration line again).
        let make = { ModelMarkerOf<Path>(value: value) }
        let registration = aliased ? New(make, as: (any ModelMarker).self) : New(make)
        return Module(name.map { registration.named($0) } ?? registration)
    }

    func resolved(from container: DIContainer, name: String?) -> Int? {
        (try? container.tryResolve(ModelMarkerOf<Path>.self, name: name))?.value
    }

    func unregister(from container: DIContainer, name: String?) -> Bool {
        container.unregister(ModelMarkerOf<Path>.self, name: name)
    }
}

private func modelProbes(_ count: Int) -> [any ModelProbe] {
    func build<Path>(_: Path.Type, bits: Int, depth: Int) -> any ModelProbe {
        guard depth > 0 else { return ModelMarkerOf<Path>(value: 0) }
        return bits & 1 == 0
            ? build(ModelLeft<Path>.self, bits: bits >> 1, depth: depth - 1)
            : build(ModelRight<Path>.self, bits: bits >> 1, depth: depth - 1)
    }
    return (0..<count).map { build(ModelLeaf.self, bits: $0, depth: 8) }
}

/// What the table should hold: the value each own slot and each alias slot resolves to (values
/// are unique per registration and increase with registration order).
private struct TableModel {
    var own: [String: Int] = [:]
    var alias: [String?: Int] = [:]
    static func key(_ index: Int, _ name: String?) -> String { "\(index)/\(name ?? "-")" }
    /// Registrations still serving a slot.
    var entries: Set<Int> { Set(own.values).union(alias.values) }
    /// `resolveAll`'s order: the unnamed one, then the named ones in registration order.
    var all: [Int] {
        (alias[nil].map { [$0] } ?? []) + alias.filter { $0.key != nil }.map(\.value).sorted()
    }
}

@Suite(.timeLimit(.minutes(1))) struct SlotTableModelTests {
    @Test(arguments: [1, 2, 3, 4])
    func theTableMatchesAModelThroughEveryKindOfChange(seed: Int) {
        let container = DIContainer()
        let probes = modelProbes(100)
        let names: [String?] = [nil, "a", "b", "c"]
        var model = TableModel()
        var state = seed &* 2_654_435_761
        func next(_ bound: Int) -> Int {
            state = (state &* 1_103_515_245 &+ 12_345) & 0x7fff_ffff
            return (state >> 4) % bound
        }
        var counter = 0
        func check(_ round: Int, deep: Bool) {
            var mismatches: [String] = []
            for (index, probe) in probes.enumerated() {
                for name in names {
                    let key = TableModel.key(index, name)
                    let got = probe.resolved(from: container, name: name)
                    if got != model.own[key] { mismatches.append("\(key): \(String(describing: got))") }
                }
            }
            for name in names {
                let got = (try? container.tryResolve((any ModelMarker).self, name: name))?.value
                if got != model.alias[name] { mismatches.append("alias \(name ?? "-"): \(String(describing: got))") }
            }
            #expect(mismatches.isEmpty, "round \(round): \(mismatches.prefix(10))")
            #expect(container.registrations.count == model.entries.count, "round \(round)")
            #expect(container.resolveAll((any ModelMarker).self).map(\.value) == model.all, "round \(round)")
            guard deep else { return }
            let child = DIContainer(parent: container)
            let fromChild = probes.indices.flatMap { index in
                names.map { probes[index].resolved(from: child, name: $0) }
            }
            let fromParent = probes.indices.flatMap { index in
                names.map { model.own[TableModel.key(index, $0)] }
            }
            #expect(fromChild == fromParent, "round \(round): child")
            container.withOverrides {
                New(Engine())
            } operation: {
                let copy = DIContainer.current
                let fromCopy = probes.indices.flatMap { index in
                    names.map { probes[index].resolved(from: copy, name: $0) }
                }
                #expect(fromCopy == fromParent, "round \(round): withOverrides copy")
                #expect(copy.registrations.count == model.entries.count + 1, "round \(round): copy")
            }
            let graph = container.dependencyGraph()
            #expect(graph.components(separatedBy: " [label=").count - 1 == model.entries.count, "round \(round)")
            #expect(container.validate().isValid, "round \(round)")
        }
        for round in 0..<300 {
            switch next(20) {
            case 0..<8:  // one registration (a new key or a replacement)
                let (index, name, aliased) = (next(probes.count), names[next(names.count)], next(3) == 0)
                counter += 1
                container.register(probes[index].module(name: name, value: counter, aliased: aliased))
                model.own[TableModel.key(index, name)] = counter
                if aliased { model.alias[name] = counter }
            case 8..<10:  // a batch of several, all in one call (the table grows in the middle)
                var modules: [Module] = []
                for _ in 0..<(1 + next(40)) {
                    let (index, name, aliased) = (next(probes.count), names[next(names.count)], next(4) == 0)
                    counter += 1
                    modules.append(probes[index].module(name: name, value: counter, aliased: aliased))
                    model.own[TableModel.key(index, name)] = counter
                    if aliased { model.alias[name] = counter }
                }
                container.register {
                    for module in modules { module }
                }
            case 10..<17:  // an own slot unregistered (its alias slot stays)
                let (index, name) = (next(probes.count), names[next(names.count)])
                let key = TableModel.key(index, name)
                #expect(probes[index].unregister(from: container, name: name) == (model.own[key] != nil))
                model.own[key] = nil
            case 17..<19:  // an alias slot unregistered
                let name = names[next(names.count)]
                #expect(container.unregister((any ModelMarker).self, name: name) == (model.alias[name] != nil))
                model.alias[name] = nil
            default:
                if next(6) == 0 {
                    container.reset()
                    model = TableModel()
                }
            }
            if round % 25 == 24 { check(round, deep: round % 150 == 149) }
        }
        check(300, deep: true)
    }
}
