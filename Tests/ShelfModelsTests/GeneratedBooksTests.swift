import DocumentStore
import Foundation
@testable import ShelfModels
import XCTest

/// `GeneratedBooks` (`shelf generate`): numbered after the generated books already there, so
/// nothing is overwritten, whatever else the collection holds.
final class GeneratedBooksTests: XCTestCase {
    private var folder: URL!
    private var db: Firestore!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("generated-books-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        db = try Firestore(directory: folder)
    }

    override func tearDownWithError() throws {
        db = nil
        try? FileManager.default.removeItem(at: folder)
    }

    private var books: CollectionReference { db.collection("books") }

    func testBooksAreWrittenInBatchesAndNumberedOnAfterThoseThere() throws {
        var told: [Int] = []
        let first = try GeneratedBooks.write(1_203, into: books) { told.append($0) }
        XCTAssertEqual(first.first, 0)
        XCTAssertNil(first.before)
        XCTAssertEqual(told, [500, 1_000, 1_203], "each batch of 500 told as written")
        let again = try GeneratedBooks.write(2, into: books)
        XCTAssertEqual(again.first, 1_203)
        XCTAssertEqual(again.before, 1_202)
        XCTAssertEqual(try books.listDocuments().count, 1_205)
        let book = try books.document(GeneratedBooks.id(1_203)).readDocument()
        XCTAssertEqual(book.data()?["title"] as? String, GeneratedBooks.book(1_203).title)
    }

    func testTheLastNumberLooksPastSevenDigitsAndPastIdsThatAreNoNumber() throws {
        XCTAssertNil(try GeneratedBooks.lastNumber(in: books))
        for id in ["dune", "generated-0000041", "generated-7b"] { try books.document(id).write(["n": 1]) }
        XCTAssertEqual(try GeneratedBooks.lastNumber(in: books), 41, "generated-7b is no number")
        try books.document(GeneratedBooks.id(GeneratedBooks.firstLongerNumber + 5)).write(["n": 1])
        XCTAssertEqual(try GeneratedBooks.lastNumber(in: books), 10_000_005, "an eight-digit number sorts before seven-digit ones")
    }

    func testIdsArePaddedToSevenDigits() {
        XCTAssertEqual(GeneratedBooks.id(42), "generated-0000042")
        XCTAssertEqual(GeneratedBooks.id(12_345_678), "generated-12345678")
    }
}
