import DependencyInjection
import Testing

// resolveAsync awaits an async service that a synchronous factory needs and finds not made yet,
// then looks again, with what it awaited still held.

private final class AwaitedSession: Sendable {
    init(_ tally: Tally) { tally.increment() }
}
private final class SessionUser: Sendable { init(session: AwaitedSession) {} }

@Suite(.timeLimit(.minutes(1))) struct ResolveAsyncAwaitingWhatAFactoryNeedsTests {
    /// An async `Weak` that a synchronous factory needs: awaited, it is held until the factory has run
    /// again (let go before, it was made for nothing, and the resolve failed all the same).
    @Test func anAsyncWeakAFactoryNeedsIsNotMadeForNothing() async {
        let sessions = Tally()
        let box = DIContainer()
        box.register {
            Weak { _ async in AwaitedSession(sessions) }
            Shared(SessionUser.init)
        }
        let user = try? await box.resolveAsync(SessionUser.self)
        #expect(user != nil || sessions.value == 0, "made \(sessions.value) session(s) and failed")
    }
}
