// Each scenario ends the process the way a user's program would end: by a trap in `resolve` or
// `register`. TrapMessageTests runs this executable with a scenario name and reads what it printed.
//
//     TrapScenarios nested-missing
//
// The same setups are rebuilt in TrapMessageTests with `tryResolve`/`tryRegister`, whose
// error description must be exactly the trap message. Keep the type names in step with it.

import DependencyInjection
import Foundation

protocol Compass: AnyObject {}
protocol Terrain: AnyObject {}
final class Map {
    init(terrain: Terrain) {}
}
final class Journey {
    init(map: Map) {}
}
final class Expedition {
    @Inject var terrain: Terrain
}
final class Ledger {
    init(audit: Audit) {}
}
final class Audit {
    init(ledger: Ledger) {}
}
final class Badge {
    init(id: String) {}
}
final class Engine {
    init() {}
}

let scenarios: [String: () -> Void] = [
    "no-trap": {
        let box = DIContainer()
        box.register(Shared(Engine.init))
        _ = box.resolve(Engine.self)
        print("resolved without a trap")
    },
    "missing-registration": {
        _ = DIContainer().resolve(Compass.self)
    },
    "missing-registration-static": {
        DIContainer().activate { _ = DIContainer.resolve(Compass.self) }
    },
    "nested-missing": {
        let box = DIContainer()
        box.register {
            Shared { resolve in Journey(map: resolve()) }
            Shared { resolve in Map(terrain: resolve()) }
        }
        _ = box.resolve(Journey.self)
    },
    "nested-missing-wrapper": {
        let box = DIContainer()
        box.register(Shared(Expedition()))
        _ = box.resolve(Expedition.self)
    },
    "cycle": {
        let box = DIContainer()
        box.register {
            Shared { resolve in Ledger(audit: resolve()) }
            Shared { resolve in Audit(ledger: resolve()) }
        }
        _ = box.resolve(Ledger.self)
    },
    "wrong-arguments": {
        let box = DIContainer()
        box.register(New { _, id in Badge(id: id) })
        _ = box.resolve(Badge.self) { 42 }
    },
    "alias-mismatch": {
        DIContainer().register(Shared(Engine(), as: Compass.self))
    },
    "register-during-resolution": {
        let box = DIContainer()
        box.register(Shared { () -> Engine in
            box.register(New(Badge(id: "inner")))
            return Engine()
        })
        _ = box.resolve(Engine.self)
    },
]

let arguments = CommandLine.arguments
guard arguments.count == 2, let scenario = scenarios[arguments[1]] else {
    print("usage: TrapScenarios <\(scenarios.keys.sorted().joined(separator: "|"))>")
    exit(2)
}
scenario()
