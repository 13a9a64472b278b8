import DependencyInjection
import Foundation
import Testing

// Chains of dependencies deeper than any small fixed buffer: 20 and 1,000 distinct types, each
// made by a factory that resolves the next, and a cycle that closes only after a dozen steps.

/// One link of a chain: `Step<Step<…<ChainEnd>>>`, each level a type of its own.
private protocol ChainLink: AnyObject {
    /// How many links stand below this one.
    var depth: Int { get }
    /// Registers this link's factory, which resolves the next link.
    static func register(in container: DIContainer)
}

private final class ChainEnd: ChainLink {
    var depth: Int { 0 }
    init() {}
    static func register(in container: DIContainer) { container.register(Shared(ChainEnd.init)) }
}

private final class Step<Next: ChainLink>: ChainLink {
    let next: Next
    init(next: Next) { self.next = next }
    var depth: Int { next.depth + 1 }
    static func register(in container: DIContainer) {
        container.register(New { resolve in try Step(next: resolve.tryResolve()) })
    }
}

/// `Step<Next>` for a `Next` known only at run time (the existential is opened here).
private func step<Next: ChainLink>(after _: Next.Type) -> any ChainLink.Type { Step<Next>.self }

private func resolveLink<Link: ChainLink>(_ type: Link.Type, from container: DIContainer) throws -> any ChainLink {
    try container.tryResolve(type)
}

/// Registers a chain of `steps` links above `ChainEnd` (and `ChainEnd` itself if asked), and
/// returns the type at its top.
private func registerChain(of steps: Int, in container: DIContainer, withEnd: Bool = true) -> any ChainLink.Type {
    if withEnd { ChainEnd.register(in: container) }
    var top: any ChainLink.Type = ChainEnd.self
    for _ in 0..<steps {
        top = step(after: top)
        top.register(in: container)
    }
    return top
}

/// Links registered as `New`, each named after its place in a ring: link `i` needs link `i + 1`,
/// and the last one needs the first.
private final class RingLink {
    init(next: RingLink) {}
}

@Suite(.timeLimit(.minutes(1))) struct ChainDepthTests {
    @Test(
        .disabled(
            if: runsUnderAddressSanitizer, "AddressSanitizer: the stack left cannot be measured on its fake stack"),
        arguments: [20, 500])
    func aChainOfDistinctTypesResolvesToTheBottom(steps: Int) async throws {
        // Every link is a nested resolution, and the test's own thread may have a small stack (512 KB
        // on Apple platforms).
        let outcome = try #require(
            await onThread(stackSize: 64 << 20) {
                Result { () throws -> Int in
                    let container = DIContainer()
                    let top = registerChain(of: steps, in: container)
                    return try resolveLink(top, from: container).depth
                }
            }, "resolving a chain of \(steps) did not finish")
        #expect(try outcome.get() == steps)
    }

    @Test func aMissingBottomOfADeepChainIsReportedWithTheWholePath() throws {
        let container = DIContainer()
        let top = registerChain(of: 20, in: container, withEnd: false)
        let error = try #require(throws: ResolutionError.self) { try resolveLink(top, from: container) }
        #expect(error.reason == .missingRegistration)
        #expect(error.typeName == "ChainEnd")
        #expect(error.path.count == 21)
        #expect(error.path.first == String(describing: top))
        #expect(error.path.dropLast().allSatisfy { $0.hasPrefix("Step<") })
        #expect(error.path.last == "ChainEnd")
        // The container is not left mid-resolution: with its bottom in place the chain resolves.
        ChainEnd.register(in: container)
        #expect(try resolveLink(top, from: container).depth == 20)
    }

    @Test func validateResolvesEveryLinkOfADeepChain() {
        let container = DIContainer()
        _ = registerChain(of: 20, in: container)
        let report = container.validate()
        #expect(report.isValid, "\(report)")
        #expect(report.validCount == 21)
    }

    @Test func aCycleThatClosesAfterADozenStepsListsEveryStep() throws {
        let size = 12
        let container = DIContainer()
        for index in 0..<size {
            container.register(
                New { resolve in try RingLink(next: resolve.tryResolve(name: "\((index + 1) % size)")) }.named(
                    "\(index)"))
        }
        let error = try #require(throws: ResolutionError.self) { try container.tryResolve(RingLink.self, name: "0") }
        let steps = (0...size).map { "RingLink (name: \"\($0 % size)\")" }
        #expect(error.reason == .dependencyCycle(cycle: steps))
        #expect(error.path == steps)
        #expect(error.description.hasPrefix("Dependency cycle: " + steps.joined(separator: " -> ") + "."))
    }
}
