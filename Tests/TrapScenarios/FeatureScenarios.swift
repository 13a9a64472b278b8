import DependencyInjection

// Traps of factory closures (assisted injection).

final class Detail {
    init(id: String) {}
}

var featureScenarios: [String: () -> Void] {
    [
        "factoryUsedAfterItsContainer": {
            var makeDetail: (@Sendable (String) -> Detail)?
            do {
                let box = DIContainer()
                box.register { New { _, id in Detail(id: id) } }
                makeDetail = box.factory(Detail.self, arguments: String.self)
            }
            announce(expected: nil)
            _ = makeDetail?("42")
        },
        "factoryWithWrongArguments": {
            let box = DIContainer()
            box.register { New { _, id in Detail(id: id) } }
            let makeDetail = box.factory(Detail.self, arguments: Int.self)
            announce(expected: thrown { try box.tryResolve(Detail.self) { 42 } })
            _ = makeDetail(42)
        },
    ]
}
