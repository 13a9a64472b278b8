import DependencyInjection
import DependencyInjectionTesting
import Testing

// The strict issue's fix for a registration made by an async factory is an async factory: the
// override `New(<#mock#> as T)` does not compile once the mock needs `await` (an actor with an
// async initializer), and an async `Shared` is what `prepare()` makes for synchronous resolves too.

/// Not private: the fix names the type as code outside this file would.
actor StrictAsyncPool {
    let size: Int
    init(size: Int) async { self.size = size }
}

private let asyncProduction: DIContainer = {
    let box = DIContainer()
    box.register { Shared { _ async in await StrictAsyncPool(size: 8) } }
    return box
}()

@Suite(.timeLimit(.minutes(1))) struct StrictFixOfAsyncRegistrationTests {
    @Test(.dependencies(.strict, on: asyncProduction))
    func theFixOfAnAsyncRegistrationIsAnAsyncFactory() async throws {
        try await withKnownIssue {
            _ = try await DIContainer.resolveAsync(StrictAsyncPool.self)
        } matching: { issue in
            issue.comments.contains {
                $0.rawValue.contains("(Shared { _ async in <#mock#> as StrictAsyncPool })")
                    && !$0.rawValue.contains("New(<#mock#> as StrictAsyncPool)")
                    && $0.rawValue.contains(".strict(allowing: StrictAsyncPool.self)")
            }
        }
    }

    // The fix as written, the placeholder filled in with an await: it compiles and serves the mock,
    // to resolveAsync and, once prepared, to a synchronous resolve.
    @Test(
        .dependencies(.strict, on: asyncProduction) {
            Shared { _ async in await StrictAsyncPool(size: 1) as StrictAsyncPool }
        })
    func theAsyncFixAsWrittenServesTheMock() async throws {
        #expect(try await DIContainer.resolveAsync(StrictAsyncPool.self).size == 1)
        try await DIContainer.prepare()
        #expect(DIContainer.resolve(StrictAsyncPool.self).size == 1)
    }
}
