import Testing

// Scenarios of the core (transactions, release, containers) that must end the process with a clear message,
// never a crash without one: each runs in its own process (see `TrapRun`).

@Suite(.timeLimit(.minutes(1))) struct TrapScenarioTests {
    @Test(arguments: ["resolverUsedAfterItsContainer", "resolverKeptByAnInstanceAfterContainerIsGone"])
    func resolverUsedAfterItsContainerIsGoneTrapsWithAMessage(scenario: String) async throws {
        let run = try await TrapRun.run(scenario)
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
    func mutatingARunningContainerTraps(scenario: String, expected: String) async throws {
        let run = try await TrapRun.run(scenario)
        #expect(run.stdout.contains("trapping"), "the scenario failed before the call: \(run.stderr)")
        #expect(run.trapped, "stdout: \(run.stdout)")
        let message = try #require(run.trapMessage, "no fatal error: \(run.stderr)")
        #expect(message.hasPrefix(expected), "\(message)")
    }

    /// What a failing `resolveAll` made before the failure (a `New`) is released after the lock,
    /// as every release is, before it traps: a `deinit` may wait for a thread that resolves.
    @Test func aFailingResolveAllReleasesWhatItMadeAfterTheLock() async throws {
        let run = try await TrapRun.run("resolveAllReleasesWhatItMadeAfterTheLockWhenOneFails")
        #expect(run.trapped, "stdout: \(run.stdout)")
        #expect(run.stderr.contains("released-after-the-lock"), "\(run.stderr)")
    }

    @Test(
        .disabled(
            if: runsUnderAddressSanitizer, "AddressSanitizer: the stack left cannot be measured on its fake stack"))
    func deepChainOfPlainFactoriesOnASmallStackTrapsWithTheTooDeepMessage() async throws {
        let run = try await TrapRun.run("deepChainOfPlainFactoriesOnASmallStack")
        #expect(run.trapped, "stdout: \(run.stdout)")
        let expected = try #require(run.expectedMessage, "no expected message (a stack overflow?): \(run.stdout)")
        #expect(expected.hasPrefix("Resolving 'Link' (name: "), "\(expected)")
        #expect(expected.contains("nested steps, more than this thread's stack allows."), "\(expected)")
        // The plain chain takes another amount of stack per step than the throwing one, so it
        // stops at another depth, with the same message otherwise.
        let message = try #require(run.trapMessage, "no fatal error (a stack overflow?): \(run.stderr)")
        #expect(message.hasPrefix("Resolving 'Link' (name: "), "\(message)")
        #expect(message.contains("nested steps, more than this thread's stack allows."), "\(message)")
    }

    /// Scenarios that must not trap, run in a process of their own because the failure they
    /// guard against is a crash (a stack overflow, an exclusivity violation) that would end
    /// the whole test run.
    // The small-stack scenarios are left out under AddressSanitizer: see `runsUnderAddressSanitizer`.
    @Test(
        arguments: (runsUnderAddressSanitizer
            ? [] : ["chainOf150OnASmallStack", "deepChainAndCycleOfThrowingFactoriesOnASmallStack"]) + [
                "instanceWhoseEntryIsUnregisteredDuringTheResolution",
                "instanceWhoseEntryIsReplacedDuringTheResolution",
                "instanceWhoseContainerIsResetDuringTheResolution",
            ])
    func scenarioPassesItsChecksWithoutCrashing(scenario: String) async throws {
        let run = try await TrapRun.run(scenario)
        let output = run.trapMessage ?? String(run.stderr.prefix(1_000))
        #expect(!run.trapped, "\(scenario) crashed: \(output.isEmpty ? "no message (a stack overflow?)" : output)")
        #expect(run.stdout.contains("checks-passed"), "\(scenario): \(run.stdout)")
    }
}
