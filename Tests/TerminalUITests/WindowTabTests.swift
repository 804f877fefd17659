import DocumentStore
import Foundation
@testable import ShelfModels
import TerminalKit
@testable import TerminalUI
import XCTest

/// A collection too large to hold whole is listed as a window of a query (`QueryWindowRows` under the one `ListTab`): only
/// the rows shown and a margin are read, a sort is one query ordered by the column's field, a
/// filter's comparisons are one query, the end is one read, and a row not read yet draws as
/// "…" while keys go on. Counts of documents read and of queries made, not timings. (On a
/// folder here: the tab is the same on every store, and the app makes it on a server.)
@MainActor
final class WindowTabTests: FolderAppTestCase {
    private let total = 1_000
    private var size = Size(width: 100, height: 30)

    override func setUp() async throws {
        try await super.setUp()
        let store = try Firestore(directory: folder)
        for start in stride(from: 0, to: total, by: 500) {
            let batch = store.batch()
            for n in start..<start + 500 {
                batch.setData(["title": String(format: "Book %04d", n), "author": "Author \(n % 7)", "numberOfPages": (n * 37) % 1_000],
                              forDocument: store.document(String(format: "books/b%04d", n)))
            }
            try batch.commitNow()
        }
    }

    /// The app with its books tab made a window, as the count of a large collection on a
    /// server makes it, and its first rows read.
    private func makeWindowedApp() async throws -> (AppModel, ListTab<QueryWindowRows<ShelfBook>>) {
        let app = try await makeApp()
        app.state.tabSet.awaitSize(of: ["books"])
        app.state.tabSet.sized("books", isLarge: true)
        let tab = try XCTUnwrap(app.tab as? ListTab<QueryWindowRows<ShelfBook>>, "the books tab is a window")
        try await read(app)
        return (app, tab)
    }

    /// Draws a frame (which tells the window what it shows), waits for the reads it started,
    /// replays the keys that waited for the count (as each frame of the app does), and so on
    /// until none waits; returns the next frame's text.
    @discardableResult
    private func read(_ app: AppModel) async throws -> String {
        repeat {
            _ = app.frame(size: size)
            await (app.tab as? ListTab<QueryWindowRows<ShelfBook>>)?.source.window.finishReads()
            _ = app.apply(.replayWaitingKeys)
        } while !app.state.keysWaitingForLoad.isEmpty
        _ = app.frame(size: size)
        await (app.tab as? ListTab<QueryWindowRows<ShelfBook>>)?.source.window.finishReads()
        return app.frame(size: size).canvas.lines.joined(separator: "\n")
    }

    func testALargeCollectionShowsTheRowsInViewAndAMarginReadAndCountsTheRest() async throws {
        let (app, tab) = try await makeWindowedApp()
        let text = app.frame(size: size).canvas.lines.joined(separator: "\n")
        XCTAssertTrue(text.contains("Book 0000"), text)
        XCTAssertTrue(text.contains("1/1,000"), "the position is exact, from a count:\n\(text)")
        XCTAssertEqual(tab.rowCount, total)
        XCTAssertLessThanOrEqual(tab.source.window.documentsRead, 30 + 100, "the rows in view and a page, never the collection")
    }

    /// The rows read are not the list's size: a window says nothing of it until counted.
    func testTheStatusLineSaysCountingUntilTheWindowIsCounted() async throws {
        let app = try await makeApp()
        app.state.tabSet.awaitSize(of: ["books"])
        app.state.tabSet.sized("books", isLarge: true)
        let tab = try XCTUnwrap(app.tab as? ListTab<QueryWindowRows<ShelfBook>>)
        let first = app.frame(size: size).canvas.lines
        XCTAssertNil(tab.source.window.count, "the first read is on its way; the count follows it")
        XCTAssertTrue(first[first.count - 2].contains("counting…"), first.joined(separator: "\n"))
        let text = try await read(app)
        XCTAssertTrue(text.contains("1,000 documents"), text)
        XCTAssertFalse(text.contains("counting…"), text)
    }

    func testGoingToTheEndReadsTheLastPageAloneAndShowsDotsUntilItComes() async throws {
        let (app, tab) = try await makeWindowedApp()
        let readsBefore = tab.source.window.reads
        _ = app.apply(.key(.character("G")))
        let before = app.frame(size: size).canvas.lines.joined(separator: "\n")
        XCTAssertTrue(before.contains("…"), "rows not read yet draw as …:\n\(before)")
        XCTAssertEqual(app.apply(.key(.character("e"))), .keepRunning)
        XCTAssertEqual(app.notice, "Nothing to edit yet: the row is still being read")
        let text = try await read(app)
        XCTAssertTrue(text.contains("Book 0999"), text)
        XCTAssertTrue(text.contains("1,000/1,000"), text)
        XCTAssertEqual(tab.source.window.reads - readsBefore, 1, "one read from the end, none of the middle")
    }

    func testGoingToARowFarDownReadsTheRowsAroundItAloneWithOneRead() async throws {
        let (app, tab) = try await makeWindowedApp()
        let (readBefore, readsBefore) = (tab.source.window.documentsRead, tab.source.window.reads)
        press(app, ":600")
        _ = app.apply(.key(.enter))
        let text = try await read(app)
        XCTAssertTrue(text.contains("Book 0599"), text)
        XCTAssertTrue(text.contains("600/1,000"), text)
        XCTAssertLessThanOrEqual(tab.source.window.documentsRead - readBefore, 30 + 2 * 100, "the rows in view and a page each side, none of the 500 before them")
        XCTAssertEqual(tab.source.window.reads - readsBefore, 1)
    }

    func testASortIsOneQueryOrderedByTheColumnsField() async throws {
        let (app, tab) = try await makeWindowedApp()
        press(app, "G")
        try await read(app)
        let made = tab.source.windowsMade
        press(app, "ss")  // Author, then Pages: from the end of the list, the new order's top
        let text = try await read(app)
        XCTAssertEqual(tab.source.windowsMade - made, 2, "one query for each order asked")
        let pages = (0..<5).compactMap { tab.snapshot(at: $0)?.get("numberOfPages") as? Int }
        XCTAssertEqual(pages, pages.sorted(), "ordered by numberOfPages, the Pages column's field")
        XCTAssertEqual(pages.first, 0)
        XCTAssertTrue(text.contains("1/1,000"), "the new order shows from its first row:\n\(text)")
        XCTAssertTrue(text.contains("1,000 documents with Pages"), "the count is of the books that have pages:\n\(text)")
        XCTAssertLessThanOrEqual(tab.source.window.documentsRead, 30 + 100, "its first rows and a page, not the rows up to where the selection was")
    }

    func testASortByAFieldNoDocumentHasSaysWhyTheListIsEmpty() async throws {
        size = Size(width: 160, height: 30)  // wide enough to show Genres
        let (app, tab) = try await makeWindowedApp()
        press(app, "sss")  // Author, Pages, Genres: these books have no genres
        let text = try await read(app)
        XCTAssertEqual(tab.columns[app.state.sortOrder(of: tab).column].title, "Genres")
        XCTAssertEqual(tab.rowCount, 0, "the query ordered by genres leaves out the books without them")
        XCTAssertTrue(text.contains("No document has Genres: sorted by a field, the list holds only"), text)
        XCTAssertTrue(text.contains("0 documents with Genres"), text)
        press(app, "ss")  // Tags (none either), then Title
        let next = try await read(app)
        XCTAssertFalse(next.contains("No document has"), "the next column's order lists the books again:\n\(next)")
    }

    func testAComparisonAndWordsFilterByAQueryCountedByTheServer() async throws {
        let (app, tab) = try await makeWindowedApp()
        press(app, "/pages>=990")
        _ = app.apply(.key(.enter))
        var text = try await read(app)
        let expected = (0..<total).filter { ($0 * 37) % 1_000 >= 990 }.count
        XCTAssertEqual(tab.rowCount, expected, "counted by the query")
        XCTAssertTrue(text.contains("1/\(expected)"), text)
        XCTAssertTrue((0..<expected).allSatisfy { (tab.snapshot(at: $0)?.get("numberOfPages") as? Int ?? 0) >= 990 })

        _ = app.apply(.key(.escape))
        _ = app.apply(.key(.escape))
        let windows = tab.source.windowsMade
        press(app, "/book 012")
        text = try await read(app)
        XCTAssertEqual(tab.rowCount, 10, "Book 0120 to Book 0129, counted by the query")
        XCTAssertTrue(text.contains("10 of 1,000 documents"), "the collection's count beside the filter's:\n\(text)")
        XCTAssertTrue(text.contains("Book 0125") && !text.contains("Book 0130"), text)
        XCTAssertLessThanOrEqual(tab.source.windowsMade - windows, "book 012".count, "a query a key at most")
        XCTAssertLessThanOrEqual(tab.source.window.documentsRead, 10, "the last window read its matches alone")
        XCTAssertNil(app.notice)
    }

    /// A filter the store refuses (here a comparison Firestore refuses; over Firestore's
    /// protocol, words too) lists nothing at once and says why, as a list held whole does,
    /// instead of "Loading" and "counting…" for rows that never come.
    func testARefusedFilterListsNothingAndSaysWhy() async throws {
        let (app, tab) = try await makeWindowedApp()
        press(app, "/pages!=1 title!=x")
        let typing = try await read(app)
        XCTAssertTrue(tab.isLoaded)
        XCTAssertTrue(typing.contains("The filter \"pages!=1 title!=x\" is refused"), "the list says why as it is typed: \(typing)")
        XCTAssertFalse(typing.contains("Nothing matches"), typing)
        XCTAssertFalse(typing.contains("Loading") || typing.contains("counting…"), typing)
        _ = app.apply(.key(.enter))
        XCTAssertTrue(app.notice?.hasPrefix("The filter \"pages!=1 title!=x\" is refused: ") == true, app.notice ?? "no notice")
    }

    /// A row that does not decode says why, in its row and in its detail, as in a list held
    /// whole (the same words: `ListTab+Rows`), not merely that it does not decode.
    func testARowThatDoesNotDecodeSaysWhyAsInAListHeldWhole() async throws {
        try Data(#"{"author": "P", "numberOfPages": "many", "title": "Book 0000"}"#.utf8)
            .write(to: folder.appendingPathComponent("books/b0000.json"))
        let (app, _) = try await makeWindowedApp()
        let text = try await read(app)
        let row = text.split(separator: "\n").first { $0.hasPrefix("│!") }.map(String.init) ?? ""
        XCTAssertTrue(row.hasPrefix("│! Book 0000  numberOfPages: expected"), text)
        XCTAssertTrue(text.contains("Problem") && !text.contains("does not decode"), text)
    }

    func testASmallCollectionOnAServerStaysWhole() async throws {
        let app = try await makeApp()
        app.state.tabSet.awaitSize(of: ["books"])
        app.state.tabSet.sized("books", isLarge: false)
        XCTAssertFalse(app.tab is ListTab<QueryWindowRows<ShelfBook>>)
        XCTAssertTrue(app.state.tabSet.awaitingSize.isEmpty)
    }
}
