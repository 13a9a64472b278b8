import DependencyInjection
import DependencyInjectionTesting
import Testing

// reset() in the trait's copy of DIContainer.shared: registerDependencies() runs again, and every
// way of looking at the container sees the production registrations it makes.

@Suite(.timeLimit(.minutes(1))) struct ResetInATraitCopyTests {
    @Test(.dependencies) func aMockRegisteredRightAfterResetIsNotOverwrittenByRegisterDependencies() {
        DIContainer.reset()
        DIContainer.register(Shared(MockGreeting() as Greeting))
        #expect(DIContainer.resolve(Greeting.self).text == "mock")
    }

    @Test(.dependencies) func afterResetTheListingResolveAllAndUnregisterSeeProduction() {
        DIContainer.reset()
        #expect(
            DIContainer.current.registrations.contains {
                $0.typeName == "Greeting" || $0.typeName == "ProductionGreeting"
            },
            "\(DIContainer.current.registrations)")
        DIContainer.reset()
        #expect(DIContainer.resolveAll(Greeting.self).count == 1)
        DIContainer.reset()
        #expect(DIContainer.unregister(Greeting.self))
        #expect(DIContainer.resolve(Greeting?.self) == nil)
    }

    @Test(.dependencies) func afterResetAnOverridesCopyHasTheProductionRegistrations() {
        DIContainer.reset()
        let text = DIContainer.withOverrides {
        } operation: {
            DIContainer.resolve(Greeting.self).text
        }
        #expect(text == "production")
    }

    @Test(.dependencies) func afterResetValidateAndTheGraphSeeProduction() {
        DIContainer.reset()
        let report = DIContainer.validate()
        #expect(report.validCount >= 1, "\(report)")
        DIContainer.reset()
        #expect(DIContainer.current.dependencyGraph().contains("Greeting"))
    }
}
