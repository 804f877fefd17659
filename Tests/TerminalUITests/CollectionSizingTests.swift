@testable import DocumentStore
import Foundation
@testable import ShelfModels
@testable import TerminalUI
import XCTest

/// A tab on a server is sized by a count capped just past the window threshold: the server
/// counts a page of that many and stops, never every document of a collection of ten million
/// (which took 3.4 s at 10,000,000 before the first rows could show). A tab made a window has
/// the server make its columns' orders ready, so a first sort need not wait for an index.
@MainActor
final class CollectionSizingTests: XCTestCase {
    func testACountWithALimitIsAPageCountStoppedAtTheLimit() async throws {
        var documents: [String: String] = [:]
        for n in 0..<25 { documents["books/b\(n)"] = #"{"n": \#(n)}"# }
        let (server, store) = try MemoryServer.open(documents)
        let books = store.collection("books")
        let capped = try await books.limit(to: 10).count.getAggregation(source: .server).count.intValue
        XCTAssertEqual(capped, 10)
        XCTAssertEqual(server.pagesCounted, 1)
        XCTAssertEqual(server.selectionsCounted, 0, "not every document counted first")
        let all = try await books.count.getAggregation(source: .server).count.intValue
        XCTAssertEqual(all, 25)
        XCTAssertEqual(server.selectionsCounted, 1, "without a limit, the whole selection")
    }

    func testAWindowTabHasTheServerPrepareEachColumnsOrderTheListsOwnFirst() async throws {
        let (server, store) = try MemoryServer.open([:])
        _ = WindowTab(collection: store.collection("books"), presentation: KnownPresentations.books(BooksViewModel(db: store)))
        XCTAssertEqual(server.ordersPrepared, [[["title"]], [["author"]], [["numberOfPages"]], [["genres"]], [["tags"]]])
    }
}
