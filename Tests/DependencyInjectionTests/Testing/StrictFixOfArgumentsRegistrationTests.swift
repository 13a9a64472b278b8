import DependencyInjection
import DependencyInjectionTesting
import Testing

// The strict issue's fix for a registration that takes arguments takes them: an override without
// arguments would make the test's resolve with arguments trap ("Wrong arguments"). Each fix also
// gives the `@MainActor` form a main-actor mock needs in a default-MainActor test target (Testing,
// "Main-actor tests").

private final class StrictArgsProfile: Sendable {
    let id: String
    init(id: String) { self.id = id }
}
private final class StrictArgsPage: Sendable { init(id: String, count: Int) {} }
private final class StrictArgsClock: Sendable {}
/// Not private: a private type has no name code outside its file could use.
enum StrictArgsFeature { final class Inner: Sendable {} }

private let argumentsProduction: DIContainer = {
    let box = DIContainer()
    box.register {
        New { (_, id: String) in StrictArgsProfile(id: id) }
        New { (_, id: String, count: Int) in StrictArgsPage(id: id, count: count) }
        Shared(StrictArgsClock())
        Shared(StrictArgsFeature.Inner())
    }
    return box
}()

@Suite(.timeLimit(.minutes(1))) struct StrictFixOfArgumentsRegistrationTests {
    @Test(.dependencies(.strict, on: argumentsProduction))
    func theFixOfARegistrationWithArgumentsTakesThem() {
        withKnownIssue {
            _ = DIContainer.resolve(StrictArgsProfile.self, arguments: { "7" })
        } matching: { issue in
            issue.comments.contains {
                $0.rawValue.contains(
                    "(New { (_, _: String) in <#mock#> as StrictArgsProfile }, or "
                        + "New { @MainActor (_, _: String) in <#mock#> as StrictArgsProfile } for a main-actor mock)")
            }
        }
    }

    @Test(.dependencies(.strict, on: argumentsProduction))
    func theFixOfARegistrationWithTwoArgumentsTakesBoth() {
        withKnownIssue {
            _ = DIContainer.resolve(StrictArgsPage.self, arguments: { ("7", 2) })
        } matching: { issue in
            issue.comments.contains {
                $0.rawValue.contains("New { (_, _: String, _: Int) in <#mock#> as StrictArgsPage }")
            }
        }
    }

    @Test(.dependencies(.strict, on: argumentsProduction))
    func theFixOfARegistrationWithoutArgumentsGivesTheMainActorFormToo() {
        withKnownIssue {
            _ = DIContainer.resolve(StrictArgsClock.self)
        } matching: { issue in
            issue.comments.contains {
                $0.rawValue.contains(
                    "(New(<#mock#> as StrictArgsClock), or New { @MainActor in <#mock#> as StrictArgsClock } for a main-actor mock)"
                )
            }
        }
    }

    /// A nested type is named as code outside it compiles, in the override and in the type to allow.
    @Test(.dependencies(.strict, on: argumentsProduction))
    func theFixOfANestedTypeNamesItAsCodeOutsideItDoes() {
        withKnownIssue {
            _ = DIContainer.resolve(StrictArgsFeature.Inner.self)
        } matching: { issue in
            issue.comments.contains {
                $0.rawValue.contains("New(<#mock#> as StrictArgsFeature.Inner)")
                    && $0.rawValue.contains(".strict(allowing: StrictArgsFeature.Inner.self)")
            }
        }
    }

    // The fixes as written, the placeholder filled in: the resolve with arguments gets the mock.
    @Test(
        .dependencies(.strict, on: argumentsProduction) {
            New { (_, _: String) in StrictArgsProfile(id: "mock") as StrictArgsProfile }
        })
    func theFixAsWrittenServesTheResolveWithArguments() {
        #expect(DIContainer.resolve(StrictArgsProfile.self, arguments: { "7" }).id == "mock")
    }

    @MainActor
    @Test(
        .dependencies(.strict, on: argumentsProduction) {
            New { @MainActor (_, _: String) in StrictArgsProfile(id: "main mock") as StrictArgsProfile }
        })
    func theMainActorFixAsWrittenServesTheResolveWithArguments() {
        #expect(DIContainer.resolve(StrictArgsProfile.self, arguments: { "7" }).id == "main mock")
    }
}
