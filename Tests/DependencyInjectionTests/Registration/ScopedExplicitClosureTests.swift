import DependencyInjection
import Testing

@MainActor private final class ExplicitScreen {
    let id: String
    init(id: String) { self.id = id }
}

@Suite(.timeLimit(.minutes(1))) struct ScopedExplicitClosureTests {
    /// The spelling `New` and `Shared` accept, with its parameter types written out, compiles for
    /// `Scoped` too, as the factory that takes arguments.
    @Test @MainActor func aScopedMainActorFactoryWithTypedParametersTakesArguments() throws {
        let box = DIContainer()
        box.register {
            Scoped(.session) { @MainActor (_: Resolver, id: String) -> ExplicitScreen in ExplicitScreen(id: id) }
        }
        let screen = try box.tryResolve(ExplicitScreen.self, arguments: { "a" })
        #expect(screen.id == "a")
        #expect(box.registrations.first?.argumentTypes == ["String"])
    }
}
