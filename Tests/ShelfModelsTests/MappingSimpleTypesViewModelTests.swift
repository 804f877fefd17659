import DocumentStore
import Foundation
import ShelfModels
import XCTest

/// The guide's "Mapping simple types" screen: the three fetches, update (only with an id,
/// keeping fields `Book` does not know) and add.
final class MappingSimpleTypesViewModelTests: DemoDataTestCase {
    @MainActor
    func testTheBookStartsEmpty() {
        let model = MappingSimpleTypesViewModel(db: db)
        XCTAssertEqual(model.book, .empty)
        XCTAssertNil(model.book.id)
        XCTAssertNil(model.errorMessage)
    }

    @MainActor
    func testFetchAndMapReadsHitchhiker() async {
        let model = MappingSimpleTypesViewModel(db: db)
        await model.fetchAndMap()
        XCTAssertNil(model.errorMessage)
        XCTAssertEqual(model.book.id, "hitchhiker")
        XCTAssertEqual(model.book.title, "The Ultimate Hitchhiker's Guide to the Galaxy")
        XCTAssertEqual(model.book.author, "Douglas Adams")
        XCTAssertEqual(model.book.numberOfPages, 816)
    }

    @MainActor
    func testFetchingAMissingDocumentSaysWhichAndLeavesTheBookEmpty() async throws {
        XCTAssertFalse(fileExists("books/does-not-exist.json"), "the demo data must not have books/does-not-exist")
        let model = MappingSimpleTypesViewModel(db: db)
        await model.fetchAndMapNonExisting()
        let message = try XCTUnwrap(model.errorMessage)
        XCTAssertTrue(message.contains("books/does-not-exist"), message)
        XCTAssertEqual(model.book, .empty)
    }

    @MainActor
    func testFetchingInvalidDataGivesTheFieldExpectedAndFound() async {
        let model = MappingSimpleTypesViewModel(db: db)
        await model.fetchAndTryMappingInvalidData()
        XCTAssertEqual(model.errorMessage,
                       #"document books/invalid-data, field numberOfPages: expected Int, found the string "twohundredfifty""#)
        XCTAssertEqual(model.book, .empty)
    }

    @MainActor
    func testAFailedFetchKeepsTheBookAndASuccessfulOneClearsTheError() async {
        let model = MappingSimpleTypesViewModel(db: db)
        await model.fetchAndMap()
        let hitchhiker = model.book
        await model.fetchAndTryMappingInvalidData()
        XCTAssertNotNil(model.errorMessage)
        XCTAssertEqual(model.book, hitchhiker)
        await model.fetchAndMapNonExisting()
        XCTAssertNotNil(model.errorMessage)
        XCTAssertEqual(model.book, hitchhiker)
        await model.fetchAndMap()
        XCTAssertNil(model.errorMessage)
    }

    @MainActor
    func testUpdateWithoutAnIdWritesNothing() throws {
        let before = try documentIDs(in: "books")
        let model = MappingSimpleTypesViewModel(db: db)
        model.book = Book(title: "No id", numberOfPages: 1, author: "Nobody")
        model.updateBook()
        XCTAssertNotNil(model.errorMessage)
        XCTAssertNil(model.book.id)
        XCTAssertEqual(try documentIDs(in: "books"), before)
    }

    @MainActor
    func testUpdateSavesTheBookAndKeepsTheFieldTheModelDoesNotKnow() async throws {
        let model = MappingSimpleTypesViewModel(db: db)
        await model.fetchAndMap()
        model.book.title = "The Hitchhiker's Guide, revised"
        model.book.numberOfPages = 817
        model.updateBook()
        XCTAssertNil(model.errorMessage)

        let stored = try readJSON("books/hitchhiker.json")
        XCTAssertEqual(stored["title"] as? String, "The Hitchhiker's Guide, revised")
        XCTAssertEqual(stored["numberOfPages"] as? Int, 817)
        XCTAssertEqual(stored["author"] as? String, "Douglas Adams")
        XCTAssertEqual(stored["field-doesnt-exist-in-struct"] as? String, "hello")
        XCTAssertNil(stored["id"], "@DocumentID is never written as a field")
        XCTAssertEqual(Set(stored.keys), ["title", "numberOfPages", "author", "field-doesnt-exist-in-struct"])

        let again = MappingSimpleTypesViewModel(db: db)
        await again.fetchAndMap()
        XCTAssertEqual(again.book, model.book)
    }

    @MainActor
    func testAddBookWritesANewDocumentWithAnAutomaticId() async throws {
        let before = Set(try documentIDs(in: "books"))
        let model = MappingSimpleTypesViewModel(db: db)
        model.book = Book(title: "The Left Hand of Darkness", numberOfPages: 304, author: "Ursula K. Le Guin")
        model.addBook()
        XCTAssertNil(model.errorMessage)

        let id = try XCTUnwrap(model.book.id)
        XCTAssertEqual(id.count, 20)
        XCTAssertTrue(id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }, id)
        XCTAssertFalse(before.contains(id))
        XCTAssertEqual(Set(try documentIDs(in: "books")), before.union([id]))

        let stored = try readJSON("books/\(id).json")
        XCTAssertEqual(stored["title"] as? String, "The Left Hand of Darkness")
        XCTAssertEqual(stored["numberOfPages"] as? Int, 304)
        XCTAssertEqual(stored["author"] as? String, "Ursula K. Le Guin")
        XCTAssertEqual(stored.count, 3)

        let reader = MappingSimpleTypesViewModel(db: db)
        await reader.fetchBook(documentId: id)
        XCTAssertNil(reader.errorMessage)
        XCTAssertEqual(reader.book, model.book)
    }

    @MainActor
    func testAnAddedBookCanThenBeUpdated() throws {
        let model = MappingSimpleTypesViewModel(db: db)
        model.book = Book(title: "Draft", numberOfPages: 10, author: "Someone")
        model.addBook()
        let id = try XCTUnwrap(model.book.id)
        model.book.title = "Final"
        model.updateBook()
        XCTAssertNil(model.errorMessage)
        XCTAssertEqual(try readJSON("books/\(id).json")["title"] as? String, "Final")
        XCTAssertEqual(try documentIDs(in: "books").filter { $0 == id }.count, 1)
    }
}
