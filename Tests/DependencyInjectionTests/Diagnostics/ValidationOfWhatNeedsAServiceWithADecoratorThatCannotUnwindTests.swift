import DependencyInjection
import Testing

// A main-actor decorator that does not throw is not run by validate() (its resolve() can only trap
// on the main actor): nor through the check of a service that needs what it decorates. The same
// for a factory that cannot unwind (listed as not checked on an actor, probed on a thread elsewhere).

private final class UnwindScreen: Sendable {}
private final class UnwindMissing {}
private final class UnwindPresenter: Sendable { init(screen: UnwindScreen) {} }
private final class UnwindPanel: Sendable { init(_ missing: UnwindMissing) {} }
private final class UnwindPanelPresenter: Sendable { init(panel: UnwindPanel) {} }

@Suite(.timeLimit(.minutes(1))) struct ValidationOfWhatNeedsAServiceWithADecoratorThatCannotUnwindTests {
    /// The synchronous form on the main thread checks the presenter inline there: what it needs is
    /// decorated there too.
    @MainActor @Test func theMainThreadsValidateOfWhatNeedsIt() {
        let box = DIContainer()
        box.register {
            Shared { UnwindScreen() }
            Decorate(UnwindScreen.self) { screen, resolve in
                _ = resolve(UnwindMissing.self)
                return screen
            }
            Shared(UnwindPresenter.init)
        }
        let report = box.validate()
        // What needs it waits for it: not checked either, never run into the trap.
        #expect(
            report.unchecked.contains { $0.registration.hasSuffix("Presenter") && $0.reason.hasPrefix("it needs") },
            "\(report)")
    }

    @MainActor @Test func theMainThreadsValidateOfWhatNeedsAMainActorOne() {
        let box = DIContainer()
        box.register {
            Shared { @MainActor in UnwindScreen() }
            Decorate(UnwindScreen.self) { @MainActor screen, resolve in
                _ = resolve(UnwindMissing.self)
                return screen
            }
            Shared(UnwindPresenter.init)
        }
        let report = box.validate()
        // What needs it waits for it: not checked either, never run into the trap.
        #expect(
            report.unchecked.contains { $0.registration.hasSuffix("Presenter") && $0.reason.hasPrefix("it needs") },
            "\(report)")
    }

    /// A main-actor app: the presenter's factory (which throws) runs on the main actor, and so does the
    /// decorator of the screen it needs.
    @Test func theAsyncValidateOfAMainActorServiceThatNeedsIt() async {
        let box = DIContainer()
        box.register {
            Shared { @MainActor in UnwindScreen() }
            Decorate(UnwindScreen.self) { @MainActor screen, resolve in
                _ = resolve(UnwindMissing.self)
                return screen
            }
            Shared { @MainActor resolve throws in UnwindPresenter(screen: try resolve.tryResolve()) }
        }
        let report = await box.validate()
        // What needs it waits for it: not checked either, never run into the trap.
        #expect(
            report.unchecked.contains { $0.registration.hasSuffix("Presenter") && $0.reason.hasPrefix("it needs") },
            "\(report)")
    }

    @MainActor @Test func theMainThreadsValidateOfWhatNeedsAFactoryThatCannotUnwind() {
        let box = DIContainer()
        box.register {
            Shared { resolve in UnwindPanel(resolve()) }
            Shared(UnwindPanelPresenter.init)
        }
        let report = box.validate()
        // What needs it waits for it: not checked either, never run into the trap.
        #expect(
            report.unchecked.contains { $0.registration.hasSuffix("Presenter") && $0.reason.hasPrefix("it needs") },
            "\(report)")
    }

    @Test func theAsyncValidateOfAMainActorServiceThatNeedsAFactoryThatCannotUnwind() async {
        let box = DIContainer()
        box.register {
            Shared { @MainActor resolve in UnwindPanel(resolve()) }
            Shared { @MainActor resolve throws in UnwindPanelPresenter(panel: try resolve.tryResolve()) }
        }
        let report = await box.validate()
        // What needs it waits for it: not checked either, never run into the trap.
        #expect(
            report.unchecked.contains { $0.registration.hasSuffix("Presenter") && $0.reason.hasPrefix("it needs") },
            "\(report)")
    }
}
