import DocumentStore
import Foundation
import ShelfModels
import TerminalKit
@testable import TerminalUI
import XCTest

/// A large collection's sort keys, and the search texts its filter's words need, are made a
/// slice a frame, so no frame waits for all of them (sizes scaled down here: "large" is over
/// 10 rows, 10 keys a slice).
@MainActor
final class SortingInSlicesTests: FolderAppTestCase {

    override func setUp() async throws {
        try await super.setUp()
        // Ids in the opposite order to the titles, authors in yet another.
        try writeNumberedBooks(1...25, ids: .oppositeToTitles) { ["author": String(format: "Author %02d", ($0 * 7) % 25)] }
    }

    /// The app, sorting ten keys a slice, each slice a frame of its own.
    private func slicingApp() async throws -> AppModel {
        try await makeApp { app in
            app.state.lists.sortAtOnceLimit = 10
            app.state.lists.sortSlice = 10
            app.state.lists.sliceTime = nil
        }
    }

    private func screen(_ app: AppModel) -> String {
        app.frame(size: Size(width: 100, height: 40)).canvas.lines.joined(separator: "\n")
    }

    func testTheFirstFramesSayHowFarSortingIsAndKeysWaitForIt() async throws {
        let app = try await slicingApp()
        var text = screen(app)
        XCTAssertTrue(text.contains("Sorting books by Title… 0 of 25"), text)
        XCTAssertTrue(text.contains("│  Book 25"), "the rows show by id while their order is made:\n\(text)")
        XCTAssertTrue(text.lastIndex(of: "5") != nil && text.range(of: "Book 25")!.lowerBound < text.range(of: "Book 01")!.lowerBound,
                      "by id first (id01 is Book 25):\n\(text)")
        XCTAssertTrue(text.contains("25 documents"), text)
        _ = app.apply(.key(.character("j")))

        XCTAssertEqual(app.apply(.sortSlice), .keepRunning)
        XCTAssertTrue(screen(app).contains("Sorting books by Title… 10 of 25"), screen(app))
        XCTAssertEqual(app.apply(.sortSlice), .unchanged, "the second slice leaves 5 keys, few enough for the frame that lists the rows")
        app.apply(.replayWaitingKeys)
        text = screen(app)
        XCTAssertFalse(text.contains("Sorting"), text)
        XCTAssertTrue(text.contains("│  Book 01"), text)
        XCTAssertTrue(text.contains(" 2/25 ┘"), "the j typed while sorting moved once it was done:\n\(text)")
        XCTAssertTrue(text.contains("┌ books/id24 "), text)
        XCTAssertEqual(app.apply(.sortSlice), .unchanged, "nothing left to do")
    }

    func testANewColumnKeepsTheLastOrderUntilItsKeysAreMade() async throws {
        let app = try await slicingApp()
        while app.apply(.sortSlice) == .keepRunning {}
        _ = app.apply(.key(.character("s")))  // by author
        var text = screen(app)
        XCTAssertTrue(text.contains("Sorting books by Author… 0 of 25"), text)
        let rows = text.components(separatedBy: "\n").filter { $0.hasPrefix("│  Book ") }
        XCTAssertEqual(rows.first?.hasPrefix("│  Book 01"), true, "still by title meanwhile:\n\(text)")
        while app.apply(.sortSlice) == .keepRunning {}
        text = screen(app)
        XCTAssertTrue(text.contains("Author ▲"), text)
        let authors = text.components(separatedBy: "\n").compactMap { $0.range(of: "Author ")?.upperBound }.count
        XCTAssertGreaterThan(authors, 20, text)
        let first = text.components(separatedBy: "\n").first { $0.hasPrefix("│  Book ") } ?? ""
        XCTAssertTrue(first.contains("Author 00"), "by author now:\n\(text)")
    }

    func testAFiltersSearchTextsAreMadeASliceAFrame() async throws {
        let app = try await slicingApp()
        while app.apply(.sortSlice) == .keepRunning {}
        for key in "/book 1" { _ = app.apply(.key(.character(key))) }
        var text = screen(app)
        XCTAssertTrue(text.contains("Filtering books… 0 of 25"), text)
        XCTAssertEqual(app.apply(.sortSlice), .keepRunning)
        XCTAssertTrue(screen(app).contains("Filtering books… 10 of 25"), screen(app))
        XCTAssertEqual(app.apply(.sortSlice), .unchanged, "5 texts left, few enough for the frame that lists the rows")
        text = screen(app)
        XCTAssertFalse(text.contains("Filtering"), text)
        XCTAssertTrue(text.contains("│  Book 10"), text)
        XCTAssertFalse(text.contains("│  Book 09"), text)
        XCTAssertTrue(text.contains("10 of 25 documents"), text)
        _ = app.apply(.key(.character("9")))
        XCTAssertTrue(screen(app).contains("1 of 25 documents"), "the next key narrows at once:\n\(screen(app))")
    }

    /// Opening the filter's prompt begins the search texts, a slice a frame while the first
    /// word is typed, the rows listed meanwhile; the word then matches at once.
    func testOpeningTheFilterBeginsTheSearchTextsWhileTheRowsStayListed() async throws {
        let app = try await slicingApp()
        while app.apply(.sortSlice) == .keepRunning {}
        XCTAssertEqual(app.apply(.sortSlice), .unchanged, "no texts made before the prompt opens")
        _ = app.apply(.key(.character("/")))
        XCTAssertEqual(app.apply(.sortSlice), .keepRunning)
        let text = screen(app)
        XCTAssertFalse(text.contains("Filtering"), text)
        XCTAssertTrue(text.contains("│  Book 01"), "the rows stay listed:\n\(text)")
        XCTAssertEqual(app.apply(.sortSlice), .unchanged, "20 texts made in two slices: the 5 left are made with the list")
        for key in "book 1" { _ = app.apply(.key(.character(key))) }
        XCTAssertTrue(screen(app).contains("10 of 25 documents"), "matched at once:\n\(screen(app))")
        XCTAssertEqual(app.apply(.sortSlice), .unchanged)
    }

    /// Given a time for a slice, each slice of search texts after the first of a run is as
    /// many rows as the last made in that time, never fewer than `sortSlice`; a run's first,
    /// and every slice of sort keys, is `sortSlice`.
    func testASliceOfTextsAfterTheFirstIsAsManyRowsAsTheLastMadeInTheSliceTime() async throws {
        let app = try await slicingApp()
        app.state.lists.sortAtOnceLimit = 1
        app.state.lists.sortSlice = 5
        app.state.lists.sliceTime = .seconds(3_600)  // far more than 5 texts take
        for made in [5, 10, 15, 20] {
            XCTAssertEqual(app.apply(.sortSlice), .keepRunning)
            XCTAssertTrue(screen(app).contains("Sorting books by Title… \(made) of 25"), "sort keys untimed:\n\(screen(app))")
        }
        XCTAssertEqual(app.apply(.sortSlice), .unchanged)
        for key in "/book 1" { _ = app.apply(.key(.character(key))) }
        XCTAssertEqual(app.apply(.sortSlice), .keepRunning)
        XCTAssertTrue(screen(app).contains("Filtering books… 5 of 25"), "the run's first slice is short:\n\(screen(app))")
        XCTAssertEqual(app.apply(.sortSlice), .unchanged, "the second slice makes the 20 texts left")
        XCTAssertTrue(screen(app).contains("10 of 25 documents"), screen(app))
    }

    func testASliceOfTextsIsNeverFewerRowsThanTheSortSlice() async throws {
        let app = try await slicingApp()
        app.state.lists.sortAtOnceLimit = 1
        app.state.lists.sortSlice = 5
        app.state.lists.sliceTime = .nanoseconds(1)  // less than any text takes
        while app.apply(.sortSlice) == .keepRunning {}
        for key in "/book 1" { _ = app.apply(.key(.character(key))) }
        XCTAssertEqual(app.apply(.sortSlice), .keepRunning)
        XCTAssertEqual(app.apply(.sortSlice), .keepRunning)
        XCTAssertTrue(screen(app).contains("Filtering books… 10 of 25"), screen(app))
    }

    func testASmallCollectionIsOrderedAtOnce() async throws {
        let app = try await slicingApp()
        app.state.lists.sortAtOnceLimit = 25
        XCTAssertEqual(app.apply(.sortSlice), .unchanged)
        XCTAssertTrue(screen(app).contains("│  Book 01"))
    }
}

/// After the list is sorted, a change to one document makes one sort key and moves the row to
/// its place; the other rows keep theirs without being keyed or sorted again.
@MainActor
final class FollowingChangesTests: FolderAppTestCase {

    override func setUp() async throws {
        try await super.setUp()
        try writeNumberedBooks(1...30, ids: .oppositeToTitles)
    }

    private func titles(_ app: AppModel) -> [String] {
        let text = app.frame(size: Size(width: 100, height: 50)).canvas.lines
        // The list's rows only: the left pane, not the detail pane.
        return text.compactMap { line in
            let list = String(line.prefix(40))
            return list.range(of: #"│.{1,3}Book \d\d"#, options: .regularExpression).map { String(list[$0].suffix(7)) }
        }
    }

    func testAChangeToOneDocumentMakesOneSortKey() async throws {
        let app = try await makeApp()
        let tab = try XCTUnwrap(app.tab as? ListTab<WholeCollectionRows<ShelfBook>>)
        XCTAssertEqual(titles(app).prefix(3), ["Book 01", "Book 02", "Book 03"])
        let made = tab.source.sortKeysMade
        XCTAssertEqual(made, 30)
        // Book 01 (id30) becomes Book 99: last.
        let version = tab.version
        try JSONSerialization.data(withJSONObject: ["author": "A", "numberOfPages": 1, "title": "Book 99"])
            .write(to: folder.appendingPathComponent("books/id30.json"))
        try await app.deliver()
        XCTAssertNotEqual(tab.version, version)
        let shown = titles(app)
        XCTAssertEqual(shown.first, "Book 02")
        XCTAssertEqual(shown.last, "Book 99")
        XCTAssertEqual(shown, shown.sorted())
        XCTAssertEqual(tab.source.sortKeysMade, made + 1, "only the changed document's key is made")
    }
}
