import CheckSupport
import DependencyInjection
import MainActorApp

/// Checks every registration form of `everyForm()` in a container of its own: made on the main
/// actor only, and exactly once for a `Shared` one; a synchronous resolve off the main actor (in a
/// detached task, on a Dispatch thread) makes a main-actor class (`Sendable`) on the main actor
/// for the caller, and returns the instance the main actor sees; so does `resolveAsync`.
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
        // script runs that in a process of its own (`MainActorChecks global-module-off-main`).
        let counter = box.resolve(Counter.self, name: name)
        Checks.expect(counter === box.resolve(Counter.self, name: name), "\(name): resolves on main")
    }
    await checkMadeOnceOffMain()
    await checkArguments(in: box)
    await checkOtherServices(in: box)
}

private func checkCounter(named name: String, in box: DIContainer) async {
    let isNew = name == "new"
    let lifetime = isNew ? "a new" : "the same"
    let before = Made.count("Counter")
    // `Made.record` ends the process if `Counter.init` runs anywhere but the main actor.
    let (detached, first) = await valueInDetachedTask { try box.tryResolve(Counter.self, name: name) }
    Checks.expect(detached == .resolved, "\(name): tryResolve in Task.detached (made on main for it): \(detached)")
    Checks.expect(Made.count("Counter") == before + 1, "\(name): … made one instance, on the main actor")
    let (thread, second) = await valueOnDispatchThread { try box.tryResolve(Counter.self, name: name) }
    Checks.expect(thread == .resolved, "\(name): tryResolve on a Dispatch thread: \(thread)")
    Checks.expect(
        first != nil && second != nil && (first === second) != isNew,
        "\(name): … returns \(lifetime) instance")
    Checks.expect(
        Made.count("Counter") == before + (isNew ? 2 : 1), "\(name): … made \(isNew ? "one" : "none") (on main)")

    let (async, made) = await asyncInDetachedTask { try await box.resolveAsync(Counter.self, name: name) }
    Checks.expect(async == .resolved, "\(name): resolveAsync in Task.detached: \(async)")
    Checks.expect(made != nil && (made === first) != isNew, "\(name): … returns \(lifetime) instance")
    Checks.expect(
        Made.count("Counter") == before + (isNew ? 3 : 1), "\(name): … made \(isNew ? "one" : "none") (on main)")

    let onMain = box.resolve(Counter.self, name: name)
    Checks.expect((onMain === first) != isNew, "\(name): resolve on main returns \(lifetime) instance")
    Checks.expect(
        Made.count("Counter") == before + (isNew ? 4 : 1), "\(name): resolve on main made \(isNew ? "one" : "none")")

    let (cached, again) = await valueInDetachedTask { try box.tryResolve(Counter.self, name: name) }
    Checks.expect(
        cached == .resolved && again != nil && (again === onMain) != isNew,
        "\(name): made already, off main returns \(lifetime) instance: \(cached)")
    Checks.expect(
        Made.count("Counter") == before + (isNew ? 5 : 1), "\(name): … made \(isNew ? "one" : "none") (on main)")
}

/// Threads and tasks resolving a main-actor `Shared` service at once, all off the main actor,
/// before it is made: one instance, made on the main actor, returned to all of them.
private func checkMadeOnceOffMain() async {
    let box = DIContainer()
    box.register { Shared { Counter() }.named("contended") }
    let before = Made.count("Counter")
    let results = await withTaskGroup(of: (Outcome, Counter?).self) { group in
        for index in 0..<12 {
            group.addTask {
                let resolve: @Sendable () throws -> Counter = { try box.tryResolve(Counter.self, name: "contended") }
                return index.isMultiple(of: 2)
                    ? await valueInDetachedTask(resolve) : await valueOnDispatchThread(resolve)
            }
        }
        var results: [(Outcome, Counter?)] = []
        for await result in group { results.append(result) }
        return results
    }
    let outcomes = Set(results.map(\.0.description))
    Checks.expect(outcomes == ["resolved"], "12 tasks and threads at once, off main: \(outcomes)")
    let instances = Set(results.compactMap { $0.1.map(ObjectIdentifier.init) })
    Checks.expect(
        instances.count == 1 && results.first?.1 === box.resolve(Counter.self, name: "contended"),
        "… all got the one instance the main actor sees (\(instances.count) distinct)")
    Checks.expect(Made.count("Counter") == before + 1, "… made exactly once, on the main actor")
}

private func checkArguments(in box: DIContainer) async {
    let before = Made.count("DetailViewModel")
    let (offMain, model) = await valueInDetachedTask {
        Identity(try box.tryResolve(ViewModelProtocol.self, arguments: { "detached" }))
    }
    // An alias: the value stays on the main actor (see the aliases below).
    Checks.expect(
        offMain == .failed(.mainActorRequired) && model == nil,
        "New({ resolver, id in … }, as: ViewModelProtocol.self) off main is refused: \(offMain)")
    let (named, direct) = await valueOnDispatchThread {
        try box.tryResolve(DetailViewModel.self, name: "direct", arguments: { "thread" })
    }
    Checks.expect(named == .resolved, "New { … }.named(\"direct\") on a thread: \(named)")
    let (fromNonisolated, typed) = await valueOnDispatchThread {
        try box.tryResolve(DetailViewModel.self, name: "nonisolatedArguments", arguments: { "nonisolated" })
    }
    Checks.expect(fromNonisolated == .resolved, "New { @MainActor … } on a thread: \(fromNonisolated)")
    let ids = [direct?.id, typed?.id]
    Checks.expect(ids == ["thread", "nonisolated"], "… the arguments reached the factories: \(ids)")
    Checks.expect(Made.count("DetailViewModel") == before + 2, "… two view models made (on the main actor)")

    let onMain = box.resolve(ViewModelProtocol.self, arguments: { "a" })
    let directOnMain = box.resolve(DetailViewModel.self, name: "direct", arguments: { "b" })
    let typedOnMain = box.resolve(DetailViewModel.self, name: "nonisolatedArguments", arguments: { "c" })
    Checks.expect(
        [onMain.id, directOnMain.id, typedOnMain.id] == ["a", "b", "c"], "arguments reach the factories on main")
    let optional = box.resolve(MediaPlayer?.self)
    Checks.expect(optional == nil, "an unregistered Optional resolves to nil")
}

private func checkOtherServices(in box: DIContainer) async {
    Checks.section("other registration forms: off the main actor, then on it")
    // Each form off main (in Task.detached, then on a Dispatch thread), then on main: every
    // instance made on the main actor (`Made.record` checks), `made` of them in all (per `Made`
    // name); a shared form returns one instance to all three, `New` and `Graph` a new one each.
    let forms: [(form: String, made: String, count: Int, isShared: Bool, resolve: @Sendable () throws -> Identity)] = [
        ("Shared { Clock() }", "Clock", 1, true, { Identity(try box.tryResolve(Clock.self)) }),
        (
            "Shared { resolve in Ticker(clock: resolve()) }", "Ticker", 1, true,
            { Identity(try box.tryResolve(Ticker.self)) }
        ),
        ("Shared(Checkout.init) (autowired)", "Checkout", 1, true, { Identity(try box.tryResolve(Checkout.self)) }),
        ("RouterImpl itself", "RouterImpl", 1, true, { Identity(try box.tryResolve(RouterImpl.self)) }),
        (
            "ConfiguredRouter (try resolve.tryResolve())", "ConfiguredRouter", 1, true,
            {
                Identity(try box.tryResolve(ConfiguredRouter.self))
            }
        ),
        // The detached task's instance is held (in `Identity`) while the thread resolves it.
        ("Weak(ImageCache.init), held", "ImageCache", 1, true, { Identity(try box.tryResolve(ImageCache.self)) }),
        ("Graph(Session.init)", "Session", 3, false, { Identity(try box.tryResolve(Session.self)) }),
        ("New(Request.init) of Graph sessions", "Request", 3, false, { Identity(try box.tryResolve(Request.self)) }),
        ("Shared(Parent.init).onResolve…", "Parent", 1, true, { Identity(try box.tryResolve(Parent.self)) }),
        // Made already: Parent's onResolve action resolved it.
        (
            "Shared { resolve in Child(parent: resolve()) }", "Child", 0, true,
            { Identity(try box.tryResolve(Child.self)) }
        ),
        (
            "Shared(Warmup.init).eager() (made already)", "Warmup", 0, true,
            { Identity(try box.tryResolve(Warmup.self)) }
        ),
        (
            "Shared { @MainActor in ProfileModel() }", "ProfileModel", 1, true,
            {
                Identity(try box.tryResolve(ProfileModel.self))
            }
        ),
    ]
    for (form, made, count, isShared, resolve) in forms {
        let before = Made.count(made)
        let (detached, first) = await valueInDetachedTask(resolve)
        let (thread, second) = await valueOnDispatchThread(resolve)
        let onMain = Outcome.value(of: resolve)
        Checks.expect(
            detached == .resolved && thread == .resolved && onMain.0 == .resolved,
            "\(form): in Task.detached \(detached), on a Dispatch thread \(thread), on main \(onMain.0)")
        let objects = [first, second, onMain.1].compactMap { $0?.object }
        let same = objects.count == 3 && objects[0] === objects[1] && objects[1] === objects[2]
        let distinct =
            objects.count == 3 && objects[0] !== objects[1] && objects[1] !== objects[2]
            && objects[0] !== objects[2]
        Checks.expect(
            isShared ? same : distinct, "\(form): \(isShared ? "one instance for all three" : "a new one each time")")
        Checks.expect(
            Made.count(made) == before + count,
            "\(form): \(count) \(made) made (on the main actor), \(Made.count(made) - before) counted")
    }

    // Through an `as:` alias, the value stays on the main actor: its conformance to the alias is
    // isolated to the main actor in this module, so the existential must not leave it.
    let aliases: [(form: String, resolve: @Sendable () throws -> Identity)] = [
        ("New(ReceiptPrinter.init, as: Printer.self)", { Identity(try box.tryResolve(Printer.self)) }),
        ("alias Router", { Identity(try box.tryResolve(Router.self)) }),
        ("alias DeeplinkHandler", { Identity(try box.tryResolve(DeeplinkHandler.self)) }),
        ("named \"primary\"", { Identity(try box.tryResolve(Store.self, name: "primary")) }),
        ("named \"cache\"", { Identity(try box.tryResolve(Store.self, name: "cache")) }),
    ]
    for (form, resolve) in aliases {
        let (detached, _) = await valueInDetachedTask(resolve)
        let (thread, _) = await valueOnDispatchThread(resolve)
        let onMain = Outcome.value(of: resolve)
        Checks.expect(
            detached == .failed(.mainActorRequired) && thread == .failed(.mainActorRequired) && onMain.0 == .resolved,
            "\(form): refused off main (in Task.detached \(detached), on a Dispatch thread \(thread)), "
                + "resolved on main (\(onMain.0))")
    }
    for (form, resolve) in [
        ("Printer (New, alias)", { @Sendable in _ = try await box.resolveAsync(Printer.self) }),
        (
            "Store \"primary\" (named alias)",
            { @Sendable in _ = try await box.resolveAsync(Store.self, name: "primary") }
        ),
    ] as [(String, @Sendable () async throws -> Void)] {
        let (outcome, _) = await asyncInDetachedTask(resolve)
        Checks.expect(outcome == .failed(.mainActorRequired), "\(form): resolveAsync in Task.detached: \(outcome)")
    }

    let madeAsync: [(String, @Sendable () async throws -> Void)] = [
        ("Ticker (resolver closure)", { _ = try await box.resolveAsync(Ticker.self) }),
        ("Checkout (autowired)", { _ = try await box.resolveAsync(Checkout.self) }),
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
