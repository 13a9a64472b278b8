import DependencyInjection
import Foundation
import Testing

// Containers of your own, parents, activate, reset, releaseInstances, registerDependencies.

private final class Wheel { init() {} }
private final class Bike {
    let wheel: Wheel
    init(wheel: Wheel) { self.wheel = wheel }
}
private final class Rider {
    @Inject var wheel: Wheel
}
private final class Marker { init() {} }

/// Runs `body` with a copy of `shared` that has been reset: like `shared` after `reset()`,
/// it runs `registerDependencies()` again before its next registration or resolution.
private func withResetCopyOfShared(_ body: (DIContainer) -> Void) {
    DIContainer.shared.withOverrides {} operation: {
        let copy = DIContainer.current
        copy.reset()
        body(copy)
    }
}

@Suite struct ContainerTests {
    // MARK: Containers and parents

    @Test func aNewContainerStartsEmpty() {
        let box = DIContainer()
        #expect(box.resolve(Greeting?.self) == nil)
        #expect(box.resolve(Wheel?.self) == nil)
        #expect(box.parent == nil)
    }

    @Test func sharedHasWhatRegisterDependenciesRegisters() throws {
        #expect(try DIContainer.shared.tryResolve(Greeting.self).text == "production")
    }

    @Test func aChildFallsBackToItsParent() {
        let parent = DIContainer()
        parent.register(Shared(Wheel.init))
        let child = DIContainer(parent: parent)
        #expect(child.parent === parent)
        #expect(child.resolve(Wheel.self) === parent.resolve(Wheel.self))
    }

    @Test func aGrandchildFallsBackThroughTheChain() {
        let root = DIContainer()
        root.register(Shared(Wheel.init))
        let grandchild = DIContainer(parent: DIContainer(parent: root))
        #expect(grandchild.resolve(Wheel.self) === root.resolve(Wheel.self))
    }

    @Test func aParentNeverSeesItsChildsRegistrations() {
        let parent = DIContainer()
        let child = DIContainer(parent: parent)
        child.register(Shared(Wheel.init))
        #expect(parent.resolve(Wheel?.self) == nil)
        #expect(child.resolve(Wheel?.self) != nil)
    }

    @Test func aChildRegistrationShadowsTheParentsForTheChildOnly() {
        let parent = DIContainer()
        parent.register(Shared(Wheel.init))
        let child = DIContainer(parent: parent)
        child.register(Shared(Wheel.init))
        #expect(child.resolve(Wheel.self) !== parent.resolve(Wheel.self))
    }

    @Test func aParentServiceKeepsTheParentsDependencies() {
        let parent = DIContainer()
        parent.register {
            Shared(Wheel.init)
            New { resolve in Bike(wheel: resolve()) }
            New(Rider())
        }
        let child = DIContainer(parent: parent)
        child.register(Shared(Wheel.init))
        let parentWheel = parent.resolve(Wheel.self)
        #expect(child.resolve(Bike.self).wheel === parentWheel)
        #expect(child.resolve(Rider.self).wheel === parentWheel)
        #expect(child.resolve(Wheel.self) !== parentWheel)
    }

    @Test func aChildServiceUsesTheChildsDependenciesAndTheParentsForTheRest() {
        let parent = DIContainer()
        parent.register(Shared(Wheel.init))
        let child = DIContainer(parent: parent)
        child.register(New { resolve in Bike(wheel: resolve()) })
        #expect(child.resolve(Bike.self).wheel === parent.resolve(Wheel.self))
        #expect(parent.resolve(Bike?.self) == nil)
    }

    @Test func aMissingRegistrationInAChildLooksAtTheWholeChain() throws {
        let parent = DIContainer()
        parent.register(Shared(Wheel.init).named("front"))
        let child = DIContainer(parent: parent)
        let error = try #require(resolutionError { try child.tryResolve(Wheel.self) })
        #expect(error.reason == .missingRegistration)
        #expect(error.registeredNames == ["front"])
    }

    // MARK: Which container is current

    @Test func currentIsSharedOutsideAnyActivation() {
        #expect(DIContainer.current === DIContainer.shared)
    }

    @Test func activateBindsTheContainerForTheClosureOnly() {
        let box = DIContainer()
        let value = box.activate { () -> Bool in
            DIContainer.current === box
        }
        #expect(value)
        #expect(DIContainer.current === DIContainer.shared)
    }

    @Test func nestedActivationsRestoreTheOuterContainer() {
        let outer = DIContainer()
        let inner = DIContainer()
        outer.activate {
            inner.activate { #expect(DIContainer.current === inner) }
            #expect(DIContainer.current === outer)
        }
    }

    @Test func activateRethrowsAndStillRestores() {
        struct Stop: Error {}
        let box = DIContainer()
        #expect(throws: Stop.self) { try box.activate { throw Stop() } }
        #expect(DIContainer.current === DIContainer.shared)
    }

    @Test func theStaticAPIActsOnTheActivatedContainer() throws {
        let box = DIContainer()
        try box.activate {
            DIContainer.register(Shared(Wheel.init))
            try DIContainer.tryRegister(Shared(Marker.init))
            #expect(DIContainer.resolve(Wheel.self) === box.resolve(Wheel.self))
            DIContainer.releaseInstances()
            DIContainer.reset()
        }
        #expect(box.resolve(Wheel?.self) == nil)
        #expect(DIContainer.shared.resolve(Wheel?.self) == nil)
        #expect(DIContainer.shared.resolve(Marker?.self) == nil)
    }

    @Test func asyncActivationKeepsTheContainerAcrossSuspensions() async {
        let box = DIContainer()
        box.register(Shared(Wheel.init))
        let wheel = await box.activate { () async -> Wheel in
            await Task.yield()
            return DIContainer.resolve(Wheel.self)
        }
        #expect(wheel === box.resolve(Wheel.self))
        #expect(DIContainer.current === DIContainer.shared)
    }

    @Test func concurrentTasksEachSeeTheirOwnActivatedContainer() async {
        let boxes = (0..<8).map { _ in DIContainer() }
        for box in boxes { box.register(Shared(Wheel.init)) }
        let matches = await withTaskGroup(of: Bool.self) { group in
            for box in boxes {
                group.addTask {
                    await box.activate { () async -> Bool in
                        var allMatch = true
                        for _ in 0..<20 {
                            await Task.yield()
                            allMatch = allMatch && DIContainer.current === box
                                && DIContainer.resolve(Wheel.self) === box.resolve(Wheel.self)
                        }
                        return allMatch
                    }
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(matches == Array(repeating: true, count: boxes.count))
    }

    @Test func aDetachedTaskDoesNotInheritTheActivation() async {
        let box = DIContainer()
        let detachedSeesShared = await box.activate { () async -> Bool in
            await Task.detached { DIContainer.current === DIContainer.shared }.value
        }
        let childSeesBox = await box.activate { () async -> Bool in
            await Task { DIContainer.current === box }.value
        }
        #expect(detachedSeesShared)
        #expect(childSeesBox)
    }

    @Test func anotherThreadDoesNotSeeTheActivation() {
        let box = DIContainer()
        let seen = ConcurrentCollector<Bool>()
        box.activate {
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                seen.append(DIContainer.current === DIContainer.shared)
                done.signal()
            }
            thread.start()
            done.wait()
        }
        #expect(seen.all == [true])
    }

    @Test func whileAFactoryRunsItsContainerIsCurrent() {
        let box = DIContainer()
        let other = DIContainer()
        let seen = ConcurrentCollector<ObjectIdentifier>()
        box.register(New { () -> Marker in
            seen.append(ObjectIdentifier(DIContainer.current))
            return Marker()
        })
        other.activate {
            _ = box.resolve(Marker.self)
            #expect(DIContainer.current === other)
        }
        #expect(seen.all == [ObjectIdentifier(box)])
    }

    // MARK: Housekeeping

    @Test func resetForgetsRegistrationsAndInstances() {
        let box = DIContainer()
        box.register(Shared(Wheel.init))
        let before = box.resolve(Wheel.self)
        box.reset()
        #expect(box.resolve(Wheel?.self) == nil)
        box.register(Shared(Wheel.init))
        #expect(box.resolve(Wheel.self) !== before)
    }

    @Test func resetOfAContainerOfYourOwnDoesNotRunRegisterDependencies() {
        let box = DIContainer()
        box.reset()
        #expect(box.resolve(Greeting?.self) == nil)
    }

    @Test func releaseInstancesKeepsRegistrationsAndMakesSharedAnew() {
        let made = FactoryCallCounter()
        let box = DIContainer()
        box.register {
            Shared { () -> Wheel in
                made.increment()
                return Wheel()
            }
            New(Marker())
        }
        let before = box.resolve(Wheel.self)
        box.releaseInstances()
        #expect(made.value == 1)
        let after = box.resolve(Wheel.self)
        #expect(after !== before)
        #expect(box.resolve(Wheel.self) === after)
        #expect(made.value == 2)
        #expect(box.resolve(Marker?.self) != nil)
    }

    @Test func releaseInstancesDropsWeakInstancesTheContainerHeld() {
        let box = DIContainer()
        box.register(Weak(Wheel.init))
        let held = box.resolve(Wheel.self)
        box.releaseInstances()
        #expect(box.resolve(Wheel.self) !== held)
    }

    // MARK: registerDependencies

    @Test func registerDependenciesRunsAgainAfterResetForShared() {
        withResetCopyOfShared { copy in
            #expect(copy.resolve(Greeting?.self)?.text == "production")
        }
    }

    @Test func aRegistrationMadeBeforeTheFirstResolveIsNotOverwritten() {
        withResetCopyOfShared { copy in
            copy.register(Shared(MockGreeting() as Greeting))
            #expect(copy.resolve(Greeting.self).text == "mock")
            copy.register(Shared(Marker.init))
            #expect(copy.resolve(Greeting.self).text == "mock")
        }
    }

    @Test func aChildOfAContainerDueToRunRegisterDependenciesSeesItsRegistrations() {
        withResetCopyOfShared { copy in
            let child = DIContainer(parent: copy)
            #expect(child.resolve(Greeting?.self)?.text == "production")
        }
    }
}
