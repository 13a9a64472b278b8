import DependencyInjection
import DependencyInjectionTesting
import Testing

#if canImport(Foundation)
    import Foundation
#endif

private protocol Mailer: AnyObject {}
private final class SMTPMailer: Mailer {
    init(transport: Transport) {}
}
private final class Transport {}
private protocol Notifier: AnyObject {}
extension SMTPMailer: Notifier {}
private final class Alert {
    init(notifier: Notifier) {}
}
private final class MockMailer: Mailer {}
/// Private: the runtime cannot look it up by name, so an alias to it is checked only when an
/// instance is cast to it (see RegistrationErrorTests).
private protocol Auditor: AnyObject {}
private final class Signup {
    init(mailer: Mailer) {}
}
private final class Ping {
    let pong: Pong
    init(pong: Pong) { self.pong = pong }
}
private final class Pong {
    init(ping: Ping) {}
}
private final class Counter: @unchecked Sendable {
    var count = 0
}

@Suite(.timeLimit(.minutes(1))) struct ValidationTests {
    @Test func aRegistrationIsValidatedThroughTheSlotsItStillServes() {
        let box = DIContainer()
        box.register { Shared(RouterImpl.init, as: Router.self) }
        #expect(box.unregister(RouterImpl.self))
        let unregistered = box.validate()
        #expect(unregistered.isValid)
        #expect(unregistered.validCount == 1)
        // Its own slot taken by a registration that needs arguments: the old one still serves Router.
        box.register { New { (_: Resolver, id: String) in RouterImpl() } }
        let replaced = box.validate()
        #expect(replaced.isValid)
        #expect(replaced.validCount == 1)
        #expect(replaced.unchecked.map(\.registration) == ["RouterImpl"])
    }

    @Test func validContainerReportsEveryRegistrationResolved() {
        let box = DIContainer()
        box.register {
            Shared(Transport.init)
            Shared { resolve in SMTPMailer(transport: resolve()) as Mailer }
            New { resolve in Signup(mailer: resolve()) }
        }
        let report = box.validate()
        #expect(report.isValid)
        #expect(report.validCount == 3)
        #expect(report.problems.isEmpty)
        #expect(String(describing: report).hasPrefix("Container is valid: 3 registration(s) resolved"))
    }

    @Test(.dependencies) func validateSpellsTheFixForTheContainerTheAppRegistersIn() throws {
        // The static API registers in `current` (here a copy of `shared`), a box in itself; both
        // validate in throwaway copies, and each fix names how that app registers.
        let registrations = Module { New { resolve in Signup(mailer: resolve()) } }
        DIContainer.register(registrations)
        let box = DIContainer()
        box.register(registrations)

        let fromStatic = try #require(DIContainer.validate().problems.first)
        let fromBox = try #require(box.validate().problems.first)
        #expect(fromStatic.error.description.contains("To fix, register it: DIContainer.register { Shared("))
        #expect(fromBox.error.description.contains("To fix, register it: container.register { Shared("))
    }

    @Test func missingNestedDependencyIsReportedWithItsPathWithoutCrashing() throws {
        let box = DIContainer()
        box.register {
            // Non-throwing factories: a real resolve would trap inside SMTPMailer's factory.
            Shared { resolve in SMTPMailer(transport: resolve()) as Mailer }
            New { resolve in Signup(mailer: resolve()) }
        }
        let report = box.validate()
        #expect(!report.isValid)
        #expect(report.problems.count == 2)
        let signup = try #require(report.problems.first { $0.registration == "Signup" })
        #expect(signup.error.reason == .missingRegistration)
        #expect(signup.error.path == ["Signup", "Mailer", "Transport"])
        #expect(String(describing: report).contains("Resolution path: Signup -> Mailer -> Transport"))
    }

    @Test func cycleIsReportedWithItsPath() throws {
        let box = DIContainer()
        box.register {
            Shared { resolve in Ping(pong: resolve()) }
            Shared { resolve in Pong(ping: resolve()) }
        }
        let report = box.validate()
        let ping = try #require(report.problems.first { $0.registration == "Ping" })
        #expect(ping.error.reason == .dependencyCycle(cycle: ["Ping", "Pong", "Ping"]))
        #expect(ping.error.description.hasPrefix("Dependency cycle: Ping -> Pong -> Ping."))
    }

    /// Main-actor factories are checked on the main actor; only arguments stay unchecked.
    @Test func parameterizedRegistrationsAreListedAsNotCheckedAndMainActorOnesAreChecked() {
        let box = DIContainer()
        box.register {
            New { _, id in ConcreteViewModel(id: id) as ViewModelProtocol }
            Shared { @MainActor in ProfileModel() }
        }
        let report = box.validate()
        #expect(report.isValid)
        #expect(report.validCount == 1)
        #expect(report.unchecked.map(\.registration) == ["ViewModelProtocol"])
        #expect(report.unchecked[0].reason.hasPrefix("it needs arguments (String) (registered at "))
    }

    @Test func factoryErrorIsReportedWithTheOriginalError() throws {
        let box = DIContainer()
        box.register { Shared { _ throws -> Transport in throw Offline() } }
        let problem = try #require(box.validate().problems.first)
        #expect(problem.error.reason == .factoryFailed)
        #expect(problem.error.underlyingError is Offline)
    }

    @Test func validationMakesNoInstanceInTheRealContainer() throws {
        let made = Counter()
        let box = DIContainer()
        box.register {
            Shared { _ -> Transport in
                made.count += 1
                return Transport()
            }
        }
        #expect(box.validate().isValid)
        #expect(made.count == 1)
        _ = try box.tryResolve(Transport.self)
        #expect(made.count == 2, "the container made its own instance: validation's stayed in the copy")
    }

    @Test func validationKeepsGoingAfterAParkedProbe() {
        let box = DIContainer()
        box.register {
            Shared { resolve in SMTPMailer(transport: resolve()) as Mailer }  // parks its probe
            Shared(Transport.init).named("unrelated")
            Shared(Engine.init)
        }
        let report = box.validate()
        #expect(report.problems.map(\.registration) == ["Mailer"])
        #expect(report.validCount == 2)
    }

    @Test func aRegistrationWithAliasesIsResolvedThroughEachAndCountedOnce() throws {
        let valid = DIContainer()
        valid.register {
            Shared(Transport.init)
            Shared({ resolve in SMTPMailer(transport: resolve()) }, as: Mailer.self, Notifier.self)
            New { resolve in Signup(mailer: resolve()) }
            New { resolve in Alert(notifier: resolve()) }
        }
        let report = valid.validate()
        #expect(report.isValid, "\(report)")
        #expect(report.validCount == 4)

        // Resolving the registration through its own type succeeds; only the cast to the alias fails.
        let box = DIContainer()
        try box.tryRegister(Shared(Transport(), as: Auditor.self))
        let mismatch = box.validate()
        #expect(!mismatch.isValid)
        #expect(mismatch.validCount == 0)
        let problem = try #require(mismatch.problems.first)
        #expect(mismatch.problems.count == 1)
        #expect(problem.registration == "Transport")
        #expect(problem.error.reason == .aliasNotConforming(implementation: "Transport"))
    }

    @Test func aFactoryFailingThroughAnAliasIsReportedWhereverItIsNeeded() throws {
        let box = DIContainer()
        box.register {
            Shared({ _ throws -> SMTPMailer in throw Offline() }, as: Mailer.self)
            New { resolve in Signup(mailer: resolve()) }  // reaches the factory through the alias
        }
        let report = box.validate()
        #expect(!report.isValid)
        #expect(report.validCount == 0)
        #expect(report.problems.map(\.registration) == ["SMTPMailer", "Signup"])
        let signup = try #require(report.problems.first { $0.registration == "Signup" })
        #expect(signup.error.reason == .factoryFailed)
        #expect(signup.error.typeName == "Mailer")
        #expect(signup.error.path == ["Signup", "Mailer"])
        #expect(signup.error.underlyingError is Offline)
        #expect(
            String(describing: report).contains(
                "The factory for 'Mailer' threw an error: Offline().\n    Resolution path: Signup -> Mailer"
            ))
    }
}

@Suite(.timeLimit(.minutes(1))) struct RegistrationListingTests {
    @Test func theListingNamesEachArgumentType() {
        let box = DIContainer()
        box.register {
            New { (_: Resolver, id: String, count: Int) in Engine() }
            New { (_: Resolver, transform: @escaping (Int) -> Int) in Database() }
        }
        let engine = box.registrations.first { $0.typeName == "Engine" }
        let database = box.registrations.first { $0.typeName == "Database" }
        #expect(engine?.argumentTypes == ["String", "Int"])
        #expect(database?.argumentTypes == ["(Int) -> Int"])
        #expect(database?.description.contains("New, arguments ((Int) -> Int) — ") == true)
    }

    @Test func listsTypeNameLifetimeAliasesAndSourceInRegistrationOrder() {
        let box = DIContainer()
        box.register {
            Shared(RouterImpl.init, as: Router.self, DeeplinkHandler.self)
            New(PostgresStore.init, as: Store.self).named("primary")
        }
        box.register(New(MockRouter() as Router))
        let listing = box.registrations
        #expect(listing.map(\.typeName) == ["RouterImpl", "PostgresStore", "Router"])
        #expect(listing[0].aliases == ["DeeplinkHandler"], "Router is served by the later registration now")
        #expect(listing[1].name == "primary")
        #expect(listing[1].lifetime == .new)
        #expect(listing[0].fileID.hasSuffix("DiagnosticsTests.swift"))
        let text = String(describing: listing)
        #expect(text.contains("RouterImpl — Shared, as DeeplinkHandler — "))
        #expect(text.contains("PostgresStore (name: \"primary\") — New, as Store — "))
    }
}

@Suite(.timeLimit(.minutes(1))) struct DependencyGraphTests {
    @Test func graphHasANodePerRegistrationAndEdgesRecordedWhileResolving() throws {
        let box = DIContainer()
        box.register {
            Shared(Transport.init)
            Shared { resolve in SMTPMailer(transport: resolve()) as Mailer }
            New { resolve in Signup(mailer: resolve()) }
        }
        #expect(!box.dependencyGraph().contains("->"), "nothing resolved yet, so no edges")
        _ = try box.tryResolve(Signup.self)
        let dot = box.dependencyGraph()
        #expect(dot.hasPrefix("digraph DependencyInjection {"))
        #expect(dot.contains("n1 [label=\"Transport\\nShared\"];"))
        #expect(dot.contains("n3 -> n2;"))
        #expect(dot.contains("n2 -> n1;"))
    }

    @Test func validateFillsInEveryEdgeAndMissingDependenciesAreDashed() {
        let box = DIContainer()
        box.register {
            Shared { resolve in SMTPMailer(transport: resolve()) as Mailer }
            New { resolve in Signup(mailer: resolve()) }
        }
        _ = box.validate()
        let dot = box.dependencyGraph()
        #expect(dot.contains("n2 -> n1;"))
        #expect(dot.contains("m1 [label=\"Transport\\nnot registered\", style=\"rounded,dashed\"];"))
        #expect(dot.contains("n1 -> m1;"))
    }

    @Test(arguments: [false, true])
    func edgesToAnAliasPointAtTheNodeOfTheRegistrationThatServesIt(recordedByValidate: Bool) throws {
        let box = DIContainer()
        box.register {
            Shared(Transport.init)
            Shared({ resolve in SMTPMailer(transport: resolve()) }, as: Mailer.self, Notifier.self)
            New { resolve in Signup(mailer: resolve()) }
            New { resolve in Alert(notifier: resolve()) }
        }
        if recordedByValidate {
            _ = box.validate()
        } else {
            _ = try box.tryResolve(Signup.self)
            _ = try box.tryResolve(Alert.self)
        }
        let dot = box.dependencyGraph()
        #expect(dot.contains("n2 [label=\"SMTPMailer\\nShared\\nas Mailer, Notifier\"];"))
        #expect(dot.contains("n2 -> n1;"))
        #expect(dot.contains("n3 -> n2;"), "Signup needs Mailer, which SMTPMailer serves")
        #expect(dot.contains("n4 -> n2;"), "Alert needs Notifier, which SMTPMailer serves")
        #expect(!dot.contains("n5"), "an alias is not a node of its own")
        #expect(!dot.contains("not registered"))
    }

    @Test func anAliasRegisteredAgainLeadsToItsNewRegistration() {
        let box = DIContainer()
        box.register {
            Shared(Transport.init)
            Shared({ resolve in SMTPMailer(transport: resolve()) }, as: Mailer.self, Notifier.self)
            New { resolve in Signup(mailer: resolve()) }
        }
        box.register(Shared(MockMailer() as Mailer))
        _ = box.validate()
        let dot = box.dependencyGraph()
        #expect(dot.contains("n2 [label=\"SMTPMailer\\nShared\\nas Notifier\"];"))
        #expect(dot.contains("n4 [label=\"Mailer\\nShared\"];"))
        #expect(dot.contains("n3 -> n4;"), "Signup's Mailer is the later registration now")
        #expect(!dot.contains("n3 -> n2;"))
    }

    #if canImport(Foundation)
        /// Graphviz's `dot`, where a developer machine or CI has it.
        static let dotPath = ["/usr/bin/dot", "/usr/local/bin/dot", "/opt/homebrew/bin/dot"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }

        @Test(
            .enabled(
                if: dotPath != nil,
                "Graphviz is optional on developer machines; CI installs it (.ci/steps), so this runs there"))
        func graphIsValidGraphvizWhenDotIsInstalled() throws {
            let dotPath = try #require(Self.dotPath)
            let box = DIContainer()
            box.register {
                Shared(RouterImpl.init, as: Router.self, DeeplinkHandler.self)
                Shared { resolve in SMTPMailer(transport: resolve()) as Mailer }.named("quote\"d")
            }
            _ = box.validate()
            // Files, not pipes (see `TrapRun.run`).
            let base = FileManager.default.temporaryDirectory.appendingPathComponent("graph-\(UUID().uuidString)")
            let (graph, errorsURL) = (base.appendingPathExtension("dot"), base.appendingPathExtension("err"))
            defer { for url in [graph, errorsURL] { try? FileManager.default.removeItem(at: url) } }
            try Data(box.dependencyGraph().utf8).write(to: graph)
            _ = FileManager.default.createFile(atPath: errorsURL.path, contents: nil)
            let errors = try FileHandle(forWritingTo: errorsURL)
            defer { try? errors.close() }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: dotPath)
            process.arguments = ["-Tsvg", "-o", "/dev/null", graph.path]
            process.standardError = errors
            try process.run()
            process.waitUntilExit()
            let message = readTextFile(errorsURL.path)
            #expect(process.terminationStatus == 0, "dot rejected the graph: \(message)")
        }
    #endif
}

private final class ScopedEngine {}
extension DIScope { fileprivate static let graphSession = DIScope("graphSession") }

@Suite struct DependencyGraphLifetimeTests {
    /// The graph names a `Scoped` registration's scope, as the listing does.
    @Test func theGraphNamesAScopedRegistrationsScope() {
        let box = DIContainer()
        box.register { Scoped(.graphSession) { ScopedEngine() } }
        #expect(box.registrations.description.contains("Scoped(graphSession)"))
        #expect(box.dependencyGraph().contains("Scoped(.graphSession)"), "\(box.dependencyGraph())")
    }
}
