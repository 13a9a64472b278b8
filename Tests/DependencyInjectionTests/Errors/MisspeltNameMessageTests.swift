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
}
