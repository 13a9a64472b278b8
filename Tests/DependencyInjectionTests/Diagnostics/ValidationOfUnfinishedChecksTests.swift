import DependencyInjection
import Testing

private final class SlowFeed: Sendable {}
private final class FeedReader { init(feed: SlowFeed) {} }

/// What `validate()` could not finish checking is listed as not checked, and so is what failed only
/// for want of it: neither is a problem, which would send the user after a wiring that is right.
@Suite(.timeLimit(.minutes(1))) struct ValidationOfUnfinishedChecksTests {
    /// An async factory still running when `validate()` stops waiting (10 s in): it, and a plain
    /// service that needs it, are not checked; nothing is a problem.
    @Test func aServiceNeedingAnAsyncOneThatDidNotFinishIsNotCheckedNotAProblem() async {
        let (release, releaser) = AsyncStream<Void>.makeStream()
        defer { releaser.finish() }
        let box = DIContainer()
        box.register {
            Shared { _ async -> SlowFeed in
                for await _ in release { break }
                return SlowFeed()
            }
            Shared { resolve throws in FeedReader(feed: try resolve.tryResolve()) }
        }
        let report = await box.validate()
        #expect(report.problems.isEmpty, "\(report)")
        #expect(Set(report.unchecked.map(\.registration)) == ["SlowFeed", "FeedReader"], "\(report)")
        // The limit counts from validate()'s start, for every check together: the reason says so.
        let late = report.unchecked.first { $0.registration == "SlowFeed" }?.reason
        #expect(late?.contains("had not finished 10 s after validate() began") == true, "\(report)")
        // And why a check may not finish though its factory is quick: its actor did not run it.
        #expect(late?.contains("a check waits for its actor's turn") == true, "\(report)")
        #expect(
            late?.contains("(registered at DependencyInjectionTests/ValidationOfUnfinishedChecksTests.swift:") == true,
            "\(report)")
    }
}
