import DependencyInjection
import Foundation
import Testing

// Registrations that make their entries where they are written, and the unretained frames that
// written: stored registrations and modules reused across containers and threads, failed installs
// registered again, isolation of what they make, and containers let go while they resolve.

private final class ReviewPart {}
private final class ReviewWhole {
    let part: ReviewPart
    init(part: ReviewPart) { self.part = part }
}
protocol ReviewUnrelated: AnyObject {}
private struct ReviewFailure: Error {}

private enum StoredReview {
    static let module = Module {
        Shared { ReviewPart() }
        Shared { resolve in ReviewWhole(part: resolve()) }
    }
    static let registration = Shared { ReviewPart() }.named("stored")
}

private final class ContainerHolder: @unchecked Sendable {
    var box: DIContainer?
}

@Suite(.timeLimit(.minutes(1))) struct StoredRegistrationTests {
    @Test func aStaticModuleRegisteredIntoManyContainersAtOnceGivesEachItsOwnInstances() {
        let count = 64
        let boxes = (0..<count).map { _ in DIContainer() }
        DispatchQueue.concurrentPerform(iterations: count) { index in
            boxes[index].register {
                StoredReview.module
                StoredReview.registration
            }
            let whole = boxes[index].resolve(ReviewWhole.self)
            #expect(whole.part === boxes[index].resolve(ReviewPart.self))
        }
        let wholes = boxes.map { ObjectIdentifier($0.resolve(ReviewWhole.self)) }
        let named = boxes.map { ObjectIdentifier($0.resolve(ReviewPart.self, name: "stored")) }
        #expect(Set(wholes).count == count)
        #expect(Set(named).count == count)
        #expect(boxes.allSatisfy { $0.registrations.count == 3 })
    }

    @Test func oneStaticModuleRegisteredIntoOneContainerFromManyThreadsAtOnce() {
        let box = DIContainer()
        DispatchQueue.concurrentPerform(iterations: 32) { _ in
            box.register(StoredReview.module)
            box.register(StoredReview.registration)
            _ = box.resolve(ReviewWhole.self)
            _ = box.resolve(ReviewPart.self, name: "stored")
        }
        #expect(box.registrations.count == 3)
        let whole = box.resolve(ReviewWhole.self)
        #expect(whole.part === box.resolve(ReviewPart.self))
        #expect(box.validate().isValid)
        #expect(box.dependencyGraph().contains("->"))
    }

    @Test func anEagerFailureLeavesAStoredModuleAsItWasForTheNextRegistration() throws {
        let attempts = Guarded(0)
        let module = Module {
            Shared { (_: Resolver) throws -> ReviewPart in
                attempts.increment()
                if attempts.current == 1 { throw ReviewFailure() }
                return ReviewPart()
            }.eager()
            Shared { resolve in ReviewWhole(part: resolve()) }
        }
        let box = DIContainer()
        #expect(throws: ResolutionError.self) { try box.tryRegister(module) }
        #expect(box.registrations.isEmpty)
        try box.tryRegister(module)
        #expect(attempts.current == 2)
        #expect(box.registrations.map(\.typeName) == ["ReviewPart", "ReviewWhole"])
        let other = DIContainer()
        try other.tryRegister(module)
        #expect(attempts.current == 3)
        #expect(other.resolve(ReviewPart.self) !== box.resolve(ReviewPart.self))
        #expect(box.resolve(ReviewWhole.self).part === box.resolve(ReviewPart.self))
        #expect(box.validate().isValid)
        #expect(other.validate().isValid)
        #expect(box.dependencyGraph() == other.dependencyGraph())
    }

    @Test func aBadAliasLeavesTheContainerAndTheStoredRegistrationsAsTheyWere() throws {
        let good = Shared { ReviewPart() }
        let bad = Shared(ReviewPart(), as: ReviewUnrelated.self).named("bad")
        let box = DIContainer()
        box.register { Shared { resolve in ReviewWhole(part: resolve()) } }
        let error = resolutionError {
            try box.tryRegister(
                Module {
                    good
                    Shared { ReviewPart() }.named("fresh")
                    bad
                })
        }
        #expect(error?.reason == .aliasNotConforming(implementation: "ReviewPart"))
        #expect(box.registrations.map(\.typeName) == ["ReviewWhole"])
        try box.tryRegister(good)
        try box.tryRegister(Module(good))
        #expect(box.registrations.count == 2)
        #expect(box.resolve(ReviewWhole.self).part === box.resolve(ReviewPart.self))
        #expect(box.validate().isValid)
    }

    @MainActor @Test func aStoredMainActorModuleKeepsEachValueWhereItMayGoInEveryContainer() async throws {
        // Written on the main actor: both factories are main-actor isolated.
        let module = Module {
            Shared { SendableService() }
            Shared(PlainCounter())
        }
        let boxes = [DIContainer(), DIContainer(), DIContainer()]
        boxes[0].register(module)
        boxes[1].register {
            module
            module
        }
        boxes[2].register(module)
        for box in boxes {
            try await box.prepare()
            let sendable = await Task.detached { try? box.tryResolve(SendableService.self) }.value
            #expect(sendable === box.resolve(SendableService.self))
            let reason = await Task.detached {
                resolutionError { _ = try box.tryResolve(PlainCounter.self) }?.reason
            }.value
            #expect(reason == .mainActorRequired)
        }
        let sendables = boxes.map { ObjectIdentifier($0.resolve(SendableService.self)) }
        #expect(Set(sendables).count == boxes.count)
        #expect(await boxes[1].validate().problems.isEmpty)
    }

    @Test func aFactoryThatLetsGoOfItsOwnContainerFinishesItsResolution() {
        let holder = ContainerHolder()
        weak var released: DIContainer?
        do {
            let box = DIContainer()
            released = box
            holder.box = box
        }
        holder.box!.register {
            Shared { resolve -> ReviewWhole in
                holder.box = nil
                let other = DIContainer()
                other.register { Shared { ReviewPart() }.named("other") }
                let fromOther: ReviewPart = other.activate { DIContainer.resolve(name: "other") }
                #expect(fromOther === other.resolve(ReviewPart.self, name: "other"))
                let part: ReviewPart = DIContainer.withOverrides({ Shared { ReviewPart() }.named("override") }) {
                    DIContainer.resolve(name: "override")
                }
                _ = part
                return ReviewWhole(part: resolve())
            }
            .onResolve { whole, resolve in #expect(whole.part === (resolve() as ReviewPart)) }
            Shared { ReviewPart() }
        }
        let whole = holder.box!.resolve(ReviewWhole.self)
        #expect(holder.box == nil)
        #expect(released == nil)
        _ = whole
    }

    @Test func aChildHeldOnlyByItsParentsInstanceResolvesWhileTheParentLetsGoOfIt() {
        final class Session {
            let box: DIContainer
            init(box: DIContainer) { self.box = box }
        }
        let parent = DIContainer()
        weak var child: DIContainer?
        parent.register {
            Shared { () -> Session in
                let box = DIContainer(parent: parent)
                box.register {
                    Shared { resolve -> ReviewWhole in
                        parent.releaseInstances()
                        return ReviewWhole(part: resolve())
                    }
                }
                child = box
                return Session(box: box)
            }
            Shared { ReviewPart() }
        }
        let whole = parent.resolve(Session.self).box.resolve(ReviewWhole.self)
        #expect(whole.part === parent.resolve(ReviewPart.self) || child == nil)
        #expect(child == nil)
    }

    @Test func anActorMethodBindsAStoredModulesNonSendableLinesWithoutChangingTheModule() async throws {
        actor Registrar {
            func register(in box: DIContainer) { box.register { StoredReview.module } }
        }
        let bound = DIContainer()
        // Kept alive while it resolves: a registration does not keep its actor.
        let registrar = Registrar()
        await registrar.register(in: bound)
        let reason = resolutionError { _ = try bound.tryResolve(ReviewWhole.self) }?.reason
        withExtendedLifetime(registrar) {}
        #expect(reason == .notYetMade(actor: "Registrar"))
        // The stored module itself is as it was: registered in nonisolated code, it runs anywhere.
        let plain = DIContainer()
        plain.register(StoredReview.module)
        #expect(try plain.tryResolve(ReviewWhole.self).part === plain.resolve(ReviewPart.self))
    }

    @Test(arguments: [3, 4, 5, 15, 16, 17, 40])
    func aFactoryResolvingManyKeysTwiceHasEachEdgeOnce(count: Int) {
        let box = DIContainer()
        box.register {
            for index in 0..<count { Shared { ReviewPart() }.named("part\(index)") }
            Shared { resolve -> ReviewWhole in
                for _ in 0..<2 {
                    for index in 0..<count { _ = resolve(ReviewPart.self, name: "part\(index)") }
                }
                return ReviewWhole(part: ReviewPart())
            }
        }
        _ = box.resolve(ReviewWhole.self)
        let graph = box.dependencyGraph()
        #expect(graph.components(separatedBy: "->").count - 1 == count)
        #expect(box.validate().isValid)
        #expect(box.dependencyGraph() == graph)
    }
}
