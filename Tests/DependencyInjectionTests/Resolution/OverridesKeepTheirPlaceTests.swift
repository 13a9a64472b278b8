import DependencyInjectionTesting
import Testing

// A pipeline's order does not change because a test swapped one stage (the NamesAndArguments article, "Every registration of a type"): an override
// keeps the place of the registration it replaces in resolveAll, as a child's shadowing does.

private protocol Stage: AnyObject { var label: String { get } }
private final class NamedStage: Stage {
    let label: String
    init(_ label: String) { self.label = label }
}

private let pipeline: DIContainer = {
    let box = DIContainer()
    box.register {
        Shared(NamedStage("core") as Stage).named("core")
        Shared(NamedStage("auth") as Stage).named("auth")
        Shared(NamedStage("cache") as Stage).named("cache")
        Shared(NamedStage("log") as Stage).named("log")
    }
    return box
}()

@Suite(.timeLimit(.minutes(1))) struct OverridesKeepTheirPlaceTests {
    @Test func anOverrideKeepsItsOriginalsPlaceInResolveAll() {
        let labels = pipeline.withOverrides {
            Shared(NamedStage("mock-auth") as Stage).named("auth")
        } operation: {
            DIContainer.resolveAll(Stage.self).map(\.label)
        }
        #expect(labels == ["core", "mock-auth", "cache", "log"])
    }

    @Test(.dependencies(on: pipeline) { Shared(NamedStage("mock-auth") as Stage).named("auth") })
    func aTraitsOverrideKeepsItsOriginalsPlaceInResolveAll() {
        #expect(DIContainer.resolveAll(Stage.self).map(\.label) == ["core", "mock-auth", "cache", "log"])
    }

    @Test func aNewNameStillGoesLast() {
        let labels = pipeline.withOverrides {
            Shared(NamedStage("audit") as Stage).named("audit")
        } operation: {
            DIContainer.resolveAll(Stage.self).map(\.label)
        }
        #expect(labels == ["core", "auth", "cache", "log", "audit"])
    }
}
