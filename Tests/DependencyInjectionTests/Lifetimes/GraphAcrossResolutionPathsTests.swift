import DependencyInjection
import Testing

// Graph: one instance per top-level resolve, whichever way the resolution reaches it.

private protocol GraphPayments: AnyObject {}
private final class GraphStripe: GraphPayments { init() {} }
private final class GraphLogging: GraphPayments {
    let inner: GraphPayments
    init(_ inner: GraphPayments) { self.inner = inner }
}
private final class GraphPaymentsPair {
    let first: GraphPayments
    let second: GraphPayments
    init(_ first: GraphPayments, _ second: GraphPayments) { (self.first, self.second) = (first, second) }
}
private final class GraphRequest { init() {} }
private final class GraphRequestUser {
    let request: GraphRequest
    init(_ request: GraphRequest) { self.request = request }
}
private final class GraphLazyUser {
    @LazyInject var request: GraphRequest
    init() {}
}
private final class GraphEveryWay {
    let viaResolver: GraphRequest
    let viaStatic: GraphRequest
    let viaFactory: GraphRequest
    let viaAll: [GraphRequest]
    let viaLazy: GraphRequest
    init(_ a: GraphRequest, _ b: GraphRequest, _ c: GraphRequest, _ d: [GraphRequest], _ e: GraphRequest) {
        (viaResolver, viaStatic, viaFactory, viaAll, viaLazy) = (a, b, c, d, e)
    }
}
extension DIScope {
    fileprivate static let graphSession = DIScope("graphSession")
}

@Suite(.timeLimit(.minutes(1))) struct GraphAcrossResolutionPathsTests {
    @Test func aGraphInstanceIsDecoratedAndActedOnOncePerTopLevelResolve() {
        let box = DIContainer()
        let decorations = Tally()
        let actions = Tally()
        box.register {
            Graph({ GraphStripe() as GraphPayments }).onResolve { _, _ in actions.increment() }
            Decorate(GraphPayments.self) { payments, _ in
                decorations.increment()
                return GraphLogging(payments)
            }
            New { resolve in GraphPaymentsPair(resolve(), resolve()) }
        }
        let pair = box.resolve(GraphPaymentsPair.self)
        #expect(pair.first === pair.second)
        #expect(pair.first is GraphLogging)
        #expect(decorations.value == 1)
        #expect(actions.value == 1)
        let other = box.resolve(GraphPaymentsPair.self)
        #expect(other.first !== pair.first)
        #expect(decorations.value == 2)
        #expect(actions.value == 2)
    }

    @Test func aGraphInstanceIsSharedThroughEveryWayAFactoryResolves() {
        let box = DIContainer()
        box.register {
            Graph(GraphRequest.init)
            New(GraphLazyUser.init)
            New { resolve in
                let lazy: GraphLazyUser = resolve()
                let make = resolve.factory(GraphRequest.self)
                return GraphEveryWay(
                    resolve(), DIContainer.resolve(GraphRequest.self), make(),
                    resolve.resolveAll(GraphRequest.self), lazy.request)
            }
        }
        let every = box.resolve(GraphEveryWay.self)
        #expect(every.viaStatic === every.viaResolver)
        #expect(every.viaFactory === every.viaResolver)
        #expect(every.viaAll.count == 1)
        #expect(every.viaAll.first === every.viaResolver)
        #expect(every.viaLazy === every.viaResolver)
    }

    @Test func insideAScopeRunEachTopLevelResolveGetsItsOwnGraphInstance() {
        let box = DIContainer()
        box.register {
            Graph(GraphRequest.init)
            New { resolve in GraphRequestUser(resolve()) }
        }
        box.withScope(.graphSession) {
            let first = box.resolve(GraphRequestUser.self)
            let second = box.resolve(GraphRequestUser.self)
            #expect(first.request !== second.request)
        }
    }
}
