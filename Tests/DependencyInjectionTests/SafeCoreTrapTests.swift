import Testing

// Scenarios of the `SafeCore…` regression tests that must end the process with a clear message,
// never a crash without one: each runs in its own process (see `TrapRun`).

@Suite(.timeLimit(.minutes(1))) struct SafeCoreTrapTests {
    @Test(arguments: ["resolverUsedAfterItsContainer", "resolverKeptByAnInstanceAfterContainerIsGone"])
    func resolverUsedAfterItsContainerIsGoneTrapsWithAMessage(scenario: String) throws {
        let run = try TrapRun.run(scenario)
        #expect(run.stdout.contains("trapping"), "the scenario failed before the call: \(run.stderr)")
        #expect(run.trapped, "stdout: \(run.stdout)")
        let message = try #require(run.trapMessage, "no fatal error: \(run.stderr)")
        #expect(message.hasPrefix("DependencyInjection: a Resolver was used after its container was deallocated."))
    }

    @Test(arguments: [
        ("unregisterInsideFactory", "unregister() was called on a container while it was resolving 'Fresh'."),
        (
            "resetOfARunningContainerFromAnotherContainersFactory",
            "reset() was called on a container while it was resolving 'Fresh'."
        ),
        ("resetInsideOnResolve", "reset() was called on a container while it was resolving 'Fresh'."),
    ])
    func mutatingARunningContainerTraps(scenario: String, expected: String) throws {
        let run = try TrapRun.run(scenario)
        #expect(run.stdout.contains("trapping"), "the scenario failed before the call: \(run.stderr)")
        #expect(run.trapped, "stdout: \(run.stdout)")
        let message = try #require(run.trapMessage, "no fatal error: \(run.stderr)")
        #expect(message.hasPrefix(expected), "\(message)")
    }
}
