import DocumentStore
import Foundation
@testable import ShelfModels
import XCTest

/// Nothing fails silently: the view models write with the throwing forms, so a write the store
/// refuses shows as the screen's error, and none goes to the store's plain-form handler. The
/// refusal used here: merging into a document whose file is not JSON (the store will not lose
/// what a person wrote).
final class WriteFailureTests: DemoDataTestCase {
    private let reachedTheHandler = ErrorLog()

    override func setUpWithError() throws {
        try super.setUpWithError()
        db.writeErrorHandler = { [reachedTheHandler] error in reachedTheHandler.append("\(error)") }
    }

    override func tearDownWithError() throws {
        XCTAssertEqual(reachedTheHandler.messages, [], "a view model used a plain (non-throwing) write form")
        try super.tearDownWithError()
    }

    /// Breaks the document's file after it was read, as an editor saving half a file would.
    private func breakFile(_ relative: String) throws {
        try writeFile(relative, "{\"title\": ")
    }

    private func assertRefusal(_ message: String?, path: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(message?.hasPrefix("document \(path) cannot be read: "), true, message ?? "no error shown", file: file, line: line)
        XCTAssertEqual(message?.hasSuffix("; fix the file or replace the whole document"), true, message ?? "", file: file, line: line)
    }

    @MainActor
    func testUpdatingABookReportsTheRefusal() async throws {
        let model = MappingSimpleTypesViewModel(db: db)
        await model.fetchAndMap()
        try breakFile("books/hitchhiker.json")
        model.updateBook()
        assertRefusal(model.errorMessage, path: "books/hitchhiker")
        XCTAssertEqual(try String(contentsOf: url("books/hitchhiker.json"), encoding: .utf8), "{\"title\": ", "the file is left as it is")
    }

    @MainActor
    func testSavingGenresReportsTheRefusal() async throws {
        let model = MappingArraysViewModel(db: db)
        await model.fetchBook()
        try breakFile("books/hitchhiker-genre.json")
        model.addGenre("Action")
        assertRefusal(model.errorMessage, path: "books/hitchhiker-genre")
    }

    @MainActor
    func testAddingATagReportsTheRefusalAndKeepsTheBookAsItWas() async throws {
        let model = MappingArraysWithNestedTypesViewModel(db: db)
        await model.fetchBook()
        let before = model.book
        try breakFile("books/hitchhiker-tags.json")
        model.addTag(model.availableTags[0])
        assertRefusal(model.errorMessage, path: "books/hitchhiker-tags")
        XCTAssertEqual(model.book, before)
    }

    @MainActor
    func testLiveCollectionWritesReportTheRefusal() async throws {
        let books = BooksViewModel(db: db)
        try breakFile("books/dune.json")
        books.update(ShelfBook(title: "Dune", numberOfPages: 1, author: "Frank Herbert"), id: "dune")
        assertRefusal(books.writeError, path: "books/dune")
        books.update(ShelfBook(title: "Dune", numberOfPages: 1, author: "Frank Herbert", color: nil), id: "dune", removing: ["color"])
        assertRefusal(books.writeError, path: "books/dune")

        let colors = MappingColorsViewModel(db: db)
        try breakFile("colors/dZI8vLbiPai2nph7UAxv.json")
        colors.updateColorEntry(ColorEntry(id: "dZI8vLbiPai2nph7UAxv", name: "x", color: try Color(hex: "#000000")))
        assertRefusal(colors.writeError, path: "colors/dZI8vLbiPai2nph7UAxv")
        colors.updateColorEntry(ColorEntry(id: "a/b", name: "x", color: try Color(hex: "#000000")))
        XCTAssertEqual(colors.writeError, #"invalid path "colors/a/b": a document path has an even number of segments (collection/document), this one has 3"#)
    }

    @MainActor
    func testUnknownFieldsComeAsDataGivesThem() async throws {
        try writeFile("books/typed.json", """
            {"title": "T", "author": "A", "numberOfPages": 1, "flag": true, "count": 3, "at": {"$timestamp": "2014-09-09T00:00:00Z"}}
            """)
        let books = BooksViewModel(db: db)
        let row = LiveCollection<ShelfBook>.Row(try await db.document("books/typed").getDocument())
        let fields = books.unknownFields(of: row)
        XCTAssertEqual(fields.map(\.name), ["at", "count", "flag"])
        XCTAssertEqual(fields[0].value as? Timestamp, Timestamp(seconds: 1_410_220_800, nanoseconds: 0))
        XCTAssertEqual(fields[1].value as? Int, 3)
        XCTAssertNotEqual(String(cString: (fields[1].value as! NSNumber).objCType), "c", "an integer (small ones are \"i\" on Linux), not a boolean")
        XCTAssertEqual(String(cString: (fields[2].value as! NSNumber).objCType), "c")
    }
}

/// The messages the store's plain-form handler received (on the callback queue).
private final class ErrorLog: @unchecked Sendable {
    private let lock = NSLock()
    private var received: [String] = []

    func append(_ message: String) { lock.withLock { received.append(message) } }
    var messages: [String] { lock.withLock { received } }
}
