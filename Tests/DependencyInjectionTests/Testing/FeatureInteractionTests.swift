@_spi(Testing) import DependencyInjection
import Foundation
import Testing

// Features that each work alone, together: strict mode and validate(), scope runs and failed
// resolutions, decorators and release after the lock.

private final class StrictReports: @unchecked Sendable {
    // Unchecked: `items` is read and written only with `lock` held.
    private let lock = NSLock()
    private var items: [String] = []
    func append(_ resolve: StrictResolve) { lock.withLock { items.append(resolve.typeName) } }
    var all: [String] { lock.withLock { items } }
}

private final class MergeToken {}
private final class MergeFailing {}
private struct MergeOffline: Error {}

@Suite(.timeLimit(.minutes(1))) struct FeatureInteractionTests {
    @Test func validateInAStrictContainerReportsNoResolveOfTheTest() {
        let box = DIContainer()
        box.register {
            Shared(LivePayments() as Payments)
            Shared { resolve in Checkout(payments: resolve()) }
        }
        let reports = StrictReports()
        box.reportResolvesOfCurrentRegistrations(reports.append)
        #expect(box.validate().problems.isEmpty)
        // validate() probes a copy: the test itself resolved nothing.
        #expect(reports.all == [])
    }

    @Test func aFailedResolutionThatUsedAScopeRunInsideItsFactoryKeepsTheContainersScopedInstance() {
        let box = DIContainer()
        box.register {
            Scoped(.session) { MergeToken() }
            Shared { resolve throws -> MergeFailing in
                box.withScope(.session) { _ = resolve(MergeToken.self) }
                throw MergeOffline()
            }
        }
        let kept = box.resolve(MergeToken.self)
        #expect(throws: ResolutionError.self) { try box.tryResolve(MergeFailing.self) }
        // What the run made went with the run; the container's own instance is not the resolution's to drop.
        #expect(box.resolve(MergeToken.self) === kept)
    }

    @Test func whatAFailingDecoratorDropsIsReleasedAfterTheLock() {
        let box = DIContainer()
        let outcome = Guarded<Bool?>(nil)
        box.register {
            Shared(Engine())
            New { ResolvesInDeinit { outcome.withLock { $0 = anotherThreadCanResolve(from: box) } } }
            Decorate(ResolvesInDeinit.self) { _, _ in throw MergeOffline() }
        }
        #expect(throws: ResolutionError.self) { try box.tryResolve(ResolvesInDeinit.self) }
        #expect(outcome.current == true)
    }
}
