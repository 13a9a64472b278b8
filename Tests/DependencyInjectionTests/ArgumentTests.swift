import DependencyInjection
import Testing

// Factories that take arguments supplied at resolution.

private final class Badge {
    let text: String
    init(_ text: String) { self.text = text }
}

private struct Everything: Equatable {
    let values: [String]
}

@Suite struct ArgumentTests {
    @Test func oneToTenArgumentsReachTheFactoryInOrder() {
        let box = DIContainer()
        box.register {
            New { _, a in [a] as [Int] }.named("1")
            New { _, a, b in [a, b] as [Int] }.named("2")
            New { _, a, b, c in [a, b, c] as [Int] }.named("3")
            New { _, a, b, c, d in [a, b, c, d] as [Int] }.named("4")
            New { _, a, b, c, d, e in [a, b, c, d, e] as [Int] }.named("5")
            New { _, a, b, c, d, e, f in [a, b, c, d, e, f] as [Int] }.named("6")
            New { _, a, b, c, d, e, f, g in [a, b, c, d, e, f, g] as [Int] }.named("7")
            New { _, a, b, c, d, e, f, g, h in [a, b, c, d, e, f, g, h] as [Int] }.named("8")
            New { _, a, b, c, d, e, f, g, h, i in [a, b, c, d, e, f, g, h, i] as [Int] }.named("9")
            New { _, a, b, c, d, e, f, g, h, i, j in [a, b, c, d, e, f, g, h, i, j] as [Int] }.named("10")
        }
        #expect(box.resolve([Int].self, name: "1") { 1 } == [1])
        #expect(box.resolve([Int].self, name: "2") { (1, 2) } == [1, 2])
        #expect(box.resolve([Int].self, name: "3") { (1, 2, 3) } == [1, 2, 3])
        #expect(box.resolve([Int].self, name: "4") { (1, 2, 3, 4) } == [1, 2, 3, 4])
        #expect(box.resolve([Int].self, name: "5") { (1, 2, 3, 4, 5) } == [1, 2, 3, 4, 5])
        #expect(box.resolve([Int].self, name: "6") { (1, 2, 3, 4, 5, 6) } == [1, 2, 3, 4, 5, 6])
        #expect(box.resolve([Int].self, name: "7") { (1, 2, 3, 4, 5, 6, 7) } == [1, 2, 3, 4, 5, 6, 7])
        #expect(box.resolve([Int].self, name: "8") { (1, 2, 3, 4, 5, 6, 7, 8) } == Array(1...8))
        #expect(box.resolve([Int].self, name: "9") { (1, 2, 3, 4, 5, 6, 7, 8, 9) } == Array(1...9))
        #expect(box.resolve([Int].self, name: "10") { (1, 2, 3, 4, 5, 6, 7, 8, 9, 10) } == Array(1...10))
    }

    @Test func tenArgumentsOfDifferentTypesKeepTheirTypes() {
        let box = DIContainer()
        box.register {
            New { (_, a: String, b: Int, c: Double, d: Bool, e: Character, f: [Int], g: Int8, h: UInt, i: Float, j: Badge) in
                Everything(values: ["\(a)", "\(b)", "\(c)", "\(d)", "\(e)", "\(f)", "\(g)", "\(h)", "\(i)", j.text])
            }
        }
        let badge = Badge("ten")
        let result = box.resolve(Everything.self) {
            ("a", 2, 3.5, true, Character("e"), [6], Int8(7), UInt(8), Float(9.5), badge)
        }
        #expect(result.values == ["a", "2", "3.5", "true", "e", "[6]", "7", "8", "9.5", "ten"])
    }

    @Test func theSeedSpellingsResolveWithArguments() {
        let box = DIContainer()
        box.register {
            New({ _, id in ConcreteViewModel(id: id) }, as: ViewModelProtocol.self)
            New { _, a, b, c in Presenter(a, b, c) as PresenterProtocol }
        }
        #expect(box.resolve(ViewModelProtocol.self, arguments: { "id_goes_here" }).id == "id_goes_here")
        #expect(box.resolve(ConcreteViewModel.self, arguments: { "itself" }).id == "itself")
        #expect(box.resolve(PresenterProtocol.self) { ("argument 1", 23, "argument 3") }.summary == "argument 1|23|argument 3")
    }

    @Test func newMakesOneInstancePerCall() {
        let box = DIContainer()
        box.register(New { _, text in Badge(text) })
        let first = box.resolve(Badge.self) { "same" }
        let second = box.resolve(Badge.self) { "same" }
        #expect(first !== second)
        #expect(box.resolve(Badge.self) { "other" }.text == "other")
    }

    @Test func sharedMadeWithArgumentsKeepsItsFirstInstance() {
        let box = DIContainer()
        box.register(Shared { _, text in Badge(text) })
        let first = box.resolve(Badge.self) { "first" }
        let second = box.resolve(Badge.self) { "second" }
        #expect(second === first)
        #expect(second.text == "first")
    }

    @Test func aFactoryPassesArgumentsToItsOwnDependencies() {
        final class Card {
            let badge: Badge
            init(badge: Badge) { self.badge = badge }
        }
        let box = DIContainer()
        box.register {
            New { _, text in Badge(text) }
            New { (resolve, text: String) in Card(badge: resolve(arguments: { text.uppercased() })) }
        }
        #expect(box.resolve(Card.self) { "nested" }.badge.text == "NESTED")
    }

    @Test func theStaticAPIAndTryResolveTakeArguments() throws {
        let box = DIContainer()
        box.register(New { _, text in Badge(text) })
        // Closure literals stay out of #expect here: inside an outer closure, Swift 6.3 gave a
        // closure in an #expect expansion and the next closure literal the same symbol.
        try box.activate {
            let resolved = DIContainer.resolve(Badge.self) { "static" }
            let tried = try DIContainer.tryResolve(Badge.self) { "try" }
            #expect(resolved.text == "static")
            #expect(tried.text == "try")
        }
    }

    @Test func aWrongArgumentCountNamesExpectedAndReceivedTypes() throws {
        let box = DIContainer()
        box.register(New { _, text in Badge(text) })
        let error = try #require(resolutionError { try box.tryResolve(Badge.self) { ("a", 1) } })
        #expect(error.reason == .argumentMismatch(expected: "(String)", received: "(String, Int)"))
        #expect(error.description.contains("expected (String), received (String, Int)"))
    }

    @Test func aWrongArgumentTypeNamesExpectedAndReceivedTypes() throws {
        let box = DIContainer()
        box.register(New { (_, text: String, count: Int) in Badge(text + "\(count)") })
        let error = try #require(resolutionError { try box.tryResolve(Badge.self) { (1, "a") } })
        #expect(error.reason == .argumentMismatch(expected: "(String, Int)", received: "(Int, String)"))
        #expect(error.typeName == "Badge")
    }

    @Test func noArgumentsForAFactoryThatNeedsThemIsAMismatch() throws {
        let box = DIContainer()
        box.register(New { _, text in Badge(text) })
        let error = try #require(resolutionError { try box.tryResolve(Badge.self) })
        #expect(error.reason == .argumentMismatch(expected: "(String)", received: "no arguments"))
    }

    @Test func argumentsForAFactoryWithoutParametersAreAMismatch() throws {
        let box = DIContainer()
        box.register(New(Badge("plain")))
        let error = try #require(resolutionError { try box.tryResolve(Badge.self) { "unexpected" } })
        #expect(error.reason == .argumentMismatch(expected: "no arguments", received: "(String)"))
        #expect(error.description.contains("resolve it without arguments"))
    }

    @Test func aMismatchLeavesASharedRegistrationUnmade() throws {
        let made = FactoryCallCounter()
        let box = DIContainer()
        box.register(Shared { (_, text: String) -> Badge in
            made.increment()
            return Badge(text)
        })
        _ = resolutionError { try box.tryResolve(Badge.self) { 42 } }
        #expect(made.value == 0)
        #expect(box.resolve(Badge.self) { "right" }.text == "right")
    }
}
