import DependencyInjectionTesting
import Dispatch
import Testing

// Strict tests record each issue against the test, whatever thread or task resolved the service,
// at the resolve's file:line.

/// A main-actor service made by the test: resolved from a task, it is made on the main actor.
private final class CheckoutScreen: Sendable {
    let payments: any Payments & Sendable
    init(payments: any Payments & Sendable) { self.payments = payments }
}

private final class SendablePayments: Payments, Sendable { let provider = "live" }

private let production: DIContainer = {
    let box = DIContainer()
    box.register {
        Shared(LivePayments() as Payments)
        Shared(SendablePayments() as any Payments & Sendable)
        Shared { resolve in Checkout(payments: resolve()) }
    }
    return box
}()

/// Declares its dependency with a property wrapper at a known line.
private final class InjectingScreen {
    static let declaration = #line + 1
    @Inject var payments: Payments
}

private final class LazyScreen {
    static let declaration = #line + 1
    @LazyInject var payments: Payments
}

/// Whether `issue` is a strict-mode issue about `type` recorded at `line` of this file.
private func isStrictIssue(_ issue: Issue, about type: String, at line: Int) -> Bool {
    issue.comments.contains { $0.rawValue.contains("Strict dependencies: '\(type)'") }
        && issue.sourceLocation?.fileID == #fileID && issue.sourceLocation?.line == line
}

private func isStrictIssue(_ issue: Issue, about type: String) -> Bool {
    issue.comments.contains { $0.rawValue.contains("Strict dependencies: '\(type)") }
}

@Suite(.timeLimit(.minutes(1))) struct StrictIssueAttributionTests {
    /// What a task the test started resolves after the test ended is not recorded (Testing.md).
    /// Relies on the strict trait recording nothing: the resolve comes after the scope ended.
    @Test func whatATaskResolvesAfterTheTestEndedIsNotRecorded() async throws {
        let trait: DependenciesTrait = .dependencies(.strict, on: production)
        let test = try #require(Test.current)
        let gate = DispatchSemaphore(value: 0)
        let task = Guarded<Task<Void, Never>?>(nil)
        try await trait.provideScope(for: test, testCase: Test.Case.current) {
            task.withLock {
                $0 = Task {
                    gate.wait()
                    _ = DIContainer.resolve(Payments.self)
                }
            }
        }
        gate.signal()
        await task.current?.value
    }

    /// A lazy wrapper read again (resolved already) leaves no call site behind: a later resolve
    /// that names no place is recorded at the test's line, not at the wrapper's declaration.
    @Test func aLazyWrapperReadAgainLeavesNoCallSiteBehind() async throws {
        let trait: DependenciesTrait = .dependencies(.strict, on: production)
        let test = try #require(Test.current)
        try await trait.provideScope(for: test, testCase: Test.Case.current) {
            let screen = LazyScreen()
            withKnownIssue {
                _ = screen.payments
            } matching: {
                isStrictIssue($0, about: "Payments")
            }
            _ = screen.payments
            try await withKnownIssue {
                _ = try await DIContainer.resolveAsync(Checkout.self)
            } matching: {
                isStrictIssue($0, about: "Checkout") && $0.sourceLocation?.line != LazyScreen.declaration
            }
        }
    }

    @Test func aServiceResolvedOnAnotherThreadIsRecordedAgainstTheTest() async throws {
        let trait: DependenciesTrait = .dependencies(.strict, on: production)
        let test = try #require(Test.current)
        try await withKnownIssue {
            try await trait.provideScope(for: test, testCase: Test.Case.current) {
                // The Testing article's recipe: hand the test's container to code on another thread.
                let container = DIContainer.current
                await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                    DispatchQueue.global().async {
                        _ = container.resolve(Payments.self)
                        done.resume()
                    }
                }
            }
        } matching: {
            isStrictIssue($0, about: "Payments")
        }
    }

    @Test func aServiceMadeThroughTheMainActorHopIsRecordedAgainstTheTest() async throws {
        let trait: DependenciesTrait = .dependencies(.strict, on: production) {
            Shared { @MainActor resolve in CheckoutScreen(payments: resolve()) }
        }
        let test = try #require(Test.current)
        try await withKnownIssue {
            try await trait.provideScope(for: test, testCase: Test.Case.current) {
                // From a task off the main actor: the screen (and the production payments it needs)
                // is made on the main actor.
                let screen = await Task { DIContainer.resolve(CheckoutScreen.self) }.value
                #expect(screen.payments.provider == "live")
            }
        } matching: {
            isStrictIssue($0, about: "Payments")
        }
    }

    @Test(.dependencies(.strict, on: production))
    func anIssueIsRecordedAtTheResolveCall() {
        let line = #line + 2
        withKnownIssue {
            _ = DIContainer.resolve(Payments.self)
        } matching: {
            isStrictIssue($0, about: "Payments", at: line)
        }
    }

    @Test(.dependencies(.strict, on: production))
    func anIssueIsRecordedAtTheTryResolveCall() throws {
        let line = #line + 2
        try withKnownIssue {
            _ = try DIContainer.tryResolve(Payments.self)
        } matching: {
            isStrictIssue($0, about: "Payments", at: line)
        }
    }

    @Test(.dependencies(.strict, on: production))
    func anIssueIsRecordedAtTheResolveAllCall() {
        let line = #line + 2
        withKnownIssue {
            _ = DIContainer.resolveAll(Payments.self)
        } matching: {
            isStrictIssue($0, about: "Payments", at: line)
        }
    }

    @Test(.dependencies(.strict, on: production))
    func anIssueAboutADependencyIsRecordedAtTheTopLevelCall() {
        let line = #line + 2
        withKnownIssue {
            _ = DIContainer.resolve(Checkout.self)
        } matching: {
            isStrictIssue($0, about: "Checkout", at: line) || isStrictIssue($0, about: "Payments", at: line)
        }
    }

    @Test(.dependencies(.strict, on: production))
    func anIssueIsRecordedAtThePropertyWrappersDeclaration() {
        withKnownIssue {
            _ = InjectingScreen()
        } matching: {
            isStrictIssue($0, about: "Payments", at: InjectingScreen.declaration)
        }
    }

    @Test(.dependencies(.strict, on: production))
    func anIssueIsRecordedAtTheLazyWrappersDeclaration() {
        let screen = LazyScreen()
        withKnownIssue {
            _ = screen.payments
        } matching: {
            isStrictIssue($0, about: "Payments", at: LazyScreen.declaration)
        }
    }
}

private final class StrictHolderUnderARegister { init(_ payments: Payments) {} }
private final class StrictRootRunningARegister { init() {} }

private let productionWithPayments: DIContainer = {
    let box = DIContainer()
    box.register { Shared(LivePayments() as Payments) }
    return box
}()

private let registeredIntoByAFactory = DIContainer()

@Suite(.timeLimit(.minutes(1))) struct StrictIssueUnderARegisterTests {
    /// A production service resolved in an eager factory of a `register` that the test's own factory
    /// runs: recorded at the test's top-level resolve, as it is without the register.
    @Test(
        .dependencies(.strict, on: productionWithPayments) {
            Shared { outer -> StrictRootRunningARegister in
                try registeredIntoByAFactory.tryRegister {
                    Shared { _ in StrictHolderUnderARegister(try outer.tryResolve(Payments.self)) }.eager()
                }
                return StrictRootRunningARegister()
            }
        })
    func anIssueUnderARegisterIsRecordedAtTheTopLevelCall() {
        let line = #line + 2
        withKnownIssue {
            _ = DIContainer.resolve(StrictRootRunningARegister.self)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("Strict dependencies: 'Payments'") }
                && issue.sourceLocation?.fileID == #fileID && issue.sourceLocation?.line == line
        }
    }
}
