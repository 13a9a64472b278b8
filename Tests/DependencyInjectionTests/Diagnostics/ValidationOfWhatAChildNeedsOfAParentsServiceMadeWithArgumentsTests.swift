import DependencyInjection
import Testing

// A child container's service that asks without arguments for its parent's Scoped service made with
// arguments (a request's context, made by a middleware) finds the one made with them, as in one
// container: the child's validate() lists it as not checked, as the parent's own would.

private final class ChildArgsContext: Sendable {
    let id: Int
    init(id: Int) { self.id = id }
}
private final class ChildArgsRepository: Sendable {
    let context: ChildArgsContext
    init(context: ChildArgsContext) { self.context = context }
}
extension DIScope {
    fileprivate static let childArgsRequest = DIScope("childArgsRequest", requiresRun: true)
}

@Suite(.timeLimit(.minutes(1))) struct ValidationOfWhatAChildNeedsOfAParentsServiceMadeWithArgumentsTests {
    @Test func whatAChildNeedsOfItsParentsScopedServiceMadeWithArgumentsIsNotCheckedNotAProblem() async throws {
        let parent = DIContainer()
        parent.register { Scoped(.childArgsRequest) { (_, id: Int) in ChildArgsContext(id: id) } }
        let child = DIContainer(parent: parent)
        child.register { New(ChildArgsRepository.init) }
        // As the app runs: the middleware makes the context, the repository finds it through the child.
        let id = try child.withScope(.childArgsRequest) {
            _ = child.resolve(ChildArgsContext.self, arguments: { 7 })
            return try child.tryResolve(ChildArgsRepository.self).context.id
        }
        #expect(id == 7)
        let report = await child.validate()
        #expect(report.isValid, "\(report)")
        #expect(
            "\(report)".contains(
                "– ChildArgsRepository: not checked, it needs 'ChildArgsContext', which was not checked"),
            "\(report)")
    }
}
