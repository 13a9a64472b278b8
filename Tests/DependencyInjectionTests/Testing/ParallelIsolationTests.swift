import DependencyInjectionTesting
import Testing

// Swift Testing runs these cases in parallel in one process. Each case overrides the same
// dependency (`Greeting`) with a value carrying its own index, and checks across suspensions,
// in child tasks, through every property wrapper and through a nested `Shared` factory that it
// only ever sees its own. The random sleeps only perturb the interleaving; nothing waits on them.

/// A random suspension of up to 200 µs, so the cases interleave differently on every run.
private func perturb() async throws {
    try await Task.sleep(nanoseconds: UInt64.random(in: 0...200_000))
}

/// Checks, several times across suspensions, that every route to `Greeting` gives case `index`.
private func expectOnlyOwnGreeting(_ index: Int) async throws {
    let first = DIContainer.resolve(Greeting.self)
    for _ in 0..<5 {
        try await perturb()
        #expect((DIContainer.resolve(Greeting.self) as? CaseGreeting)?.index == index)
        #expect(greetingIndices(in: WelcomeScreen()) == Array(repeating: index, count: 5))
        let inChildTask = await Task { (DIContainer.resolve(Greeting.self) as? CaseGreeting)?.index }.value
        #expect(inChildTask == index)
        async let inAsyncLet = (DIContainer.resolve(Welcome.self).greeting as? CaseGreeting)?.index
        #expect(await inAsyncLet == index)
    }
    if first is CaseGreeting, (first as? CaseGreeting)?.index == index, DIContainer.resolve(Greeting.self) === first {
        return  // a `Shared` override: the same instance throughout
    }
    #expect(DIContainer.resolve(Greeting.self) !== first, "a `New` override makes a new instance every time")
}

/// The welcome service every case resolves: a `Shared` built from the case's own greeting.
@Suite(.dependencies { Shared { resolve in Welcome(greeting: resolve()) } }, .timeLimit(.minutes(1)))
struct ParallelIsolationTests {
    @Test(arguments: 0..<200)
    func eachCaseOnlyEverSeesItsOwnOverride(index: Int) async throws {
        try await perturb()
        if index.isMultiple(of: 2) {
            DIContainer.register(Shared(CaseGreeting(index: index) as Greeting))
        } else {
            DIContainer.register(New(CaseGreeting(index: index) as Greeting))
        }
        try await expectOnlyOwnGreeting(index)
    }

    @Test(arguments: 0..<200)
    func eachWithOverridesOnlyEverSeesItsOwnOverride(index: Int) async throws {
        try await perturb()
        try await DIContainer.withOverrides {
            if index.isMultiple(of: 2) {
                Shared(CaseGreeting(index: index) as Greeting)
            } else {
                New(CaseGreeting(index: index) as Greeting)
            }
        } operation: {
            try await expectOnlyOwnGreeting(index)
        }
        #expect(!(DIContainer.resolve(Greeting.self) is CaseGreeting), "the override ends with the operation")
    }
}

/// No trait here: these tests resolve from `shared` while the cases above override `Greeting`.
@Suite(.timeLimit(.minutes(1))) struct ProductionVisibilityTests {
    @Test(arguments: 0..<20)
    func aTestWithoutTheTraitSeesProductionThroughout(round: Int) async throws {
        for _ in 0..<10 {
            try await perturb()
            #expect(DIContainer.current === DIContainer.shared)
            #expect(DIContainer.resolve(Greeting.self) is ProductionGreeting)
            #expect(WelcomeScreen.productionGreetings().allSatisfy { $0 is ProductionGreeting })
        }
    }

    @Test func overridingTasksAndProductionTasksInterleaveWithoutLeaking() async throws {
        // Here the overlap is certain: all of these tasks run in one task group at once.
        let leaks = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<200 {
                group.addTask {
                    try await DIContainer.withOverrides {
                        New(CaseGreeting(index: index) as Greeting)
                    } operation: { () async throws -> Int in
                        var leaks = 0
                        for _ in 0..<3 {
                            try await perturb()
                            if (DIContainer.resolve(Greeting.self) as? CaseGreeting)?.index != index { leaks += 1 }
                        }
                        return leaks
                    }
                }
            }
            for _ in 0..<50 {
                group.addTask {
                    var leaks = 0
                    for _ in 0..<3 {
                        try await perturb()
                        if !(DIContainer.resolve(Greeting.self) is ProductionGreeting) { leaks += 1 }
                    }
                    return leaks
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(leaks == 0)
    }
}

extension WelcomeScreen {
    /// The greetings a `WelcomeScreen` gets from `shared`, through each of its wrappers.
    fileprivate static func productionGreetings() -> [Greeting] {
        // `Welcome` is not registered in production; the screen's lazy `welcome` is not touched.
        let screen = WelcomeScreen()
        return [screen.greeting, screen.lazyGreeting, screen.mutableGreeting, screen.mutableLazyGreeting]
    }
}
