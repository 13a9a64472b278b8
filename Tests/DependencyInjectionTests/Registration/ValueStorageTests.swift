import DependencyInjection
import Foundation
import Testing

// How the container keeps the values it makes, whatever their type: over-aligned, empty, large,
// existential, optional, enum; and that each one it keeps is released once, after the lock.

private protocol Shape { var sides: Int { get } }
private protocol Named: AnyObject { var name: String { get } }
private struct Square: Shape { let sides = 4 }
private final class Person: Named, Shape {
    let name = "Ada"
    let sides = 0
}
private struct Empty: Equatable {}
private enum Mode: Equatable {
    case vector(SIMD4<Double>)
    case text(String)
    case none
}
private struct Callback { let run: (Int) -> Int }

private typealias Token = DeinitLockProbe

/// A large value type (more than 500 bytes) holding a class instance.
private struct Large {
    let vector = SIMD64<Int>(repeating: 7)
    let wide = SIMD8<Float>(1, 2, 3, 4, 5, 6, 7, 8)
    let token: Token
}

@Suite(.timeLimit(.minutes(1)))
struct ValueStorageTests {
    @Test func overAlignedEmptyAndLargeValuesRoundTrip() throws {
        let box = DIContainer()
        let log = Guarded<[Bool]>([])
        box.register {
            Shared(SIMD4<Double>(1, 2, 3, 4))
            New(SIMD8<Float>(repeating: 0.5))
            New(SIMD16<UInt8>(repeating: 9))
            Shared(())
            New(Empty())
            Shared { Large(token: Token(log)) }
            New(Mode.vector(SIMD4(5, 6, 7, 8)))
            New(Mode.text("payload")).named("text")
            New(Mode.none).named("none")
        }
        #expect(try box.tryResolve(SIMD4<Double>.self) == SIMD4(1, 2, 3, 4))
        #expect(try box.tryResolve(SIMD8<Float>.self) == SIMD8(repeating: 0.5))
        #expect(try box.tryResolve(SIMD16<UInt8>.self) == SIMD16(repeating: 9))
        try box.tryResolve(Void.self)
        #expect(try box.tryResolve(Empty.self) == Empty())
        let large = try box.tryResolve(Large.self)
        #expect(large.vector == SIMD64(repeating: 7) && large.wide[7] == 8)
        #expect(try box.tryResolve(Mode.self) == .vector(SIMD4(5, 6, 7, 8)))
        #expect(try box.tryResolve(Mode.self, name: "text") == .text("payload"))
        #expect(try box.tryResolve(Mode.self, name: "none") == Mode.none)
    }

    @Test func existentialsMetatypesAndClosuresRoundTrip() throws {
        let box = DIContainer()
        let person = Person()
        box.register {
            Shared(Square() as any Shape)
            Shared(person as any Named)
            Shared(person as any Named & Shape).named("both")
            New(42 as Any)
            New(Int.self as Any.Type)
            New(Callback { $0 * 2 })
        }
        #expect(try box.tryResolve((any Shape).self).sides == 4)
        #expect(try box.tryResolve((any Named).self) === person)
        #expect(try box.tryResolve((any Named & Shape).self, name: "both") === person)
        #expect(try box.tryResolve(Any.self) as? Int == 42)
        #expect(try box.tryResolve(Any.Type.self) == Int.self)
        #expect(try box.tryResolve(Callback.self).run(21) == 42)
        // A value is kept as the type it was registered as, not its dynamic type.
        #expect(throws: ResolutionError.self) { try box.tryResolve(Square.self) }
    }

    @Test func optionalsResolveTheWrappedRegistrationOrNil() throws {
        let box = DIContainer()
        box.register {
            Shared(SIMD4<Double>(repeating: 3))
            Shared(Square() as any Shape)
        }
        #expect(try box.tryResolve(SIMD4<Double>?.self) == SIMD4(repeating: 3))
        #expect(try box.tryResolve((any Shape)?.self)?.sides == 4)
        #expect(try box.tryResolve(Empty?.self) == nil)
        #expect(try box.tryResolve(Mode?.self) == nil)
    }

    @Test func aliasesDecoratorsActionsArgumentsAndGraphsSeeTheValue() throws {
        let box = DIContainer()
        let seen = Guarded<[Int]>([])
        box.register {
            Shared(Square(), as: (any Shape).self)
            Decorate(SIMD4<Double>.self) { value, _ in value * 2 }
            New(SIMD4<Double>(1, 1, 1, 1)).onResolve { value, _ in seen.withLock { $0.append(Int(value.x)) } }
            Graph(Empty())
            New { (_, count: Int) in Mode.text(String(repeating: "x", count: count)) }
        }
        #expect(try box.tryResolve((any Shape).self).sides == 4)
        #expect(try box.tryResolve(Square.self).sides == 4)
        #expect(try box.tryResolve(SIMD4<Double>.self) == SIMD4(repeating: 2))
        #expect(seen.current == [1])  // actions get the value undecorated
        #expect(try box.tryResolve(Empty.self) == Empty())
        #expect(try box.tryResolve(Mode.self, arguments: { 3 }) == .text("xxx"))
    }

    @Test func weakKeepsAClassValueAndRefusesAValueType() throws {
        let box = DIContainer()
        box.register {
            Weak(Person() as any Named)
            Weak(Square())
        }
        let first = try box.tryResolve((any Named).self)
        #expect(try box.tryResolve((any Named).self) === first)
        let error = resolutionError { _ = try box.tryResolve(Square.self) }
        let isRefused = if case .weakRequiresClass = error?.reason { true } else { false }
        #expect(isRefused, "\(String(describing: error))")
    }

    @Test func asyncResolutionOfSendableValues() async throws {
        let box = DIContainer()
        box.register {
            Shared { _ async throws in SIMD8<Float>(repeating: 2) }
            Shared(Mode.text("async"))
        }
        #expect(try await box.resolveAsync(SIMD8<Float>.self) == SIMD8(repeating: 2))
        #expect(try await box.resolveAsync(Mode.self) == .text("async"))
    }

    @Test(arguments: ["releaseInstances", "reset", "deinit"])
    func aKeptValueIsReleasedOnceAfterTheLock(by release: String) throws {
        let log = Guarded<[Bool]>([])
        weak var observed: Token?
        var box: DIContainer? = DIContainer()
        box?.register { Shared { Large(token: Token(log)) } }
        observed = try box?.tryResolve(Large.self).token
        #expect(try box?.tryResolve(Large.self).token === observed)
        #expect(log.current.isEmpty && observed != nil)
        switch release {
        case "releaseInstances": box?.releaseInstances()
        case "reset": box?.reset()
        default: box = nil
        }
        #expect(log.current == [true])
        #expect(observed == nil)
    }
}

// Installing a module: its registrations become entries, in order, all or none, and a module that
// is kept (and registered again) keeps them.

private final class Feature {}

/// A module with nested blocks, `if`/`else` and `for`: four registrations and a decorator.
private func nestedModule(flag: Bool) -> Module {
    Module {
        Shared(Engine())
        Module {
            if flag { New(ImageCache()) } else { New(Session()) }
            for index in 0..<2 { New(Feature()).named("\(index)") }
        }
        Decorate(Engine.self) { engine, _ in engine }
    }
}

@Suite(.timeLimit(.minutes(1)))
struct RegistrationMoveTests {
    @Test func aModuleRegisteredInTwoContainersInstallsEverythingInBoth() throws {
        let module = nestedModule(flag: true)
        let (first, second) = (DIContainer(), DIContainer())
        first.register(module)
        second.register(module)
        try first.tryRegister(module)
        for box in [first, second] {
            #expect(box.registrations.map(\.typeName) == ["Engine", "ImageCache", "Feature", "Feature"])
            #expect(box.registrations.map(\.name) == [nil, nil, "0", "1"])
            #expect(try box.tryResolve(Feature.self, name: "1") !== box.tryResolve(Feature.self, name: "1"))
        }
        #expect(DIContainer().registrations.isEmpty)
    }

    @Test func aModuleFoldedThousandsOfTimesInstallsOnASmallStack() async {
        let outcome = await onThread(stackSize: 128 << 10) { () -> Int in
            let module = (0..<3_000).reduce(Module {}) { folded, index in
                Module {
                    folded
                    New(Feature()).named("\(index)")
                }
            }
            let box = DIContainer()
            box.register(module)
            return box.registrations.count
        }
        #expect(outcome == 3_000)
    }

    @Test func theSameTypeTwiceInABatchIsReportedAsADuplicate() {
        let box = DIContainer()
        box.register {
            New(Engine())
            Module { New(Engine()) }
        }
        let report = box.validate()
        #expect(report.problems.count == 1)
        #expect(report.problems.first?.error.description.contains("Engine") == true)
    }

    @Test(arguments: [false, true])
    func aFailedBatchLeavesTheContainerAsItWasAndReleasesAfterTheLock(eager: Bool) {
        let box = DIContainer()
        box.register { Shared(Session()) }
        let log = Guarded<[Bool]>([])
        func batch() -> Module {
            let (made, decorated) = (Token(log), Token(log))
            return Module {
                New { _ in
                    _ = made
                    return Engine()
                }
                Decorate(Engine.self) { engine, _ in
                    _ = decorated
                    return engine
                }
                if eager {
                    Shared { resolve in Pair(try resolve.tryResolve(Feature.self, name: "missing"), 0) }.eager()
                } else {
                    Shared(Int?.some(1))
                }
                New(ImageCache())
            }
        }
        #expect(throws: ResolutionError.self) { try box.tryRegister(batch()) }
        #expect(box.registrations.map(\.typeName) == ["Session"])
        #expect(log.current == [true, true])
    }

    @Test func edgesPastSixteenDependenciesStayCompleteUniqueAndInOrder() throws {
        let count = 40
        let box = DIContainer()
        box.register {
            for index in 0..<count { New(Feature()).named("\(index)") }
            New { resolve -> Session in
                for index in (0..<count).reversed() { _ = try resolve.tryResolve(Feature.self, name: "\(index)") }
                for index in 0..<count { _ = try resolve.tryResolve(Feature.self, name: "\(index)") }
                return Session()
            }
        }
        for _ in 0..<3 { _ = try box.tryResolve(Session.self) }
        let edges = box.dependencyGraph().split(separator: "\n").filter { $0.contains(" -> ") }
        #expect(edges.count == count)
        #expect(Set(edges).count == count)
        // Nodes are numbered in registration order: the first edge seen goes to the last feature.
        #expect(edges.first?.hasSuffix("-> n\(count);") == true, "\(edges.first ?? "")")
        #expect(edges.last?.hasSuffix("-> n1;") == true, "\(edges.last ?? "")")
    }

    @Test(
        .disabled(
            if: runsUnderAddressSanitizer, "AddressSanitizer: the stack left cannot be measured on its fake stack"))
    func aDeepChainOnA128KiBStackIsTooDeepNotACrash() async {
        let box = DIContainer()
        box.register {
            for index in 0..<1_200 {
                New { resolve in try Feature.linked(resolve.tryResolve(Int.self, name: "\(index + 1)")) }
                    .named("\(index)")
            }
            New(0).named("1200")
        }
        let outcome = await onThread(stackSize: smallStack(128 << 10)) { () -> String in
            do { return "made \(try box.tryResolve(Int.self, name: "0"))" } catch { return "\(error)" }
        }
        #expect(outcome?.contains("more than this thread's stack allows") == true, "\(outcome ?? "hang")")
    }
}

extension Feature {
    fileprivate static func linked(_ next: Int) -> Int { next + 1 }
}
