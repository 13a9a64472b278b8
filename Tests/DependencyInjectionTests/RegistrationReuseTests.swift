import DependencyInjection
import Testing

// A registration written in a builder block is installed as it is; one that a stored registration
// or module still holds, or that a container installed already, is copied: each container (and
// each `register` call) keeps instances of its own.

private final class Service {}

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
}
