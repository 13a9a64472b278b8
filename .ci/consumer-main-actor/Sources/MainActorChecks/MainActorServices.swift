import CheckSupport
import DependencyInjection
import MainActorApp

/// Checks every registration form of `everyForm()` in a container of its own: made on the main
/// actor only; synchronous resolves off the main actor are `.mainActorRequired` and make nothing;
/// `resolveAsync` from off the main actor makes the instance on the main actor.
func checkMainActorServices() async {
    Checks.section("every form records the main actor (registrations listing)")
    let box = DIContainer()
    let warmupsBefore = Made.count("Warmup")
    box.register {
        everyForm()
        globalForms()
        mainActorTypesFromNonisolatedCode()
    }
    Checks.expect(Made.count("Warmup") == warmupsBefore + 1, "Shared(Warmup.init).eager() is made by register, on main")
    for info in box.registrations {
        let what = "\(info.typeName) \(info.name.map { "(\"\($0)\") " } ?? "")is @MainActor"
        if globalCounterForms.contains(info.name ?? "") || info.typeName == "FeatureScreen" {
            // Written in a global's initializer (`featureModule`, `globalRegistration`).
            Checks.expectKnownIssue(info.isMainActor, "\(what) (registered in a main-actor global's initializer)")
        } else {
            Checks.expect(info.isMainActor, what)
        }
    }

    Checks.section("Counter in every form: off the main actor, then async, then on it")
    for name in counterForms + ["nonisolatedInitializer", "nonisolatedExplicit"] {
        await checkCounter(named: name, in: box)
    }
    for name in globalCounterForms {
        // Off the main actor these run `Counter.init` there (a trap in `Made.record`): the step
        // script runs that in a process of its own (`MainActorChecks repro:global-module`).
        let counter = box.resolve(Counter.self, name: name)
        Checks.expect(counter === box.resolve(Counter.self, name: name), "\(name): resolves on main")
    }
    await checkArguments(in: box)
    await checkOtherServices(in: box)
}

private func checkCounter(named name: String, in box: DIContainer) async {
    let isNew = name == "new"
    let before = Made.count("Counter")
    let detached = await inDetachedTask { _ = try box.tryResolve(Counter.self, name: name) }
    Checks.expect(detached == .failed(.mainActorRequired), "\(name): tryResolve in Task.detached: \(detached)")
    let thread = await onDispatchThread { _ = try box.tryResolve(Counter.self, name: name) }
    Checks.expect(thread == .failed(.mainActorRequired), "\(name): tryResolve on a Dispatch thread: \(thread)")
    Checks.expect(Made.count("Counter") == before, "\(name): nothing was made off the main actor")

    let (async, made) = await asyncInDetachedTask { try await box.resolveAsync(Counter.self, name: name) }
    Checks.expect(async == .resolved, "\(name): resolveAsync in Task.detached: \(async)")
    Checks.expect(Made.count("Counter") == before + 1, "\(name): resolveAsync made one instance (on main)")

    let onMain = box.resolve(Counter.self, name: name)
    Checks.expect(
        (onMain === made) != isNew, "\(name): resolve on main returns \(isNew ? "a new" : "the same") instance")
    Checks.expect(
        Made.count("Counter") == before + (isNew ? 2 : 1), "\(name): resolve on main made \(isNew ? "one" : "none")")

    let cached = await inDetachedTask { _ = try box.tryResolve(Counter.self, name: name) }
    Checks.expect(cached == .failed(.mainActorRequired), "\(name): made already, still off-main: \(cached)")
}

private func checkArguments(in box: DIContainer) async {
    let before = Made.count("DetailViewModel")
    let offMain = await inDetachedTask {
        _ = try box.tryResolve(ViewModelProtocol.self, arguments: { "detached" })
    }
    Checks.expect(offMain == .failed(.mainActorRequired), "New { resolve, id in … } off main: \(offMain)")
    let named = await onDispatchThread {
        _ = try box.tryResolve(DetailViewModel.self, name: "direct", arguments: { "thread" })
    }
    Checks.expect(named == .failed(.mainActorRequired), "New { … }.named(\"direct\") on a thread: \(named)")
    let fromNonisolated = await onDispatchThread {
        _ = try box.tryResolve(DetailViewModel.self, name: "nonisolatedArguments", arguments: { "thread" })
    }
    Checks.expect(
        fromNonisolated == .failed(.mainActorRequired), "New { @MainActor … } on a thread: \(fromNonisolated)")
    Checks.expect(Made.count("DetailViewModel") == before, "no view model was made off the main actor")

    let model = box.resolve(ViewModelProtocol.self, arguments: { "a" })
    let direct = box.resolve(DetailViewModel.self, name: "direct", arguments: { "b" })
    let typed = box.resolve(DetailViewModel.self, name: "nonisolatedArguments", arguments: { "c" })
    Checks.expect([model.id, direct.id, typed.id] == ["a", "b", "c"], "arguments reach the factories on main")
    let optional = box.resolve(MediaPlayer?.self)
    Checks.expect(optional == nil, "an unregistered Optional resolves to nil")
}

private func checkOtherServices(in box: DIContainer) async {
    Checks.section("other registration forms: off the main actor, then on it")
    let before = Made.total - Made.count("Counter") - Made.count("DetailViewModel")
    let offMain: [(String, @Sendable () throws -> Void)] = [
        ("Shared { Clock() }", { _ = try box.tryResolve(Clock.self) }),
        ("Shared { resolve in Ticker(clock: resolve()) }", { _ = try box.tryResolve(Ticker.self) }),
        ("Shared(Checkout.init) (autowired)", { _ = try box.tryResolve(Checkout.self) }),
        ("New(ReceiptPrinter.init, as: Printer.self)", { _ = try box.tryResolve(Printer.self) }),
        ("alias Router", { _ = try box.tryResolve(Router.self) }),
        ("alias DeeplinkHandler", { _ = try box.tryResolve(DeeplinkHandler.self) }),
        ("RouterImpl itself", { _ = try box.tryResolve(RouterImpl.self) }),
        ("ConfiguredRouter (try resolve.tryResolve())", { _ = try box.tryResolve(ConfiguredRouter.self) }),
        ("named \"primary\"", { _ = try box.tryResolve(Store.self, name: "primary") }),
        ("named \"cache\"", { _ = try box.tryResolve(Store.self, name: "cache") }),
        ("Weak(ImageCache.init)", { _ = try box.tryResolve(ImageCache.self) }),
        ("Graph(Session.init)", { _ = try box.tryResolve(Session.self) }),
        ("New(Request.init) of Graph sessions", { _ = try box.tryResolve(Request.self) }),
        ("Shared(Parent.init).onResolve…", { _ = try box.tryResolve(Parent.self) }),
        ("Shared { resolve in Child(parent: resolve()) }", { _ = try box.tryResolve(Child.self) }),
        ("Shared(Warmup.init).eager() (made already)", { _ = try box.tryResolve(Warmup.self) }),
        ("Shared { @MainActor in ProfileModel() }", { _ = try box.tryResolve(ProfileModel.self) }),
    ]
    for (form, resolve) in offMain {
        let detached = await inDetachedTask(resolve)
        Checks.expect(detached == .failed(.mainActorRequired), "\(form) in Task.detached: \(detached)")
        let thread = await onDispatchThread(resolve)
        Checks.expect(thread == .failed(.mainActorRequired), "\(form) on a Dispatch thread: \(thread)")
    }
    let after = Made.total - Made.count("Counter") - Made.count("DetailViewModel")
    Checks.expect(after == before, "nothing was made off the main actor (\(after - before) made)")

    let madeAsync: [(String, @Sendable () async throws -> Void)] = [
        ("Ticker (resolver closure)", { _ = try await box.resolveAsync(Ticker.self) }),
        ("Checkout (autowired)", { _ = try await box.resolveAsync(Checkout.self) }),
        ("Printer (New, alias)", { _ = try await box.resolveAsync(Printer.self) }),
        ("Store \"primary\" (named)", { _ = try await box.resolveAsync(Store.self, name: "primary") }),
        ("ImageCache (Weak)", { _ = try await box.resolveAsync(ImageCache.self) }),
        ("Request (Graph sessions)", { _ = try await box.resolveAsync(Request.self) }),
        ("Parent (onResolve)", { _ = try await box.resolveAsync(Parent.self) }),
        ("ConfiguredRouter (throwing)", { _ = try await box.resolveAsync(ConfiguredRouter.self) }),
        ("ProfileModel ({ @MainActor in … })", { _ = try await box.resolveAsync(ProfileModel.self) }),
    ]
    for (form, resolve) in madeAsync {
        let (outcome, _) = await asyncInDetachedTask(resolve)
        Checks.expect(outcome == .resolved, "\(form): resolveAsync in Task.detached (made on main): \(outcome)")
    }

    let checkout = box.resolve(Checkout.self)
    Checks.expect(checkout.payments.provider == "live", "autowired Checkout got Payments")
    Checks.expect(checkout.logger === box.resolve(Logger.self), "autowired Checkout got the shared Logger")
    Checks.expect(
        box.resolve(Printer.self) !== box.resolve(Printer.self), "New(ReceiptPrinter.init, as:) is new each time")
    Checks.expect(box.resolve(Ticker.self).clock === box.resolve(Clock.self), "resolver closure got the shared Clock")
    Checks.expect(box.resolve(Router.self) === box.resolve(DeeplinkHandler.self), "aliases share one instance")
    Checks.expect(box.resolve(Store.self, name: "cache").kind == "memory", "names: \"cache\" is the MemoryStore")
    Checks.expect(
        box.resolve(Store.self, name: "primary").kind == "postgres", "names: \"primary\" is the PostgresStore")
    let image = box.resolve(ImageCache.self)
    Checks.expect(image === box.resolve(ImageCache.self), "Weak is shared while held")
    let request = box.resolve(Request.self)
    Checks.expect(request.first === request.second, "Graph: one Session per resolution")
    Checks.expect(request.first !== box.resolve(Request.self).first, "Graph: a new Session for the next resolution")
    let parent = box.resolve(Parent.self)
    Checks.expect(parent.child?.parent === parent && parent.isWired, "onResolve actions ran in order")
    _ = box.resolve(ConfiguredRouter.self)
    _ = box.resolve(ProfileModel.self)
    _ = box.resolve(FeatureScreen.self)

    let (async, _) = await asyncInDetachedTask { try await box.resolveAsync(Session.self) }
    Checks.expect(async == .resolved, "resolveAsync of a Graph main-actor service from off main: \(async)")

    box.activate {
        let screen = Screen()
        Checks.expect(screen.$config.isResolved == false, "@LazyInject not resolved yet")
        Checks.expect(screen.config === box.resolve(AppConfiguration.self), "@LazyInject resolves on main")
        Checks.expect(screen.$config.isResolved, "@LazyInject resolved now")
        Checks.expect(screen.store.kind == "postgres", "@Inject(name:) in a main-actor class")
        Checks.expect(screen.player == nil, "@Inject of an Optional: nil")
        Checks.expect(screen.payments.provider == "live", "@MutableLazyInject")
        screen.logger = PrintLogger()
    }
    _ = image
}
