import DependencyInjection
import DependencyInjectionTesting
import Testing

// Strict mode: what a production decorator pulls in is reported; a test's own overrides in a strict suite are not.

private protocol StrictRouter: AnyObject {}
private final class StrictRouterImpl: StrictRouter { init() {} }
private protocol StrictPayments: AnyObject {}
private final class StrictStripe: StrictPayments { init() {} }
private final class StrictLogging: StrictPayments {
    let inner: StrictPayments
    init(_ inner: StrictPayments) { self.inner = inner }
}
private final class StrictConfig { init() {} }

private let strictProduction: DIContainer = {
    let box = DIContainer()
    box.register {
        Shared(StrictRouterImpl.init, as: StrictRouter.self).named("n")
        Shared(StrictStripe() as StrictPayments)
        Shared(StrictConfig.init)
        Decorate(StrictPayments.self) { payments, resolve in
            _ = resolve(StrictConfig.self)
            return StrictLogging(payments)
        }
    }
    return box
}()

@Suite(.timeLimit(.minutes(1))) struct StrictReportsWhatADecoratorPullsInTests {
    @Test(.dependencies(.strict, on: strictProduction) { Shared(StrictStripe() as StrictPayments) })
    func aServiceAProductionDecoratorResolvesIsReported() {
        withKnownIssue {
            #expect(DIContainer.resolve(StrictPayments.self) is StrictLogging)
        } matching: { issue in
            issue.comments.contains {
                $0.rawValue.contains("'StrictConfig' was resolved from its production registration")
            }
        }
    }
}

@Suite(.timeLimit(.minutes(1)), .dependencies(.strict, on: strictProduction))
struct StrictSuiteWithATestsOwnOverridesTests {
    @Test(.dependencies { Shared(StrictConfig.init) })
    func aTestsOwnOverridesAreNotReportedAndProductionStillIs() {
        _ = DIContainer.resolve(StrictConfig.self)
        withKnownIssue {
            _ = DIContainer.resolve(StrictRouter.self, name: "n")
        } matching: { issue in
            issue.comments.contains {
                $0.rawValue.contains("'StrictRouter (name: \"n\")' was resolved from its production registration")
            }
        }
    }
}
