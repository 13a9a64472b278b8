import DependencyInjection
import Testing

/// The registrations `validate()` reports as duplicates, in order, each with the two lines it
/// names relative to the first line any of them names.
private func describe(_ box: DIContainer) -> String {
    let problems = box.validate().problems.map { problem in
        let lines = problem.error.description.split(separator: "DuplicateReportingTests.swift:").dropFirst()
            .map { Int($0.prefix { $0.isNumber })! }
        return (problem.registration, lines)
    }
    let first = problems.flatMap(\.1).min() ?? 0
    return problems.map { "\($0.0) \($0.1.map { String($0 - first) }.joined(separator: ">"))" }
        .joined(separator: ", ")
}

@Suite(.timeLimit(.minutes(1))) struct DuplicateReportingTests {
    // Compared with the duplicate reporting before `install` found duplicates from replaced slots
    // (c1bd1ac, a dictionary of the call's keys): the same reports, scenario by scenario.
    @Test func duplicatesInOneCallAreReportedAsBeforeAndNothingElseIs() throws {
        var out: [String] = []
        do {  // 1 three in a row
            let box = DIContainer()
            box.register {
                Shared(MemoryStore() as Store)
                New(PostgresStore() as Store)
                Shared(MemoryStore() as Store)
            }
            out.append("1 " + describe(box))
        }
        do {  // 2 alias vs own type
            let box = DIContainer()
            box.register {
                Shared(RouterImpl.init, as: Router.self, DeeplinkHandler.self)
                New(MockRouter() as Router)
            }
            out.append("2 " + describe(box))
        }
        do {  // 3 own type then alias
            let box = DIContainer()
            box.register {
                New(MockRouter() as Router)
                Shared(RouterImpl.init, as: Router.self, DeeplinkHandler.self)
            }
            out.append("3 " + describe(box))
        }
        do {  // 4 loop: same line
            let box = DIContainer()
            box.register {
                for _ in 0..<3 { New(Engine()) }
            }
            out.append("4 " + describe(box))
        }
        do {  // 5 module twice, module with two of the same
            let feature = Module {
                Shared(MemoryStore() as Store)
                New(PostgresStore() as Store)
            }
            let box = DIContainer()
            box.register {
                feature
                feature
            }
            out.append("5 " + describe(box))
        }
        do {  // 6 separate calls, after reset, named
            let box = DIContainer()
            box.register { Shared(MemoryStore() as Store) }
            box.register {
                New(PostgresStore() as Store)
                New(Engine())
            }
            box.reset()
            box.register {
                New(PostgresStore() as Store).named("a")
                New(MemoryStore() as Store).named("a")
                New(MemoryStore() as Store).named("b")
            }
            out.append("6 " + describe(box))
        }
        do {  // 7 withOverrides: a copy's registrations replaced, and a duplicate in the overrides
            let box = DIContainer()
            box.register {
                Shared(MemoryStore() as Store)
                New(Engine())
            }
            box.withOverrides {
                New(PostgresStore() as Store)
                New(Engine())
                New(Engine())
            } operation: {
                out.append("7 " + describe(DIContainer.current))
            }
        }
        do {  // 8 eager failure, then the same call again
            let box = DIContainer()
            box.register { New(Engine()) }
            let failing = {
                Module {
                    Shared(MemoryStore() as Store)
                    Shared { _ -> Session in throw Offline() }.eager()
                    New(PostgresStore() as Store)
                }
            }
            _ = try? box.tryRegister(failing())
            box.register {
                New(Engine())
                New(ImageCache())
            }
            out.append("8 " + describe(box))
        }
        do {  // 9 alias of one, alias of another
            let box = DIContainer()
            box.register {
                Shared(RouterImpl.init, as: Router.self)
                Shared(ConfiguredRouterMaker.make, as: Router.self)
            }
            out.append("9 " + describe(box))
        }
        do {  // 10 child with parent's same type
            let parent = DIContainer()
            parent.register { New(Engine()) }
            let child = DIContainer(parent: parent)
            child.register {
                New(Engine())
                New(ImageCache())
            }
            out.append("10 " + describe(child))
        }
        #expect(
            out == [
                "1 Store 0>1, Store 1>2", "2 Router 0>1", "3 Router 0>1", "4 ", "5 Store 0>1, Store 1>0, Store 0>1",
                "6 Store (name: \"a\") 0>1", "7 Engine 0>1", "8 ", "9 Router 0>1", "10 ",
            ])
    }
}

private enum ConfiguredRouterMaker {
    static func make() -> MockRouter { MockRouter() }
}
