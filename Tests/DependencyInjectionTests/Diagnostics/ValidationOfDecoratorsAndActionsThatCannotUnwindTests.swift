import DependencyInjection
import Testing

// A `Decorate` or an `onResolve` action that takes a resolver and does not throw can only trap
// when its `resolve()` fails, as such a factory: validate() probes it where a failure parks a
// thread of its own (never inline on the main thread), and lists one that runs on an actor as not
// checked. One that throws is checked anywhere.

private protocol UnwindStore: AnyObject {}
private final class UnwindMemoryStore: UnwindStore {}
private final class UnwindTracker {}
private final class UnwindParent {
    var tracker: UnwindTracker?
}

/// Written in nonisolated code, as the docs advise for modules.
private nonisolated enum UnwindModules {
    static let decorated = Module {
        Shared(UnwindMemoryStore() as UnwindStore)
        Decorate((any UnwindStore).self) { store, resolve in
            let _: UnwindTracker = resolve()
            return store
        }
    }
    static let acted = Module {
        Shared(UnwindParent()).onResolve { parent, resolve in parent.tracker = resolve(UnwindTracker.self) }
    }
}

@Suite(.timeLimit(.minutes(1))) struct ValidationOfDecoratorsAndActionsThatCannotUnwindTests {
    @MainActor @Test func aDecoratorThatCannotUnwindFailsInTheReportOfTheMainThreadsValidate() {
        let box = DIContainer()
        box.register { UnwindModules.decorated }
        let report = box.validate()
        #expect(!report.isValid)
        #expect("\(report)".contains("No registration for 'UnwindTracker'"), "\(report)")
    }

    @MainActor @Test func anActionThatCannotUnwindFailsInTheReportOfTheMainThreadsValidate() {
        let box = DIContainer()
        box.register { UnwindModules.acted }
        let report = box.validate()
        #expect(!report.isValid)
        #expect("\(report)".contains("No registration for 'UnwindTracker'"), "\(report)")
    }

    @Test func aMainActorDecoratorThatCannotUnwindIsNotChecked() async {
        let box = DIContainer()
        box.register {
            Shared(UnwindMemoryStore() as UnwindStore)
            Decorate((any UnwindStore).self) { @MainActor store, resolve in
                let _: UnwindTracker = resolve()
                return store
            }
        }
        let report = await box.validate()
        #expect(report.isValid, "\(report)")
        #expect(
            "\(report)".contains(
                "– UnwindStore: not checked, a Decorate or onResolve action of it takes a resolver, does not throw and "
                    + "runs on MainActor"), "\(report)")
    }

    @Test func aMainActorDecoratorThatThrowsIsChecked() async {
        let box = DIContainer()
        box.register {
            Shared(UnwindMemoryStore() as UnwindStore)
            Decorate((any UnwindStore).self) { @MainActor store, resolve in
                let _: UnwindTracker = try resolve.tryResolve()
                return store
            }
        }
        let report = await box.validate()
        #expect(!report.isValid)
        #expect("\(report)".contains("No registration for 'UnwindTracker'"), "\(report)")
    }
}
