import Foundation
import Testing

// validate() never ends the process and never hangs over what it finds: each scenario runs in the
// TrapScenarios executable (see `ValidateScenarios.swift`), terminated past a timeout, because
// the failure mode is a crash or a stall.

@Suite(.timeLimit(.minutes(2))) struct ValidationNeverEndsTheRunTests {
    private func expectReported(_ scenario: String, naming missing: String) async throws {
        let run = try await TrapRun.run(scenario, timeout: 30)
        #expect(!run.trapped, "\(run.stderr)")
        #expect(run.stdout.contains("did-not-trap"), "\(run.stdout)")
        #expect(run.stdout.contains("No registration for '\(missing)'"), "\(run.stdout)")
    }

    @Test func anAsyncFactoryWhoseResolveFailsIsReported() async throws {
        try await expectReported("validateAsyncFactoryWithFailingResolve", naming: "RemoteClient")
    }

    @Test func aDecoratorWhoseResolveFailsIsReported() async throws {
        try await expectReported("validateDecoratorWithFailingResolve", naming: "PaymentsLogger")
    }

    @Test func anOnResolveWhoseResolveFailsIsReported() async throws {
        try await expectReported("validateOnResolveWithFailingResolve", naming: "PaymentsLogger")
    }

    @Test func aChildNeedingItsParentsFailingFactoryIsReported() async throws {
        try await expectReported("validateChildNeedingAFailingParent", naming: "PaymentsLogger")
    }

    @Test func validateReturnsAfterTheCapOfParkedThreads() async throws {
        let run = try await TrapRun.run("validateAfterTheCapStillReturns", timeout: 60)
        #expect(!run.trapped, "\(run.stderr)")
        #expect(run.stdout.contains("second valid true"), "\(run.stdout)")
        #expect(run.stdout.contains("third valid true"), "\(run.stdout)")
        #expect(run.stdout.contains("fourth unchecked [\"validate() parked its 64 threads"), "\(run.stdout)")
        #expect(run.stdout.contains("problems 0"), "\(run.stdout)")
    }
}
