import DependencyInjection
import Testing

// A kept service made with arguments (a request's context, made by a middleware) may be asked for
// again without them: validate() cannot make it (it has no arguments to give), so what needs it
// without arguments is not checked, not a problem. A `New` made with arguments keeps nothing (a
// `Graph`, nothing past its resolution): what asks for one without them is a problem.

private final class ArgsContext: Sendable {
    let id: Int
    init(id: Int) { self.id = id }
}
private final class ArgsRepository: Sendable {
    let context: ArgsContext
    init(context: ArgsContext) { self.context = context }
}
private final class ArgsHandler: Sendable { init(repository: ArgsRepository) {} }
extension DIScope {
    fileprivate static let argsRequest = DIScope("argsRequest", requiresRun: true)
}

@Suite(.timeLimit(.minutes(1))) struct ValidationOfWhatNeedsAServiceMadeWithArgumentsTests {
    @Test func whatNeedsAScopedServiceMadeWithArgumentsIsNotCheckedNotAProblem() async throws {
        let box = DIContainer()
        box.register {
            Scoped(.argsRequest) { (_, id: Int) in ArgsContext(id: id) }
            New(ArgsRepository.init)
            New(ArgsHandler.init)
        }
        // As the app runs: the middleware makes the context, the handler's repository finds it.
        let id = try box.withScope(.argsRequest) {
            _ = box.resolve(ArgsContext.self, arguments: { 7 })
            _ = try box.tryResolve(ArgsHandler.self)
            return try box.tryResolve(ArgsRepository.self).context.id
        }
        #expect(id == 7)
        let report = await box.validate()
        #expect(report.isValid, "\(report)")
        let text = "\(report)"
        #expect(
            text.contains("– ArgsRepository: not checked, it needs 'ArgsContext', which was not checked"), "\(text)")
        #expect(text.contains("– ArgsHandler: not checked, it needs 'ArgsContext', which was not checked"), "\(text)")
    }

    @Test func whatNeedsANewMadeWithArgumentsIsStillAProblem() async {
        let box = DIContainer()
        box.register {
            New { (_, id: Int) in ArgsContext(id: id) }
            New(ArgsRepository.init)
        }
        let report = await box.validate()
        #expect(!report.isValid)
        #expect("\(report)".contains("Wrong arguments for 'ArgsContext'"), "\(report)")
    }
}
