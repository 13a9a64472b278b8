import DependencyInjection
import Testing

// Factories that take arguments, supplied at resolution.

private final class Ten {
    let values: [Int]
    init(_ values: [Int]) { self.values = values }
}

private final class Mixed {
    let text: String
    init(_ text: String) { self.text = text }
}

private final class ArgumentSession { init() {} }
extension DIScope {
    fileprivate static let argumentSession = DIScope("argumentSession")
}

@Suite(.timeLimit(.minutes(1))) struct ArgumentTests {
    @Test func oneArgumentReachesTheFactory() throws {
        let box = DIContainer()
        box.register { New({ _, id in ConcreteViewModel(id: id) }, as: ViewModelProtocol.self) }
        #expect(try box.tryResolve(ViewModelProtocol.self, arguments: { "id_goes_here" }).id == "id_goes_here")
    }

    @Test func severalArgumentsOfDifferentTypesArriveInOrder() throws {
        let box = DIContainer()
        box.register { New { _, a, b, c in Presenter(a, b, c) as PresenterProtocol } }
        #expect(
            try box.tryResolve(PresenterProtocol.self) { ("argument 1", 23, "argument 3") }.summary
                == "argument 1|23|argument 3")
    }

    @Test func tenArgumentsWork() throws {
        let box = DIContainer()
        box.register {
            New { (_, a: Int, b: Int, c: Int, d: Int, e: Int, f: Int, g: Int, h: Int, i: Int, j: Int) in
                Ten([a, b, c, d, e, f, g, h, i, j])
            }
        }
        let ten = try box.tryResolve(Ten.self) { (1, 2, 3, 4, 5, 6, 7, 8, 9, 10) }
        #expect(ten.values == Array(1...10))
    }

    @Test func twelveArgumentsOfMixedTypesWork() throws {
        let box = DIContainer()
        box.register {
            New {
                (
                    _, a: Int, b: String, c: Double, d: Bool, e: Int, f: String, g: [Int], h: Int?, i: Int, j: String,
                    k: Character, l: UInt8
                ) in
                Mixed("\(a)\(b)\(c)\(d)\(e)\(f)\(g)\(h ?? 0)\(i)\(j)\(k)\(l)")
            }
        }
        let mixed = try box.tryResolve(Mixed.self) {
            (1, "b", 2.5, true, 5, "f", [7], Int?.some(8), 9, "j", Character("k"), UInt8(12))
        }
        #expect(mixed.text == "1b2.5true5f[7]89jk12")
    }

    @Test func newMakesOneInstancePerCallWithThatCallsArguments() throws {
        let box = DIContainer()
        box.register { New { (_, id: String) in ConcreteViewModel(id: id) } }
        let first = try box.tryResolve(ConcreteViewModel.self, arguments: { "1" })
        let second = try box.tryResolve(ConcreteViewModel.self, arguments: { "2" })
        #expect(first !== second)
        #expect([first.id, second.id] == ["1", "2"])
    }

    @Test func argumentFactoryResolvesFurtherDependencies() throws {
        let box = DIContainer()
        box.register {
            Shared(AppConfigurationImpl() as AppConfiguration)
            New { (resolve, id: String) in ConcreteViewModel(id: id + "@" + resolve(AppConfiguration.self).environment)
            }
        }
        #expect(try box.tryResolve(ConcreteViewModel.self, arguments: { "42" }).id == "42@production")
    }

    @Test func argumentsPassThroughTheResolverOfAnotherFactory() throws {
        let box = DIContainer()
        box.register {
            New { (_, id: String) in ConcreteViewModel(id: id) }
            New { resolve in Pair(resolve(ConcreteViewModel.self, arguments: { "inner" }), 0) }
        }
        #expect(try box.tryResolve(Pair<ConcreteViewModel, Int>.self).first.id == "inner")
    }

    @Test func tryResolveWithArgumentsReturnsTheInstance() throws {
        let box = DIContainer()
        box.register { New { (_, id: String) in ConcreteViewModel(id: id) } }
        #expect(try box.tryResolve(ConcreteViewModel.self, arguments: { "ok" }).id == "ok")
    }

    @Test func aScopedRegistrationWithArgumentsKeepsItsFirstInstanceUntilItsScopeIsReleased() {
        let box = DIContainer()
        box.register { Scoped(.argumentSession) { (_, region: String) in ArgumentSession() } }
        let first = box.resolve(ArgumentSession.self, arguments: { "eu" })
        #expect(box.resolve(ArgumentSession.self, arguments: { "us" }) === first)
        box.releaseInstances(in: .argumentSession)
        #expect(box.resolve(ArgumentSession.self, arguments: { "us" }) !== first)
    }
}

@Suite(.timeLimit(.minutes(1))) struct ArgumentMismatchTests {
    private func container() -> DIContainer {
        let box = DIContainer()
        box.register {
            New { (_, id: String) in ConcreteViewModel(id: id) }
            New { (_, a: String, b: Int, c: String) in Presenter(a, b, c) }
            Shared(Engine.init)
        }
        return box
    }

    /// A resolution with the wrong arguments, and the mismatch it must report.
    struct Mismatch: Sendable, CustomTestStringConvertible {
        let label: String
        let resolve: @Sendable (DIContainer) throws -> Void
        let expected: String
        let received: String
        var testDescription: String { label }
    }

    static let mismatches = [
        Mismatch(
            label: "a wrong type", resolve: { _ = try $0.tryResolve(ConcreteViewModel.self, arguments: { 42 }) },
            expected: "(String)", received: "(Int)"),
        Mismatch(
            label: "too few", resolve: { _ = try $0.tryResolve(Presenter.self) { ("a", 1) } },
            expected: "(String, Int, String)", received: "(String, Int)"),
        Mismatch(
            label: "the wrong order", resolve: { _ = try $0.tryResolve(Presenter.self) { (1, "a", "b") } },
            expected: "(String, Int, String)", received: "(Int, String, String)"),
        Mismatch(
            label: "none for a factory that needs them", resolve: { _ = try $0.tryResolve(ConcreteViewModel.self) },
            expected: "(String)", received: "no arguments"),
        Mismatch(
            label: "some for a factory that takes none",
            resolve: { _ = try $0.tryResolve(Engine.self, arguments: { "unexpected" }) },
            expected: "no arguments", received: "(String)"),
    ]

    @Test(arguments: mismatches)
    func wrongArgumentsNameTheExpectedAndReceivedTypes(_ mismatch: Mismatch) throws {
        let error = try #require(throws: ResolutionError.self) { try mismatch.resolve(container()) }
        #expect(error.reason == .argumentMismatch(expected: mismatch.expected, received: mismatch.received))
        #expect(
            error.description.hasPrefix(
                "Wrong arguments for '\(error.typeName)': expected \(mismatch.expected), received \(mismatch.received)."
            ))
    }

    @Test func mismatchInsideAFactoryCarriesThePath() throws {
        let box = container()
        box.register {
            Shared { resolve in try Pair(resolve.tryResolve(ConcreteViewModel.self, arguments: { 1 }), 0) }
        }
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(Pair<ConcreteViewModel, Int>.self) }
        #expect(error.path == ["Pair<ConcreteViewModel, Int>", "ConcreteViewModel"])
    }

    @Test func aMismatchLeavesTheRegistrationUsable() throws {
        let box = container()
        _ = try? box.tryResolve(ConcreteViewModel.self, arguments: { 42 })
        #expect(try box.tryResolve(ConcreteViewModel.self, arguments: { "fine" }).id == "fine")
    }
}

@Suite(.timeLimit(.minutes(1))) struct ArgumentHintTests {
    @Test func aMismatchOfANamedRegistrationSaysHowToResolveThatName() throws {
        let box = DIContainer()
        box.register { New { (_: Resolver, id: String) in Engine() }.named("detail") }
        let error = try #require(throws: ResolutionError.self) {
            try box.tryResolve(Engine.self, name: "detail", arguments: { 1 })
        }
        #expect(
            error.description.hasSuffix(
                "To fix, pass arguments of the registered types (String): "
                    + "container.resolve(Engine.self, name: \"detail\") { … }."))
    }

    @Test func aConcreteArgumentForAnExistentialParameterSaysToPassItAsTheExistential() throws {
        let box = DIContainer()
        box.register { New { (_: Resolver, shape: any Outline) in Drawing(shape) } }
        let error = try #require(throws: ResolutionError.self) {
            try box.tryResolve(Drawing.self, arguments: { Square() })
        }
        #expect(
            error.description.hasSuffix(
                "To fix, pass the argument as the registered existential type: "
                    + "container.resolve(Drawing.self) { Square() as any Outline }."))
        #expect(try box.tryResolve(Drawing.self, arguments: { Square() as any Outline }).shape is Square)
    }
}

private protocol Outline {}
private struct Square: Outline {}
private final class Drawing {
    let shape: any Outline
    init(_ shape: any Outline) { self.shape = shape }
}
