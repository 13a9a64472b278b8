import DependencyInjectionTesting
import Testing

// Strict tests that allow harmless production services by type: every name and alias of it.

private protocol AuditLog: AnyObject { func write(_ line: String) }
private protocol LogSink: AnyObject {}
private final class PrintLog: AuditLog, LogSink { func write(_ line: String) {} }

/// Uses the production log, as a service that a production decorator or factory pulls in would.
private final class Receipt {
    let payments: Payments
    let log: AuditLog
    init(payments: Payments, log: AuditLog) { (self.payments, self.log) = (payments, log) }
}

/// Production: a log under two aliases and a name, and payments.
private let production: DIContainer = {
    let box = DIContainer()
    box.register {
        Shared(PrintLog(), as: AuditLog.self, LogSink.self)
        Shared(PrintLog() as AuditLog).named("audit")
        Shared(LivePayments() as Payments)
        Shared { resolve in Receipt(payments: resolve(), log: resolve()) }
    }
    return box
}()

@Suite(.timeLimit(.minutes(1))) struct StrictTestsAllowingServicesTests {
    // These tests rely on the strict trait recording nothing for an allowed service.
    @Test(.dependencies(.strict(allowing: AuditLog.self), on: production))
    func anAllowedTypeIsNotReportedUnderAnyNameOrAlias() {
        _ = DIContainer.resolve(AuditLog.self)
        _ = DIContainer.resolve(AuditLog.self, name: "audit")
        _ = DIContainer.resolve(LogSink.self)
        _ = DIContainer.resolve(PrintLog.self)
    }

    @Test(.dependencies(.strict(allowing: PrintLog.self), on: production))
    func allowingTheRegisteredTypeAllowsItsAliases() {
        _ = DIContainer.resolve(AuditLog.self)
        _ = DIContainer.resolve(LogSink.self)
    }

    @Test(
        .dependencies(.strict(allowing: AuditLog.self, Receipt.self), on: production) {
            New(MockPayments() as Payments)
        })
    func allowedServicesWithOverridesOnAContainerOfYourOwn() {
        // Receipt and its log are allowed production services; its Payments is the test's.
        #expect(DIContainer.resolve(Receipt.self).payments.provider == "mock")
    }

    @Test(.dependencies(.strict(allowing: Greeting.self)) { New(MockPayments() as Payments) })
    func overridesAndAllowedServicesTogetherOnTheCurrentContainer() {
        #expect(DIContainer.resolve(Greeting.self).text == "production")
        #expect(DIContainer.resolve(Payments.self).provider == "mock")
    }

    @Test(.dependencies(.strict(allowing: AuditLog.self, Payments.self), on: production))
    func severalTypesMayBeAllowed() {
        _ = DIContainer.resolve(AuditLog.self)
        _ = DIContainer.resolve(Payments.self)
    }

    @Test(.dependencies(.strict(allowing: AuditLog.self), on: production))
    func whatIsNotAllowedIsStillReported() {
        withKnownIssue {
            _ = DIContainer.resolve(Receipt.self)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("'Receipt' was resolved from its production registration") }
                || issue.comments.contains { $0.rawValue.contains("'Payments' was resolved") }
        }
    }
}
