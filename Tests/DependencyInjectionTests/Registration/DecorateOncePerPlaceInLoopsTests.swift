import DependencyInjection
import Testing

// A `Decorate` applies once per container for the place it is written, across register calls, and
// every one in one call applies: a module registered again in a loop decorates once, and one
// helper's decorators with different arguments both apply.

private final class LoopCounter {
    let value: Int
    init(_ value: Int) { self.value = value }
}

private let core = Module {
    New { LoopCounter(1) }
    Decorate(LoopCounter.self) { counter, _ in LoopCounter(counter.value * 10) }
}

/// A decorator written once, in a helper, used with different arguments.
private func scaled(by factor: Int) -> Decorate<LoopCounter> {
    Decorate(LoopCounter.self) { counter, _ in LoopCounter(counter.value * factor) }
}

@Suite(.timeLimit(.minutes(1))) struct DecorateOncePerPlaceInLoopsTests {
    /// Registering a module again does not wrap its service twice, also when the second `register`
    /// lists it in a loop.
    @Test func aModuleRegisteredAgainInALoopDecoratesOnce() {
        let box = DIContainer()
        box.register { core }
        box.register {
            for module in [core] { module }
        }
        #expect(box.resolve(LoopCounter.self).value == 10)
    }

    /// Two `Decorate`s made by one helper with different arguments, in one call, are two decorators.
    @Test func oneHelpersDecoratorsWithDifferentArgumentsInOneCallBothApply() {
        let box = DIContainer()
        box.register {
            New { LoopCounter(1) }
            scaled(by: 2)
            scaled(by: 3)
        }
        #expect(box.resolve(LoopCounter.self).value == 6)
    }
}
