import Benchmark
import Dependencies
import DependencyInjection
import Swinject

// Thousands of distinct types without thousands of declarations: `Leaf<B0<B1<B1<End>>>>` and its
// siblings, one per binary path. Swift instantiates generic metadata at run time, so a recursive
// generic function reaches as many distinct types as it likes, and every implementation registers
// and resolves them from generic code in this module, as an app's generic helpers would.

enum End {}
enum B0<Rest> {}
enum B1<Rest> {}

/// The service registered under each distinct type.
final class Leaf<Path>: Sendable {
    init() {}
}

/// swift-dependencies' key for `Leaf<Path>` (a generic key type: one cached value per type).
enum LeafKey<Path>: DependencyKey {
    static var liveValue: Leaf<Path> { Leaf<Path>() }
}

/// Registers and resolves `Leaf<Path>` in each kind of container; made once per type ahead of
/// timing, so the timed loops only call through these (a witness-table call into generic code, the
/// same for all).
protocol DistinctType: Sendable {
    func register(in container: DIContainer)
    func register(in dictionary: ClosureDictionary)
    func register(in registry: TypeKeyedRegistry)
    func register(in container: Swinject.Container)
    func resolve(from container: DIContainer) -> AnyObject
    func resolve(from registry: TypeKeyedRegistry) -> AnyObject
    func resolve(from resolver: Swinject.Resolver) -> AnyObject
    func resolveDependency() -> AnyObject
    /// Makes `Leaf<Path>`'s own metadata, as an app's non-generic service class has it from launch.
    func makeServiceMetadata()
}

struct DistinctLeaf<Path>: DistinctType {
    func register(in container: DIContainer) {
        container.register(Shared(Leaf<Path>.init))
    }

    func register(in dictionary: ClosureDictionary) {
        dictionary.register(Leaf<Path>.self) { Leaf<Path>() }
    }

    func register(in registry: TypeKeyedRegistry) {
        registry.register(Leaf<Path>.self) { Leaf<Path>() }
    }

    func register(in container: Swinject.Container) {
        container.register(Leaf<Path>.self) { _ in Leaf<Path>() }.inObjectScope(.container)
    }

    func resolve(from container: DIContainer) -> AnyObject {
        container.resolve(Leaf<Path>.self)
    }

    func resolve(from registry: TypeKeyedRegistry) -> AnyObject {
        registry.resolve(Leaf<Path>.self)
    }

    func resolve(from resolver: Swinject.Resolver) -> AnyObject {
        resolver.resolve(Leaf<Path>.self)!
    }

    func resolveDependency() -> AnyObject {
        @Dependency(LeafKey<Path>.self) var leaf
        return leaf
    }

    func makeServiceMetadata() {
        blackHole(Leaf<Path>.self)
    }
}

/// `count` distinct types (up to 2^16), always the same ones in a process: the first `count`
/// paths of depth 16.
func distinctTypes(_ count: Int) -> [any DistinctType] {
    var types: [any DistinctType] = []
    types.reserveCapacity(count)
    func walk<Path>(_ path: Path.Type, depth: Int) {
        guard types.count < count else { return }
        if depth == 16 {
            types.append(DistinctLeaf<Path>())
            return
        }
        walk(B0<Path>.self, depth: depth + 1)
        walk(B1<Path>.self, depth: depth + 1)
    }
    walk(End.self, depth: 0)
    return types
}

/// Hands out types never seen before in this process: number `n` is the path of depth 15 spelled
/// by `n`'s bits (a family apart from `distinctTypes`' depth 16), so no number, and no type, comes
/// twice; 32,768 in all. Building one instantiates its path's enum metadata and `DistinctLeaf<Path>`, and
/// `makeServiceMetadata()` makes `Leaf<Path>`'s; nothing a container makes for the type exists yet.
final class FreshTypes {
    private var next = 0

    func take(_ count: Int) -> [any DistinctType] {
        func build<Path>(_ path: Path.Type, _ bits: Int, _ depth: Int) -> any DistinctType {
            if depth == 0 { return DistinctLeaf<Path>() }
            return bits & 1 == 0
                ? build(B0<Path>.self, bits >> 1, depth - 1) : build(B1<Path>.self, bits >> 1, depth - 1)
        }
        precondition(next + count <= 1 << 15, "out of fresh types")
        let types = (next..<next + count).map { build(End.self, $0, 15) }
        next += count
        for type in types { type.makeServiceMetadata() }
        return types
    }
}
