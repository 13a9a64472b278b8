import DependencyInjection
import Testing

// Named registrations: several of one type, side by side with the unnamed one.

private protocol Storage: AnyObject { var kind: String { get } }
private final class DiskStorage: Storage { let kind = "disk" }
private final class MemoryStorage: Storage { let kind = "memory" }
private final class CloudStorage: Storage { let kind = "cloud" }

private final class NamedConsumer {
    @Inject(name: "disk") var injected: Storage
    @LazyInject(name: "memory") var lazy: Storage
    @MutableInject(name: "cloud") var mutable: Storage
    @MutableLazyInject(name: "disk") var mutableLazy: Storage
    @Inject(name: "absent") var optional: Storage?
}

private func registerStorages(in box: DIContainer) {
    box.register {
        Shared(DiskStorage() as Storage).named("disk")
        Shared(MemoryStorage() as Storage).named("memory")
        Shared(CloudStorage() as Storage).named("cloud")
    }
}

@Suite struct NameTests {
    @Test func namedAndUnnamedRegistrationsCoexist() throws {
        let box = DIContainer()
        registerStorages(in: box)
        box.register(Shared(MemoryStorage() as Storage))
        #expect(box.resolve(Storage.self).kind == "memory")
        #expect(box.resolve(Storage.self, name: "disk").kind == "disk")
        #expect(box.resolve(Storage.self, name: "memory") !== box.resolve(Storage.self))
        #expect(try box.tryResolve(Storage.self, name: "cloud").kind == "cloud")
    }

    @Test func eachNameKeepsItsOwnSharedInstance() {
        let box = DIContainer()
        box.register {
            Shared(DiskStorage() as Storage).named("a")
            Shared(DiskStorage() as Storage).named("b")
        }
        #expect(box.resolve(Storage.self, name: "a") === box.resolve(Storage.self, name: "a"))
        #expect(box.resolve(Storage.self, name: "a") !== box.resolve(Storage.self, name: "b"))
    }

    @Test func registeringANameAgainReplacesOnlyThatName() {
        let box = DIContainer()
        registerStorages(in: box)
        box.register(Shared(CloudStorage() as Storage).named("disk"))
        #expect(box.resolve(Storage.self, name: "disk").kind == "cloud")
        #expect(box.resolve(Storage.self, name: "memory").kind == "memory")
    }

    @Test func anUnnamedOptionalIgnoresNamedRegistrations() {
        let box = DIContainer()
        registerStorages(in: box)
        #expect(box.resolve(Storage?.self) == nil)
        #expect(box.resolve(Storage?.self, name: "disk")?.kind == "disk")
        #expect(box.resolve(Storage?.self, name: "absent") == nil)
    }

    @Test func anUnnamedResolveDoesNotFallBackToANamedRegistration() throws {
        let box = DIContainer()
        registerStorages(in: box)
        let error = try #require(resolutionError { try box.tryResolve(Storage.self) })
        #expect(error.reason == .missingRegistration)
        #expect(error.name == nil)
        #expect(error.registeredNames == ["cloud", "disk", "memory"])
    }

    @Test func aMissingNameIsReportedWithTheNamesThatExist() throws {
        let box = DIContainer()
        registerStorages(in: box)
        let error = try #require(resolutionError { try box.tryResolve(Storage.self, name: "tape") })
        #expect(error.reason == .missingRegistration)
        #expect(error.name == "tape")
        #expect(error.registeredNames == ["cloud", "disk", "memory"])
    }

    @Test func allFourPropertyWrappersTakeAName() {
        let box = DIContainer()
        registerStorages(in: box)
        let consumer = box.activate { NamedConsumer() }
        #expect(consumer.injected.kind == "disk")
        #expect(consumer.lazy.kind == "memory")
        #expect(consumer.mutable.kind == "cloud")
        #expect(consumer.mutableLazy.kind == "disk")
        #expect(consumer.optional == nil)
    }

    @Test func aFactoryResolvesNamedDependencies() {
        final class Mirror {
            let primary: Storage
            let backup: Storage
            init(primary: Storage, backup: Storage) {
                self.primary = primary
                self.backup = backup
            }
        }
        let box = DIContainer()
        registerStorages(in: box)
        box.register(Shared { resolve in Mirror(primary: resolve(name: "disk"), backup: resolve(Storage.self, name: "cloud")) })
        let mirror = box.resolve(Mirror.self)
        #expect(mirror.primary.kind == "disk")
        #expect(mirror.backup.kind == "cloud")
    }

    @Test func theStaticAPITakesNamesOnTheCurrentContainer() {
        let box = DIContainer()
        box.activate {
            DIContainer.register(Shared(DiskStorage() as Storage).named("static"))
            #expect(DIContainer.resolve(Storage.self, name: "static").kind == "disk")
            #expect((try? DIContainer.tryResolve(Storage.self, name: "static"))?.kind == "disk")
        }
        #expect(box.resolve(Storage?.self, name: "static") != nil)
    }

    @Test func namedFactoriesWithArgumentsResolveByName() {
        final class Label {
            let text: String
            init(_ text: String) { self.text = text }
        }
        let box = DIContainer()
        box.register {
            New { _, text in Label("upper " + text) }.named("upper")
            New { _, text in Label("lower " + text) }.named("lower")
        }
        #expect(box.resolve(Label.self, name: "upper", arguments: { "x" }).text == "upper x")
        #expect(box.resolve(Label.self, name: "lower") { "y" }.text == "lower y")
    }
}
