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

/// Counts its live instances.
private final class HopDependency: Sendable {
    static let live = Locked(0)
    init() { Self.live.withLock { $0 += 1 } }
    deinit { Self.live.withLock { $0 -= 1 } }
}
private struct HopRefusal: Error {}
@MainActor private final class HopRefusedScreen {
    init(dependency: HopDependency) throws { throw HopRefusal() }
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

    /// What a failed resolve through the hop made and dropped is released before the caller goes on
    /// (the main-actor block lets go of the lock, which releases it, before it signals the caller).
    @Test func whatAFailedHopDroppedIsGoneWhenItReturns() async {
        let box = DIContainer()
        box.register {
            Shared { HopDependency() }
            Shared { @MainActor resolve throws in try HopRefusedScreen(dependency: resolve.tryResolve()) }
        }
        let alive = await Task.detached {
            (0..<2000).filter { _ in
                _ = try? box.tryResolve(HopRefusedScreen.self)
                return HopDependency.live.withLock { $0 } != 0
            }.count
        }.value
        #expect(alive == 0, "alive after the failed resolve returned in \(alive) of 2000")
    }
}
