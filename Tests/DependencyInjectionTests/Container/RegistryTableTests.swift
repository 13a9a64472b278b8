import DependencyInjection
import Testing

// The container's table of registrations (a hash table of its own): hundreds of distinct types,
// with and without names, registered, replaced, unregistered in a scrambled order and registered
// again, each resolving exactly while it is registered.

private struct Leaf {}
private struct Left<Path> {}
private struct Right<Path> {}

/// A service type of its own for each path; registers and resolves it under a name, or none.
private protocol TableProbe {
    func register(in container: DIContainer, name: String?, value: Int)
    func resolved(from container: DIContainer, name: String?) -> Int?
    func unregister(from container: DIContainer, name: String?) -> Bool
}

private struct Marker<Path>: TableProbe {
    let value: Int

    init(value: Int = 0) { self.value = value }

    func register(in container: DIContainer, name: String?, value: Int) {
        let registration = New { Marker<Path>(value: value) }
        container.register(name.map { registration.named($0) } ?? registration)
    }

    func resolved(from container: DIContainer, name: String?) -> Int? {
        (try? container.tryResolve(Marker<Path>.self, name: name))?.value
    }

    func unregister(from container: DIContainer, name: String?) -> Bool {
        container.unregister(Marker<Path>.self, name: name)
    }
}

/// `count` probes of distinct types.
private func probes(_ count: Int) -> [any TableProbe] {
    func build<Path>(_: Path.Type, bits: Int, depth: Int) -> any TableProbe {
        guard depth > 0 else { return Marker<Path>() }
        return bits & 1 == 0
            ? build(Left<Path>.self, bits: bits >> 1, depth: depth - 1)
            : build(Right<Path>.self, bits: bits >> 1, depth: depth - 1)
    }
    return (0..<count).map { build(Leaf.self, bits: $0, depth: 9) }
}

@Suite(.timeLimit(.minutes(1))) struct RegistryTableTests {
    @Test func keysResolveExactlyWhileRegisteredThroughRemovalsAndRegrowth() {
        let container = DIContainer()
        let all = probes(200)
        let names: [String?] = [nil, "a", "b"]
        var expected: [String: Int] = [:]
        func key(_ index: Int, _ name: String?) -> String { "\(index)/\(name ?? "-")" }
        for (index, probe) in all.enumerated() {
            for name in names {
                probe.register(in: container, name: name, value: index)
                expected[key(index, name)] = index
            }
        }
        #expect(container.registrations.count == 600)
        // Replacing one keeps the table's size and serves the new registration.
        all[7].register(in: container, name: "a", value: 700)
        expected[key(7, "a")] = 700
        // A scrambled half unregistered (a linear congruential sequence), then a quarter again.
        var state = 12_345
        for round in 0..<2 {
            for _ in 0..<(round == 0 ? 300 : 150) {
                state = (state &* 1_103_515_245 &+ 12_345) & 0x7fff_ffff
                let (index, name) = (state % 200, names[(state / 200) % 3])
                #expect(all[index].unregister(from: container, name: name) == (expected[key(index, name)] != nil))
                expected[key(index, name)] = nil
            }
            for (index, probe) in all.enumerated() {
                for name in names {
                    #expect(probe.resolved(from: container, name: name) == expected[key(index, name)])
                }
            }
            #expect(container.registrations.count == expected.count)
        }
        // Registered again: every key is served.
        for (index, probe) in all.enumerated() {
            for name in names where expected[key(index, name)] == nil {
                probe.register(in: container, name: name, value: index)
            }
        }
        #expect(
            all.indices.allSatisfy { index in names.allSatisfy { all[index].resolved(from: container, name: $0) != nil }
            })
        container.reset()
        #expect(all.allSatisfy { $0.resolved(from: container, name: nil) == nil })
        #expect(container.registrations.isEmpty)
    }
}
