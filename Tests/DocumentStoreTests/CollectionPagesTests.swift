@testable import DocumentStore
import Foundation
import XCTest

/// A folder's collection read a page at a time (`CollectionPages`, how `shelf export` copies
/// one of any size): the files listed once, each page reading only its own files, in id
/// order, every document once. Counts, not timings.
final class CollectionPagesTests: StoreTestCase {
    private var filesRead: Int { db.files.filesRead.withLock { $0 } }

    private func seed(_ count: Int) throws -> [String] {
        let ids = (0..<count).map { "b\($0)" }
        for id in ids { try store.writeFile("books/\(id).json", "{\"title\": \"\(id)\"}") }
        return ids.sorted { UTF8Bytes.compare($0, $1) < 0 }
    }

    func testAFolderIsReadAPageAtATimeInIDOrderEachDocumentOnce() throws {
        let ids = try seed(1_200)
        let before = filesRead
        let pages = try db.collection("books").pages(size: 500)
        XCTAssertEqual(pages.count, 1_200, "the listing counts the documents")
        XCTAssertEqual(filesRead, before, "listing reads no file")

        var seen: [String] = []
        for expected in [500, 500, 200] {
            let reads = filesRead
            let page = try pages.next()
            XCTAssertEqual(page.count, expected)
            XCTAssertEqual(filesRead - reads, expected, "a page reads its own files and no other")
            seen += page.map(\.documentID)
        }
        XCTAssertEqual(try pages.next().count, 0, "then the end")
        XCTAssertEqual(seen, ids, "every document once, in id order")
    }

    func testDocumentsDeletedAfterTheListingAreLeftOutAndAPageTheyEmptiedIsNoEnd() throws {
        let ids = try seed(12)
        let pages = try db.collection("books").pages(size: 4)
        for id in ids[4..<8] { try store.deleteFile("books/\(id).json") }

        XCTAssertEqual(try pages.next().map(\.documentID), Array(ids[0..<4]))
        XCTAssertEqual(try pages.next().map(\.documentID), Array(ids[8..<12]), "the emptied page is skipped, not taken for the end")
        XCTAssertEqual(try pages.next().count, 0)
    }

    func testAMissingCollectionHasNoPages() throws {
        let pages = try db.collection("nothing").pages(size: 500)
        XCTAssertEqual(pages.count, 0)
        XCTAssertEqual(try pages.next().count, 0)
    }
}
