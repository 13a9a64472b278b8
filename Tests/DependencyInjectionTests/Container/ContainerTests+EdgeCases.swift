import DependencyInjection
import Foundation
import Testing

// What an activation does not reach: detached tasks and other threads.

extension ActivateTests {
    @Test func aDetachedTaskDoesNotInheritTheActivation() async {
        let box = DIContainer()
        let detachedSeesShared = await box.activate { () async -> Bool in
            await Task.detached { DIContainer.current === DIContainer.shared }.value
        }
        #expect(detachedSeesShared)
    }

    @Test func anotherThreadDoesNotSeeTheActivation() {
        final class Observation: @unchecked Sendable {
            var sawShared = false
        }
        let box = DIContainer()
        let observation = Observation()
        box.activate {
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                observation.sawShared = DIContainer.current === DIContainer.shared
                done.signal()
            }
            thread.start()
            done.wait()
        }
        #expect(observation.sawShared)
    }
}
