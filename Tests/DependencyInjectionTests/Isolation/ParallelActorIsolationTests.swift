import DependencyInjectionTesting
import Testing

// Factory's parallel isolation tests, in this package's terms: every case registers, in main-actor
// code, Sendable services of each lifetime (a nonisolated factory, a main-actor one, one written
// on a custom global actor) and resolves them on the main actor, on the custom global actor and in
// a detached task, in parallel with the other cases, each seeing only its own values.

protocol CaseValue: Sendable { var value: String { get } }
struct PlainCaseValue: CaseValue { let value: String }
@MainActor final class MainActorCaseValue: CaseValue {
    nonisolated let value: String
    init(value: String) {
        MainActor.preconditionIsolated("a main-actor value is made on the main actor")
        self.value = value
    }
}

/// Registered on the custom global actor: made there (by `prepare()` or an async resolve).
@CustomGlobalActor private func registerOnTheCustomGlobalActor(_ value: String) {
    DIContainer.register {
        New(PlainCaseValue(value: value) as CaseValue).named("customActor")
        Shared(PlainCaseValue(value: value) as CaseValue).named("customActorShared")
    }
}

@CustomGlobalActor private func valuesOnTheCustomGlobalActor() -> [String] {
    ["plain", "plainShared", "mainActor", "mainActorShared", "customActorShared"].map {
        DIContainer.resolve(CaseValue.self, name: $0).value
    }
}

@MainActor
@Suite(.dependencies, .timeLimit(.minutes(1)))
struct ParallelActorIsolationTests {
    @Test(arguments: ["foo", "bar", "baz"].flatMap { name in (0..<20).map { "\(name)\($0)" } })
    func eachCaseSeesItsOwnValuesOnEveryActor(value: String) async throws {
        DIContainer.register {
            New(PlainCaseValue(value: value) as CaseValue).named("plain")
            Shared(PlainCaseValue(value: value) as CaseValue).named("plainShared")
            New { MainActorCaseValue(value: value) as CaseValue }.named("mainActor")
            Shared(MainActorCaseValue(value: value) as CaseValue).named("mainActorShared")
        }
        await registerOnTheCustomGlobalActor(value)
        try await DIContainer.prepare()
        let expected = Array(repeating: value, count: 5)
        #expect(await valuesOnTheCustomGlobalActor() == expected)
        let detached = await Task.detached {
            ["plain", "plainShared", "mainActor", "mainActorShared", "customActorShared"].map {
                (try? DIContainer.tryResolve(CaseValue.self, name: $0))?.value
            }
        }.value
        // A detached task does not inherit the case's container: it sees shared's (none of these).
        #expect(detached.allSatisfy { $0 == nil })
        let container = DIContainer.current
        let inCasesContainer = await Task.detached {
            container.activate {
                ["plain", "plainShared", "mainActor", "mainActorShared", "customActorShared"].map {
                    DIContainer.resolve(CaseValue.self, name: $0).value
                }
            }
        }.value
        #expect(inCasesContainer == expected)
        #expect(try await DIContainer.resolveAsync(CaseValue.self, name: "customActor").value == value)
        #expect(
            DIContainer.resolve(CaseValue.self, name: "mainActorShared") as AnyObject === DIContainer.resolve(
                CaseValue.self, name: "mainActorShared") as AnyObject)
    }
}
