import DependencyInjection
import Testing

// A misspelt name: the type is registered, under another name. The message should lead to that
// name only, not to an unrelated type whose name happens to end like the requested one.

private protocol Shelf {}
private final class WoodShelf: Shelf {}
private final class BookShelf {}  // not a Shelf

private protocol Cupboard {}
private final class WoodCupboard: Cupboard {}

private protocol Reader: Sendable {}
private protocol Writer: Sendable {}
private final class FileStore: Reader, Writer, Sendable {}

private protocol Journal: AnyObject {}
private final class ConsoleJournal: Journal {}
private final class AuditJournal: Journal {}

private actor NamedDatabase {}
private final class NamedReportScreen { @Inject var database: NamedDatabase }
private actor NamedCache {}
private final class NamedCacheScreen { @Inject(name: "primary") var cache: NamedCache }
private final class MisspeltShelfScreen { @Inject(name: "primery") var shelf: Shelf }
private protocol SendableShelf: Sendable {}
private final class OakShelf: SendableShelf {}
private final class LazyShelfReader: @unchecked Sendable {
    @LazyInject(name: "primery") var shelf: any SendableShelf
    init() { _ = shelf }
}

@Suite struct MisspeltNameMessageTests {
    @Test func aMisspeltNameSuggestsNoOtherType() throws {
        let box = DIContainer()
        box.register {
            Shared(WoodShelf.init, as: Shelf.self).named("primery")
            Shared(BookShelf.init)
        }
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(Shelf.self, name: "primary") }
        #expect(error.description.contains("Did you mean: \"primery\"?"), "\(error)")
        #expect(!error.description.contains("BookShelf"), "\(error)")
    }

    // Registered without a name: the message says to ask for it without one.
    @Test func aNameAskedOfAnUnnamedRegistrationSaysItIsUnnamed() throws {
        let box = DIContainer()
        box.register { Shared(WoodCupboard() as Cupboard) }
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(Cupboard.self, name: "primary") }
        #expect(
            error.description.contains(
                "ask for it without a name, as it is registered: container.resolve(Cupboard.self)."),
            "\(error)")
    }

    /// A misspelt name where the type is registered without a name too: the list of names says so
    /// (the fix still offers the name the typo is close to).
    @Test(.timeLimit(.minutes(1))) func theRegisteredNamesSayAnUnnamedOneIsRegisteredToo() throws {
        let box = DIContainer()
        box.register {
            Shared(ConsoleJournal() as Journal)
            Shared(AuditJournal() as Journal).named("audit")
        }
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(Journal.self, name: "audti") }
        #expect(
            error.description.contains(
                #"Registered names for 'Journal': "audit"; an unnamed 'Journal' is registered too."#),
            "\(error)")
        #expect(error.description.contains(#"Did you mean: "audit"?"#), "\(error)")
        #expect(error.registeredNames == ["audit"])
        // Registered only under names: the line says nothing more.
        let named = DIContainer()
        named.register { Shared(AuditJournal() as Journal).named("audit") }
        let other = try #require(throws: ResolutionError.self) { try named.tryResolve(Journal.self, name: "audti") }
        #expect(other.description.contains(#"Registered names for 'Journal': "audit"."#), "\(other)")
    }

    // The hint's request compiles for a type of more than one word.
    @Test func theUnnamedHintOfACompositionCompiles() throws {
        let box = DIContainer()
        box.register { Shared(FileStore() as any Reader & Writer) }
        let error = try #require(throws: ResolutionError.self) {
            try box.tryResolve((any Reader & Writer).self, name: "primary")
        }
        #expect(error.description.contains("container.resolve((Reader & Writer).self)."), "\(error)")
        _ = try box.tryResolve((Reader & Writer).self)
    }

    // Two letters swapped is one slip, not two: the hint offers the registered name, not the unnamed
    // registration beside it (which would hand out another instance).
    @Test func aNameWithTwoLettersSwappedSuggestsTheRegisteredName() throws {
        let box = DIContainer()
        box.register {
            Shared(ConsoleJournal() as Journal)
            Shared(AuditJournal() as Journal).named("audti")
        }
        let error = try #require(throws: ResolutionError.self) { try box.tryResolve(Journal.self, name: "audit") }
        #expect(error.description.contains("Did you mean: \"audti\"?"), "\(error)")
        #expect(!error.description.contains("without a name"), "\(error)")
    }

    /// Asked for without a name, registered only under names: the fix is one of the names (registering
    /// it again would make another instance), as the opposite case's fix is to drop the name.
    @Test func anUnnamedRequestForANamedRegistrationSuggestsTheName() throws {
        let box = DIContainer()
        box.register {
            Shared { NamedDatabase() }.named("primary")
            Shared(NamedReportScreen.init)
        }
        let message = try #require(box.validate().problems.first).error.description
        // The wrapper asked: the fix is in the wrapper, not a resolve call.
        #expect(
            message.hasSuffix("To fix, ask for a registered name in the property wrapper: (name: \"primary\")."),
            "\(message)")
    }

    /// Asked for by a name, registered without one: no unrelated type whose name begins alike.
    @Test func aNamedRequestForAnUnnamedRegistrationSuggestsNoOtherType() throws {
        let box = DIContainer()
        box.register {
            Shared(NamedCache.init)
            Shared(NamedCacheScreen.init)
        }
        let message = try #require(box.validate().problems.first).error.description
        #expect(
            message.hasSuffix("To fix, ask for it without a name in the property wrapper, as it is registered."),
            "\(message)")
        #expect(!message.contains("Did you mean"), "\(message)")
    }

    /// A wrapper's misspelt name: the fix is the wrapper's `name:`; a factory behind it that asks is told to resolve.
    @Test func aWrapperAskingForAMisspeltNameIsToldToChangeTheWrapper() throws {
        let box = DIContainer()
        box.register {
            Shared(WoodShelf.init, as: Shelf.self).named("primary")
            Shared(MisspeltShelfScreen.init)
        }
        let message = try #require(box.validate().problems.first).error.description
        #expect(message.contains("Property wrapper declared at"), "\(message)")
        #expect(
            message.hasSuffix("To fix, ask for the registered name in the property wrapper: (name: \"primary\")."),
            "\(message)")
        let behind = DIContainer()
        behind.register {
            Shared(WoodShelf.init, as: Shelf.self).named("primary")
            Shared { resolve in Pair(resolve(Shelf.self, name: "primery"), 0) }
        }
        let other = try #require(behind.validate().problems.first).error.description
        #expect(
            other.hasSuffix("ask for the registered name: container.resolve(Shelf.self, name: \"primary\")."),
            "\(other)")
    }

    /// A lazy wrapper read in its owner's `init` under `validate()`: the wrapper asked, so the fix is its name.
    @Test func aLazyWrapperReadInItsOwnersInitIsToldToChangeTheWrapper() async {
        let box = DIContainer()
        box.register {
            Shared({ OakShelf() }, as: (any SendableShelf).self).named("primary")
            New(LazyShelfReader.init)
        }
        let report = await Task.detached { box.validate() }.value
        let message = report.problems.first { $0.registration == "LazyShelfReader" }?.error.description ?? ""
        #expect(
            message.hasSuffix("To fix, ask for the registered name in the property wrapper: (name: \"primary\")."),
            "\(report)")
    }

    /// Outside `validate()`, the same wrapper's trap gives the same fix as `validate()` (not a resolve
    /// call, which would leave the wrapper trapping).
    @Test func aWrappersTrapForAMisspeltNameIsToldToChangeTheWrapper() async throws {
        let run = try await TrapRun.run("aWrapperAskingForAMisspeltNameTraps")
        let fix = "To fix, ask for the registered name in the property wrapper: (name: \"primary\")."
        #expect(run.stdout.contains(fix), "\(run.stdout)")
        #expect(run.trapped && run.trapMessage?.contains(fix) == true, "\(run.stderr)")
    }
}
