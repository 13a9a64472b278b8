import DependencyInjection
import Testing

// A value that is not `Sendable`, made afresh for a resolve written in isolated code (an actor's
// method, main-actor code), belongs to that code alone: Swift lets it be sent elsewhere (to a
// `sending` parameter, to a task). These calls compile only if the resolved value is disconnected
// from the caller: `resolve` must not take the caller's actor as an `isolated` parameter.

/// Not Sendable; a new one for every resolve (`New`).
private final class Draft {
    var lines = 0
}

private func finished(_ draft: sending Draft) -> Int {
    draft.lines += 1
    return draft.lines
}

private actor Editor {
    func sendsItsDraft(from box: DIContainer) -> Int {
        let draft = box.resolve(Draft.self)
        return finished(draft)
    }

    func sendsItsTriedDraft(from box: DIContainer) throws -> Int {
        let draft = try box.tryResolve(Draft.self)
        return finished(draft)
    }
}

@MainActor private func sendsItsDraftToADetachedTask(from box: DIContainer) async -> Int {
    let draft: Draft = box.resolve()
    return await Task.detached {
        draft.lines += 1
        return draft.lines
    }.value
}

@Suite(.timeLimit(.minutes(1))) struct ResolvedValueSentElsewhereTests {
    @Test func aNewValueResolvedOnAnActorCanBeSentToASendingParameter() async throws {
        let box = DIContainer()
        box.register { New(Draft()) }
        let editor = Editor()
        #expect(await editor.sendsItsDraft(from: box) == 1)
        #expect(try await editor.sendsItsTriedDraft(from: box) == 1)
    }

    @Test func aNewValueResolvedOnTheMainActorCanBeSentToADetachedTask() async {
        let box = DIContainer()
        box.register { New(Draft()) }
        #expect(await sendsItsDraftToADetachedTask(from: box) == 1)
    }
}
