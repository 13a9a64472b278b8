import DependencyInjection
import Testing

// A registration written in a builder block is installed as it is; one that a stored registration
// or module still holds, or that a container installed already, is copied: each container (and
// each `register` call) keeps instances of its own.

private final class Service {}
private final class SessionState {}

@Suite(.timeLimit(.minutes(1))) struct RegistrationReuseTests {
    @Test func aStoredRegistrationGivesEachContainerItsOwnInstance() {
        let shared = Shared(Service())
        let (first, second) = (DIContainer(), DIContainer())
        first.register(shared)
        second.register(shared)
        let made = first.resolve(Service.self)
        #expect(first.resolve(Service.self) === made)
        #expect(second.resolve(Service.self) !== made)
        // Registered again in the first container: a new registration, with no instance yet.
        first.register(shared)
        #expect(first.resolve(Service.self) !== made)
    }

    @Test func aStoredModuleRegisteredTwiceAndAfterItsContainerIsGoneStartsEmpty() {
        let module = Module {
            Shared(Service())
            Shared { Service() }.named("named")
        }
        var first: DIContainer? = DIContainer()
        first?.register(module)
        let made = first?.resolve(Service.self)
        let named = first?.resolve(Service.self, name: "named")
        first = nil
        let second = DIContainer()
        second.register {
            module
            module
        }
        #expect(second.resolve(Service.self) !== made)
        #expect(second.resolve(Service.self, name: "named") !== named)
        #expect(second.registrations.count == 2)
        #expect(second.validate().isValid)
    }

    @Test func aModifiedStoredRegistrationLeavesTheOriginalAsItWas() {
        let plain = Shared(Service())
        let named = plain.named("other")
        let box = DIContainer()
        box.register {
            plain
            named
        }
        #expect(box.registrations.map(\.name) == [nil, "other"])
        #expect(box.resolve(Service.self) !== box.resolve(Service.self, name: "other"))
    }

    // `onResolve` actions and scopes are kept out of line, shared by copied registrations until one
    // of them changes: a change makes its own.
    @Test func actionsAddedToACopyLeaveTheOriginalAsItWas() {
        let ran = Tally()
        let plain = Shared(Service()).onResolve { _, _ in ran.increment() }
        let more = plain.onResolve { _, _ in ran.increment() }.named("more")
        let scoped = Scoped(DIScope("session")) { SessionState() }.onResolve { _, _ in ran.increment() }
        let scopedMore = scoped.named("more").onResolve { _, _ in ran.increment() }
        let box = DIContainer()
        box.register {
            plain
            more
            scoped
            scopedMore
        }
        let kept = box.resolve(Service.self)
        #expect(ran.value == 1)
        _ = box.resolve(Service.self, name: "more")
        #expect(ran.value == 3)
        let session = box.resolve(SessionState.self)
        #expect(ran.value == 4)
        let sessionMore = box.resolve(SessionState.self, name: "more")
        #expect(ran.value == 6)
        // Both scoped copies kept their scope; the unscoped ones have none.
        box.releaseInstances(in: DIScope("session"))
        #expect(box.resolve(SessionState.self) !== session)
        #expect(box.resolve(SessionState.self, name: "more") !== sessionMore)
        #expect(box.resolve(Service.self) === kept)
        #expect(ran.value == 9)
    }
}
