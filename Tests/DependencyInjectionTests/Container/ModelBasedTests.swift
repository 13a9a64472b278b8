import DependencyInjection
import Foundation
import Testing

// Random sequences of register / resolve / withOverrides / releaseInstances / reset, checked step
// by step against a reference model that says which instance each resolve must return: a kept
// one (by serial number) or a fresh one. A failure names the seed; replay it with
// `DI_MODEL_SEED=<seed> swift test --filter ModelBasedTests`.

@Suite(.timeLimit(.minutes(1))) struct ModelBasedTests {
    static let stepCount = 12_000

    /// The seed from `DI_MODEL_SEED` (decimal or 0x-hex) alone, else a fixed seed and a random one.
    static var seeds: [UInt64] {
        if let seed = environmentSeed("DI_MODEL_SEED") { return [seed] }
        return [0x00D1_5EED, UInt64.random(in: .min ... .max)]
    }

    @Test(arguments: seeds)
    func containerBehavesLikeTheReferenceModel(seed: UInt64) {
        let run = ModelRun(seed: seed)
        for step in 0..<Self.stepCount {
            if let mismatch = run.step() {
                Issue.record(
                    """
                    Model mismatch at step \(step) with seed \(seed) \
                    (replay: DI_MODEL_SEED=\(seed) swift test --filter ModelBasedTests)
                    \(mismatch)
                    Last steps:
                    \(run.journal.joined(separator: "\n"))
                    """)
                return
            }
        }
        #expect(run.resolutions > Self.stepCount / 4, "the run resolved too little to mean anything")
    }
}

// MARK: - The services

class ModelService {
    let serial: Int
    required init(serial: Int) { self.serial = serial }
}
final class ServiceA: ModelService {}
final class ServiceB: ModelService {}
final class ServiceC: ModelService {}

/// Made by a `New` registration with arguments: resolves one slot twice in one resolution.
final class ModelPair {
    let first: ModelService
    let second: ModelService
    init(first: ModelService, second: ModelService) {
        self.first = first
        self.second = second
    }
}

/// Hands out serial numbers; factories run on the test's thread, one at a time.
final class SerialCounter: @unchecked Sendable {
    private(set) var last = 0
    func next() -> Int {
        last += 1
        return last
    }
}

/// A registration slot: one of the service types (or `ModelService`, the alias) and a name.
struct Slot: Hashable, CustomStringConvertible {
    static let typeNames = ["ServiceA", "ServiceB", "ServiceC", "ModelService"]
    static let names: [String?] = [nil, "x", "y"]
    /// 0...2: ServiceA...C; 3: ModelService, registered only as an alias.
    let type: Int
    let name: String?

    var description: String { Self.typeNames[type] + (name.map { "(\"\($0)\")" } ?? "") }

    func resolve(from container: DIContainer) throws -> ModelService {
        switch type {
        case 0: try container.tryResolve(ServiceA.self, name: name)
        case 1: try container.tryResolve(ServiceB.self, name: name)
        case 2: try container.tryResolve(ServiceC.self, name: name)
        default: try container.tryResolve(ModelService.self, name: name)
        }
    }

    func resolve(with resolver: Resolver) throws -> ModelService {
        switch type {
        case 0: try resolver.tryResolve(ServiceA.self, name: name)
        case 1: try resolver.tryResolve(ServiceB.self, name: name)
        case 2: try resolver.tryResolve(ServiceC.self, name: name)
        default: try resolver.tryResolve(ModelService.self, name: name)
        }
    }
}

// MARK: - The reference model

/// What the model knows about one registration (shared by its slot and its alias's slot).
final class ModelEntry {
    let lifetime: Lifetime
    /// The serial of the kept `Shared` instance.
    var shared: Int?
    /// The serial of the last `Weak` instance; alive only while the model holds it.
    var weak: Int?

    init(lifetime: Lifetime) { self.lifetime = lifetime }
}

final class ModelState {
    var slots: [Slot: ModelEntry] = [:]

    /// What `withOverrides` starts from: the same registrations, aliases still shared, no instances.
    func isolatedCopy() -> ModelState {
        var copies: [ObjectIdentifier: ModelEntry] = [:]
        let copy = ModelState()
        for (slot, entry) in slots {
            let fresh = copies[ObjectIdentifier(entry)] ?? ModelEntry(lifetime: entry.lifetime)
            copies[ObjectIdentifier(entry)] = fresh
            copy.slots[slot] = fresh
        }
        return copy
    }

    func releaseInstances() {
        for entry in slots.values {
            entry.shared = nil
            entry.weak = nil
        }
    }
}

/// What a resolve must return.
enum Expected: Equatable, CustomStringConvertible {
    case missing
    case kept(Int)
    case fresh

    var description: String {
        switch self {
        case .missing: "a missing registration"
        case .kept(let serial): "the kept instance #\(serial)"
        case .fresh: "a fresh instance"
        }
    }
}

// MARK: - A run

final class ModelRun {
    let seed: UInt64
    var random: SplitMix64
    let container = DIContainer()
    let serials = SerialCounter()
    var model = ModelState()
    /// Instances the test holds on to, by serial, which keeps `Weak` ones alive.
    var held: [Int: ModelService] = [:]
    var journal: [String] = []
    var resolutions = 0

    init(seed: UInt64) {
        self.seed = seed
        random = SplitMix64(seed: seed)
        registerPair(in: container)
    }

    /// One random operation; a description of the mismatch if the container disagreed.
    func step() -> String? {
        let choice = random.below(100)
        switch choice {
        case 0..<25:
            register(randomRegistration(), in: container, model: model)
            return nil
        case 25..<60:
            return resolve(randomSlot(), in: container, model: model)
        case 60..<72:
            return resolvePair(randomSlot(), in: container, model: model)
        case 72..<80:
            if let serial = held.keys.randomElement(using: &random) {
                note("drop held #\(serial)")
                held[serial] = nil
            }
            return nil
        case 80..<85:
            note("releaseInstances()")
            container.releaseInstances()
            model.releaseInstances()
            return nil
        case 85..<87:
            note("reset()")
            container.reset()
            model = ModelState()
            registerPair(in: container)
            return nil
        default:
            return withOverrides()
        }
    }

    // MARK: Operations

    struct RegistrationChoice {
        let slot: Slot
        let lifetime: Lifetime
        let withAlias: Bool
    }

    func randomRegistration() -> RegistrationChoice {
        let lifetimes: [Lifetime] = [.shared, .new, .weak, .graph, .scoped]
        return RegistrationChoice(
            slot: Slot(type: random.below(3), name: Slot.names[random.below(Slot.names.count)]),
            lifetime: lifetimes[random.below(lifetimes.count)], withAlias: random.below(3) == 0)
    }

    func randomSlot() -> Slot {
        Slot(type: random.below(4), name: Slot.names[random.below(Slot.names.count)])
    }

    func register(_ choice: RegistrationChoice, in container: DIContainer, model: ModelState) {
        note("register \(choice.lifetime)(\(choice.slot)\(choice.withAlias ? ", as: ModelService" : ""))")
        container.register(registration(for: choice))
        let entry = ModelEntry(lifetime: choice.lifetime)
        model.slots[choice.slot] = entry
        if choice.withAlias { model.slots[Slot(type: 3, name: choice.slot.name)] = entry }
    }

    func registration(for choice: RegistrationChoice) -> Module {
        switch choice.slot.type {
        case 0: registration(ServiceA.self, choice)
        case 1: registration(ServiceB.self, choice)
        default: registration(ServiceC.self, choice)
        }
    }

    func registration<Service: ModelService>(_ type: Service.Type, _ choice: RegistrationChoice) -> Module {
        let serials = self.serials
        let make = { Service(serial: serials.next()) }
        let name = choice.slot.name
        switch (choice.lifetime, choice.withAlias) {
        case (.shared, false): return Module(Shared(make).named(optional: name))
        case (.shared, true): return Module(Shared(make, as: ModelService.self).named(optional: name))
        case (.new, false): return Module(New(make).named(optional: name))
        case (.new, true): return Module(New(make, as: ModelService.self).named(optional: name))
        case (.weak, false): return Module(Weak(make).named(optional: name))
        case (.weak, true): return Module(Weak(make, as: ModelService.self).named(optional: name))
        case (.graph, false): return Module(Graph(make).named(optional: name))
        case (.graph, true): return Module(Graph(make, as: ModelService.self).named(optional: name))
        // Outside any withScope run, a Scoped service is kept like a Shared one.
        case (.scoped, false): return Module(Scoped(.model, make).named(optional: name))
        case (.scoped, true): return Module(Scoped(.model, make, as: ModelService.self).named(optional: name))
        }
    }

    func registerPair(in container: DIContainer) {
        container.register {
            New { (resolve: Resolver, type: Int, name: String?) in
                let slot = Slot(type: type, name: name)
                return try ModelPair(first: slot.resolve(with: resolve), second: slot.resolve(with: resolve))
            }
        }
    }

    /// What resolving `slot` once must give, by the model.
    func expectation(for slot: Slot, in model: ModelState) -> Expected {
        guard let entry = model.slots[slot] else { return .missing }
        switch entry.lifetime {
        case .shared, .scoped: return entry.shared.map(Expected.kept) ?? .fresh
        case .weak:
            guard let serial = entry.weak, held[serial] != nil else { return .fresh }
            return .kept(serial)
        case .new, .graph: return .fresh
        }
    }

    /// Tells the model which instance a resolve of `slot` returned.
    func remember(_ instance: ModelService, for slot: Slot, in model: ModelState) {
        guard let entry = model.slots[slot] else { return }
        switch entry.lifetime {
        case .shared, .scoped: entry.shared = instance.serial
        case .weak: entry.weak = instance.serial
        case .new, .graph: break
        }
        if random.below(3) == 0 { held[instance.serial] = instance }
    }

    func resolve(_ slot: Slot, in container: DIContainer, model: ModelState) -> String? {
        note("resolve \(slot)")
        resolutions += 1
        let expected = expectation(for: slot, in: model)
        let before = serials.last
        let instance: ModelService
        do {
            instance = try slot.resolve(from: container)
        } catch let error as ResolutionError where expected == .missing && error.reason == .missingRegistration {
            return nil
        } catch {
            return "resolve \(slot): expected \(expected), got an error:\n\(error)"
        }
        if let problem = check(instance, against: expected, madeSince: before, what: "resolve \(slot)") {
            return problem
        }
        remember(instance, for: slot, in: model)
        return nil
    }

    /// Resolves `slot` twice within one top-level resolution (a `ModelPair`).
    func resolvePair(_ slot: Slot, in container: DIContainer, model: ModelState) -> String? {
        note("resolve ModelPair of \(slot)")
        resolutions += 1
        let expected = expectation(for: slot, in: model)
        let lifetime = model.slots[slot]?.lifetime
        let before = serials.last
        let pair: ModelPair
        do {
            pair = try container.tryResolve(ModelPair.self) { (slot.type, slot.name) }
        } catch let error as ResolutionError where expected == .missing && error.reason == .missingRegistration {
            guard error.path == ["ModelPair", slot.description.replacingOccurrences(of: "(\"", with: " (name: \"")]
            else { return "pair of \(slot): wrong path \(error.path)" }
            return nil
        } catch {
            return "pair of \(slot): expected \(expected), got an error:\n\(error)"
        }
        let what = "pair of \(slot) (\(lifetime.map(String.init(describing:)) ?? "unregistered"))"
        if let problem = check(pair.first, against: expected, madeSince: before, what: what + ", first") {
            return problem
        }
        if lifetime == .new {
            // Each resolve made its own.
            guard pair.second.serial == before + 2, serials.last == before + 2 else {
                return
                    "\(what): New gave #\(pair.first.serial) and #\(pair.second.serial), made up to #\(serials.last), expected two fresh after #\(before)"
            }
        } else if pair.first !== pair.second {
            return "\(what): one resolution got #\(pair.first.serial) and #\(pair.second.serial)"
        }
        remember(pair.first, for: slot, in: model)
        return nil
    }

    /// Checks one instance against what the model expected.
    func check(_ instance: ModelService, against expected: Expected, madeSince before: Int, what: String) -> String? {
        switch expected {
        case .missing:
            return "\(what): expected \(expected), got #\(instance.serial)"
        case .kept(let serial):
            guard instance.serial == serial else { return "\(what): expected \(expected), got #\(instance.serial)" }
        case .fresh:
            guard instance.serial == before + 1 else {
                return "\(what): expected \(expected) (#\(before + 1)), got #\(instance.serial)"
            }
        }
        return nil
    }

    /// Runs a few steps inside `withOverrides` against a copy of the model, then checks that the
    /// container outside is as it was.
    func withOverrides() -> String? {
        let overrides = (0...random.below(2)).map { _ in randomRegistration() }
        note("withOverrides { \(overrides.map { "\($0.lifetime)(\($0.slot))" }.joined(separator: ", ")) }")
        let copy = model.isolatedCopy()
        let probe = Slot(type: random.below(4), name: Slot.names[random.below(Slot.names.count)])
        let outerExpectation = expectation(for: probe, in: model)
        var problem: String?
        let modules = overrides.map(registration(for:))
        container.withOverrides {
            for module in modules { module }
        } operation: {
            let copyContainer = DIContainer.current
            guard copyContainer !== container else {
                problem = "withOverrides did not bind its copy as current"
                return
            }
            for choice in overrides {
                let entry = ModelEntry(lifetime: choice.lifetime)
                copy.slots[choice.slot] = entry
                if choice.withAlias { copy.slots[Slot(type: 3, name: choice.slot.name)] = entry }
            }
            for _ in 0..<(1 + random.below(8)) where problem == nil {
                switch random.below(10) {
                case 0:
                    register(randomRegistration(), in: copyContainer, model: copy)
                case 1:
                    note("  releaseInstances() in the copy")
                    copyContainer.releaseInstances()
                    copy.releaseInstances()
                case 2...4:
                    problem = resolvePair(randomSlot(), in: copyContainer, model: copy)
                default:
                    problem = resolve(randomSlot(), in: copyContainer, model: copy)
                }
            }
        }
        if let problem { return "inside withOverrides: \(problem)" }
        // Outside, nothing changed: the same registrations and the same kept instances.
        note("after withOverrides:")
        let before = serials.last
        switch outerExpectation {
        case .missing:
            if let found = try? probe.resolve(from: container) {
                return "after withOverrides, \(probe) resolved #\(found.serial) though it is not registered outside"
            }
            return nil
        case .kept, .fresh:
            return resolve(probe, in: container, model: model).map {
                "after withOverrides (made since: \(serials.last - before)): \($0)"
            }
        }
    }

    func note(_ line: String) {
        journal.append(line)
        if journal.count > 25 { journal.removeFirst() }
    }
}

extension DIScope {
    fileprivate static let model = DIScope("model")
}
