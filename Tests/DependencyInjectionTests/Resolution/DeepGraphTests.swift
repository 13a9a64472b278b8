import DependencyInjection
import Foundation
import Testing

// Deep and wide graphs: long chains resolve, chains and cycles longer than
// `Resolution.maximumDepth` are errors rather than stack overflows, and a factory with thousands
// of dependencies costs linear time. The same on a thread with a 512 KiB stack: `TrapScenarioTests`
// (in a process of its own, so that an overflow fails one test, not the whole run).

/// One link of a chain of named registrations.
private final class Link {
    let next: Link?
    init(next: Link?) { self.next = next }

    var length: Int {
        var count = 1
        var link = next
        while let current = link {
            count += 1
            link = current.next
        }
        return count
    }
}

private final class Leaf {}
private final class Hub {
    let leaves: [Leaf]
    init(leaves: [Leaf]) { self.leaves = leaves }
}

/// Registers links named "0" to "count - 1", each resolving the next one with `tryResolve`; the
/// last one ends the chain, or resolves "0" when `cycle`.
private func chain(of count: Int, cycle: Bool = false) -> DIContainer {
    let box = DIContainer()
    box.register {
        for index in 0..<count {
            if index == count - 1 && !cycle {
                New { _ in Link(next: nil) }.named("\(index)")
            } else {
                New { resolve in try Link(next: resolve.tryResolve(Link.self, name: "\((index + 1) % count)")) }
                    .named("\(index)")
            }
        }
    }
    return box
}

/// Registers `count` named leaves and a `Hub` whose factory resolves every one of them.
private func hub(of count: Int) -> DIContainer {
    let box = DIContainer()
    box.register {
        for index in 0..<count {
            New(Leaf()).named("\(index)")
        }
        New { resolve in
            try Hub(leaves: (0..<count).map { try resolve.tryResolve(Leaf.self, name: "\($0)") })
        }
    }
    return box
}

/// The `tooDeep` error of resolving link "0", as the tests expect it.
private func expectTooDeep(_ error: ResolutionError?, sourceLocation: SourceLocation = #_sourceLocation) {
    let isTooDeep = if case .tooDeep = error?.reason { true } else { false }
    #expect(isTooDeep, "\(String(describing: error))", sourceLocation: sourceLocation)
    #expect(error?.typeName == "Link", sourceLocation: sourceLocation)
    #expect(error?.path.first == "Link (name: \"0\")", sourceLocation: sourceLocation)
    #expect(error?.description.contains("nested steps") == true, sourceLocation: sourceLocation)
}

@Suite(.timeLimit(.minutes(1))) struct DeepGraphTests {
    @Test func chainOf150DistinctRegistrationsResolves() throws {
        let box = chain(of: 150)
        #expect(try box.tryResolve(Link.self, name: "0").length == 150)
        #expect(box.resolve(Link.self, name: "0").length == 150)
    }

    @Test func chainOf150NestedGenericTypesResolves() throws {
        let box = DIContainer()
        registerNestedChain(in: box)
        let top = try box.tryResolve(Chain150.self)
        #expect(top.depth == 150)
    }

    @Test(
        .disabled(
            if: runsUnderAddressSanitizer, "AddressSanitizer: the stack left cannot be measured on its fake stack"))
    func chainLongerThanTheMaximumDepthIsTooDeepNotAStackOverflow() {
        let box = chain(of: 1_200)
        expectTooDeep(resolutionError { _ = try box.tryResolve(Link.self, name: "0") })
        // Nothing stayed marked as being made: the short end of the chain still resolves.
        #expect(box.resolve(Link.self, name: "1100").length == 100)
    }

    @Test(
        .disabled(
            if: runsUnderAddressSanitizer, "AddressSanitizer: the stack left cannot be measured on its fake stack"))
    func cycleThroughMoreRegistrationsThanTheMaximumDepthIsTooDeepNotAStackOverflow() {
        let box = chain(of: 1_500, cycle: true)
        expectTooDeep(resolutionError { _ = try box.tryResolve(Link.self, name: "0") })
    }

    @Test(
        .disabled(
            if: runsUnderAddressSanitizer, "AddressSanitizer: the stack left cannot be measured on its fake stack"))
    func validateReportsALongCycleThroughEveryRegistrationOfIt() async throws {
        // Every probe fails after 250 steps; a failure that deep costs milliseconds in a debug build.
        let box = chain(of: 250, cycle: true)
        let report = try #require(await onThread(timeout: 50) { box.validate() })
        #expect(report.problems.count == 250)
        #expect(
            report.problems.allSatisfy {
                if case .dependencyCycle(let cycle) = $0.error.reason { cycle.count == 251 } else { false }
            })
    }

    @Test func factoryWithFourThousandDependenciesResolvesInLinearTime() throws {
        let count = 4_000
        let box = hub(of: count)
        var sizes: [Int] = []
        let elapsed = try ContinuousClock().measure {
            for _ in 0..<20 { sizes.append(try box.tryResolve(Hub.self).leaves.count) }
        }
        #expect(sizes == Array(repeating: count, count: 20))
        // 80,000 resolutions: well under a second when linear; minutes if each one scanned the
        // edges recorded so far. Loose, for slow and sanitized runs.
        #expect(elapsed < .seconds(20), "\(elapsed)")
        #expect(edgeCount(box.dependencyGraph()) == count)
    }

    @Test func validateRecordsFourThousandEdges() async throws {
        let count = 4_000
        let box = hub(of: count)
        let report = try #require(await onThread { box.validate() })
        #expect(report.isValid)
        #expect(report.validCount == count + 1)
        #expect(edgeCount(box.dependencyGraph()) == count)
    }
}

private func edgeCount(_ dot: String) -> Int {
    dot.split(separator: "\n").count { $0.contains(" -> ") }
}

// MARK: - 150 distinct types

/// A distinct type per level: `Nested<Nested<…<Bottom>>>`.
private protocol ChainLevel {
    static var depth: Int { get }
}
private final class Bottom: ChainLevel {
    static var depth: Int { 1 }
    init() {}
}
private final class Nested<Next: ChainLevel>: ChainLevel {
    static var depth: Int { Next.depth + 1 }
    let next: Next
    init(next: Next) { self.next = next }
    var depth: Int { Self.depth }
}

private typealias Nested10<T: ChainLevel> = Nested<
    Nested<Nested<Nested<Nested<Nested<Nested<Nested<Nested<Nested<T>>>>>>>>>
>
private typealias Nested50<T: ChainLevel> = Nested10<Nested10<Nested10<Nested10<Nested10<T>>>>>
private typealias Nested9<T: ChainLevel> = Nested<Nested<Nested<Nested<Nested<Nested<Nested<Nested<Nested<T>>>>>>>>>
/// 149 levels of `Nested` above `Bottom`: 150 registrations.
private typealias Chain150 = Nested50<Nested50<Nested10<Nested10<Nested10<Nested10<Nested9<Bottom>>>>>>>

/// Registers `Bottom` and `Nested<T>` for every level of `Chain150`, each resolving the level below.
private func registerNestedChain(in box: DIContainer) {
    box.register { New { _ in Bottom() } }
    func register<T: ChainLevel>(_: T.Type, upTo remaining: Int) {
        guard remaining > 0 else { return }
        box.register { New { resolve in try Nested<T>(next: resolve.tryResolve(T.self)) } }
        register(Nested<T>.self, upTo: remaining - 1)
    }
    register(Bottom.self, upTo: 149)
}

@Suite(.timeLimit(.minutes(1)))
struct SmallStackTests {
    /// 128 KiB is musl's default thread stack, 512 KiB Apple's for secondary threads.
    @Test(arguments: [128 << 10, 192 << 10, 512 << 10])
    func aFactoryRunsOnAThreadWithASmallStack(stackSize: Int) async {
        let box = DIContainer()
        box.register {
            Shared(Engine.init)
            New { resolve in Pair(resolve(Engine.self), 1) }
        }
        let outcome = await onThread(stackSize: stackSize) { () -> String in
            do {
                _ = try box.tryResolve(Pair<Engine, Int>.self)
                return "ok"
            } catch {
                return "\(error)"
            }
        }
        #expect(outcome == "ok")
    }
}
