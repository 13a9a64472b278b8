import DependencyInjection
import Testing

// A synchronous resolve off the main actor that hops to it must not leave the caller's run or
// override copy (or what it made) alive on the main thread after the resolve returned.

extension DIScope {
    static let hopReleaseRun = DIScope("hopReleaseRun", requiresRun: true)
}

@MainActor private final class HopScreenState {
    init() {}
}

private final class HopSink: @unchecked Sendable {
    weak var state: HopScreenState?
}

@Suite(.timeLimit(.minutes(1))) struct MainActorHopReleaseTests {
    /// Off the main actor: resolves the main-actor Scoped service inside a run, then reports whether
    /// it is still alive once `withScope` returned.
    private static func outlivesRun(_ box: DIContainer) -> Bool {
        let sink = HopSink()
        box.withScope(.hopReleaseRun) { sink.state = try? DIContainer.tryResolve(HopScreenState.self) }
        return sink.state != nil
    }

    private static func outlivesCopy(_ box: DIContainer) -> Bool {
        let sink = HopSink()
        box.withOverrides {
            Shared { @MainActor in HopScreenState() }
        } operation: {
            sink.state = try? DIContainer.tryResolve(HopScreenState.self)
        }
        return sink.state != nil
    }

    @Test func aRunsMainActorInstanceMadeThroughTheHopGoesWithTheRun() async {
        let box = DIContainer()
        box.register(Scoped(.hopReleaseRun) { @MainActor in HopScreenState() })
        let outlived = await Task.detached {
            (0..<3000).filter { _ in Self.outlivesRun(box) }.count
        }.value
        #expect(outlived == 0, "alive after withScope returned in \(outlived) of 3000 runs")
    }

    @Test func anOverrideCopysMainActorInstanceMadeThroughTheHopGoesWithTheCopy() async {
        let box = DIContainer()
        let outlived = await Task.detached {
            (0..<3000).filter { _ in Self.outlivesCopy(box) }.count
        }.value
        #expect(outlived == 0, "alive after withOverrides returned in \(outlived) of 3000 copies")
    }
}
