import DocumentStore
import Foundation
import TerminalKit
@testable import TerminalUI
import XCTest

/// h/l move a column cursor and scroll the columns to keep it in view, H/L move its column,
/// - hides it and + shows every column again, _ widens it to its longest value in view: the
/// column keys of visidata. Sorting and clicks follow the columns as arranged.
@MainActor
final class ColumnArrangementTests: FolderAppTestCase {
    private let narrow = Size(width: 100, height: 16)

    override func setUp() async throws {
        try await super.setUp()
        try folder.writeDocument("books/moby", ##"{"author": "Herman Melville the Whaler", "numberOfPages": 635, "title": "Moby-Dick", "genres": ["Sea"], "tags": [{"title": "long", "color": "#000000"}]}"##)
        try folder.writeDocument("books/dune", #"{"author": "Frank Herbert", "numberOfPages": 412, "title": "Dune", "genres": ["Sci-Fi"]}"#)
    }

    /// The header's titles, left to right, at the narrow size.
    private func titles(_ app: AppModel) -> [String] {
        let header = app.frame(size: narrow).canvas.lines[2]
        return header.split(separator: "│")[0].split(separator: " ").map(String.init).filter { $0 != "▲" && $0 != "▼" }
    }

    func testLMovesTheCursorAndTheColumnsScrollToKeepItInView() async throws {
        let app = try await makeApp()
        XCTAssertEqual(titles(app), ["Title", "Author", "Pages"], "at 100 columns Genres and Tags are left out")
        press(app, "llll")
        XCTAssertEqual(titles(app).last, "Tags", "the cursor's column is in view")
        XCTAssertFalse(titles(app).contains("Title"), "the first ones scrolled off")
        let canvas = app.frame(size: narrow).canvas
        let x = canvas.lines[2].distance(from: canvas.lines[2].startIndex, to: try XCTUnwrap(canvas.lines[2].range(of: "Tags")).lowerBound)
        XCTAssertTrue(canvas[x, 2].style.reverse, "the cursor's title is marked")
        XCTAssertTrue(canvas.lines[1].contains("Books by Title ▲"), "the sorted column out of view is named: \(canvas.lines[1])")
        press(app, "hhhh")
        XCTAssertEqual(titles(app).first, "Title", "back to the first")
    }

    func testMinusHidesTheCursorsColumnAndPlusShowsEveryColumnAgain() async throws {
        let app = try await makeApp()
        press(app, "l-")
        XCTAssertEqual(app.notice, "Hid the Author column (+ shows every column again)")
        XCTAssertEqual(titles(app), ["Title", "Pages", "Genres"])
        press(app, "+")
        XCTAssertEqual(app.tab.columns.count, 5)
        XCTAssertEqual(app.state.arrangement(of: app.tab).inView(of: app.tab.columns).indices, [0, 2, 3, 4, 1], "hidden ones come back last")
        press(app, "h-h-h-h--")
        XCTAssertEqual(app.notice, "The last column stays shown")
    }

    func testCapitalHAndLMoveTheColumnAndSSortsInTheOrderShown() async throws {
        let app = try await makeApp()
        press(app, "llH")
        XCTAssertEqual(titles(app), ["Title", "Pages", "Author"])
        press(app, "s")
        XCTAssertEqual(app.state.sortOrder(of: app.tab).column, 2, "s goes from Title to Pages, the next shown")
        XCTAssertEqual(app.state.visibleRows(of: app.tab).map { app.tab.snapshot(at: $0)?.documentID }, ["dune", "moby"])
        press(app, "s")
        XCTAssertEqual(app.state.sortOrder(of: app.tab).column, 1, "then Author")
    }

    func testUnderscoreWidensTheColumnToItsLongestValueInViewAndBack() async throws {
        let app = try await makeApp()
        XCTAssertFalse(app.frame(size: narrow).canvas.lines.joined().contains("Herman Melville the Whaler"), "cut at first")
        press(app, "l_")
        XCTAssertTrue(app.frame(size: narrow).canvas.lines.joined().contains("Herman Melville the Whaler"))
        press(app, "_")
        XCTAssertFalse(app.frame(size: narrow).canvas.lines.joined().contains("Herman Melville the Whaler"))
    }

    func testAClickOnAMovedTitleSortsByThatColumn() async throws {
        let app = try await makeApp()
        press(app, "llH")  // Title, Pages, Author
        let screen = app.frame(size: narrow)
        let header = screen.canvas.lines[2]
        let x = header.distance(from: header.startIndex, to: try XCTUnwrap(header.range(of: "Author")).lowerBound)
        XCTAssertEqual(screen.hits.hit(at: Point(x: x, y: 2)), .header(column: 1), "the tab's Author column")
    }

    func testICopiesTheIdAndCapitalCTheValueInTheCursorsColumn() async throws {
        let app = try await makeApp()  // Dune first, by title
        XCTAssertEqual(app.apply(.key(.character("i"))), .copyToClipboard("dune"))
        XCTAssertEqual(app.notice, "Copied the id dune to the clipboard")
        XCTAssertEqual(app.apply(.key(.character("C"))), .copyToClipboard("Dune"), "the first column before the cursor moves")
        press(app, "l")
        XCTAssertEqual(app.apply(.key(.character("C"))), .copyToClipboard("Frank Herbert"))
        XCTAssertEqual(app.notice, "Copied its Author: Frank Herbert")
        press(app, "lL")  // Pages moved right past Genres: the cursor stays on it
        XCTAssertEqual(app.apply(.key(.character("C"))), .copyToClipboard("412"))
    }
}
