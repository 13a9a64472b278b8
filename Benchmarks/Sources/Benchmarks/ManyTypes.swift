import DependencyInjection
import Swinject

// Thousands of distinct types without thousands of declarations: `Leaf<B0<B1<B1<End>>>>` and its
// siblings, one per binary path. Swift instantiates generic metadata at run time, so a recursive
// generic function reaches as many distinct types as it likes.

enum End {}
enum B0<Rest> {}
enum B1<Rest> {}

/// The service registered under each distinct type.
final class Leaf<Path>: Sendable {
    init() {}
}

/// Registers `Leaf<Path>` in each kind of container; made once per type ahead of timing, so the
/// timed loops only call through these (a witness-table call into generic code, same for all).
protocol DistinctType {
    func register(in container: DIContainer)
    func register(in dictionary: ClosureDictionary)
    func register(in container: Swinject.Container)
}

struct DistinctLeaf<Path>: DistinctType {
    func register(in container: DIContainer) {
        container.register(Shared(Leaf<Path>.init))
    }

    func register(in dictionary: ClosureDictionary) {
        dictionary.register(Leaf<Path>.self) { Leaf<Path>() }
    }

    func register(in container: Swinject.Container) {
        container.register(Leaf<Path>.self) { _ in Leaf<Path>() }.inObjectScope(.container)
    }
}

/// `count` distinct types (up to 2^16).
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
