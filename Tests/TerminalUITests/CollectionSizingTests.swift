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

    /// The shown tab's rows wait for its count, so at start it is counted before anything else
    /// (the other tabs, the listing of collections) and starts reading as soon as it is in.
    func testTheShownTabIsCountedFirstAndReadsOnceItsOwnCountIsIn() async throws {
        let (server, store) = try MemoryServer.open(["books/b1": #"{"title": "Dune"}"#])
        let runner = ManualEffects()
        let app = AppModel(store: store, colorMode: .none, effects: runner)
        XCTAssertEqual(runner.pendingPaths, ["size of books", "size of colors", "size of programming-languages", "size of locations",
                                             "size of articles", "the store's collections"])
        XCTAssertEqual(server.pagesCounted, 0)
        runner.complete()
        XCTAssertEqual(server.pagesCounted, 1, "one capped count")
        XCTAssertFalse(app.state.tabSet.awaitingSize.contains("books"))
        try await app.deliver()
        XCTAssertEqual(app.tab.rowCount, 1)
        XCTAssertEqual(runner.pending.count, 5, "the books read while the other counts and the listing wait")
    }

    func testAWindowTabHasTheServerPrepareEachColumnsOrderTheListsOwnFirst() async throws {
        let (server, store) = try MemoryServer.open([:])
        _ = ListTab(windowOf: store.collection("books"), presentation: KnownPresentations.books(BooksViewModel(db: store)))
        XCTAssertEqual(server.ordersPrepared, [[["title"]], [["author"]], [["numberOfPages"]], [["genres"]], [["tags"]]])
    }
}
