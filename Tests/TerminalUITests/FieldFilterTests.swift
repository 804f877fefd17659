import DocumentStore
import Foundation
import TerminalKit
@testable import TerminalUI
import XCTest

/// Comparisons in the filter (`pages>400`, `author="Ann Leckie"`) keep the documents a
/// Firestore query with those filters keeps; the other words are found in the shown fields.
@MainActor
final class FieldFilterTests: FolderAppTestCase {
    override func setUp() async throws {
        try await super.setUp()
        for (id, title, author, pages) in [("dune", "Dune", "Frank Herbert", 412), ("hobbit", "The Hobbit", "J. R. R. Tolkien", 310),
                                           ("justice", "Ancillary Justice", "Ann Leckie", 386), ("sword", "Ancillary Sword", "Ann Leckie", 356),
                                           ("guide", "The Hitchhiker's Guide", "Douglas Adams", 816)] {
            try folder.writeDocument("books/\(id)", #"{"author": "\#(author)", "numberOfPages": \#(pages), "title": "\#(title)"}"#)
        }
        try folder.writeDocument("books/odd", #"{"author": "Nobody", "numberOfPages": "many", "title": "Odd"}"#)
        try folder.writeDocument("notes/a", #"{"words": 3, "about": {"topic": "x"}}"#)
        try folder.writeDocument("notes/b", #"{"words": 30, "about": {"topic": "y"}}"#)
    }

    /// The ids listed once `text` is typed after `/` and kept with Enter.
    private func filtered(_ app: AppModel, _ text: String) -> [String] {
        _ = app.apply(.key(.escape))  // the last filter cleared
        _ = app.apply(.key(.character("/")))
        for character in text { _ = app.apply(.key(.character(character))) }
        _ = app.apply(.key(.enter))
        let tab = app.tab
        return app.state.visibleRows(of: tab).compactMap { tab.snapshot(at: $0)?.documentID }
    }

    func testTheFilterParsesComparisonsAndLeavesTheOtherWords() {
        let filter = ListFilter(#"pages>400 ann author="Ann Leckie" x=1.5 ok!=true n<=null leckie"#)
        XCTAssertEqual(filter.comparisons, [
            .init(name: "pages", op: .greaterThan, value: .integer(400)),
            .init(name: "author", op: .equal, value: .text("Ann Leckie")),
            .init(name: "x", op: .equal, value: .double(1.5)),
            .init(name: "ok", op: .notEqual, value: .bool(true)),
            .init(name: "n", op: .lessThanOrEqual, value: .null),
        ])
        XCTAssertEqual(filter.text, "ann leckie")
        XCTAssertEqual(ListFilter("C++ 2>1 =x >3 a=").comparisons, [], "no name, or no value: words")
        XCTAssertEqual(ListFilter("C++ 2>1 =x >3 a=").text, "C++ 2>1 =x >3 a=")
    }

    func testAComparisonByAColumnsTitleComparesItsFieldAsFirestoreDoes() async throws {
        let app = try await makeApp()
        XCTAssertEqual(filtered(app, "pages>400"), ["dune", "guide"], "by title order; \"many\" is no number")
        XCTAssertEqual(filtered(app, "numberOfPages<=356"), ["sword", "hobbit"], "the field's own name too")
        XCTAssertEqual(filtered(app, #"author="Ann Leckie""#), ["justice", "sword"])
        XCTAssertEqual(filtered(app, "Title>=The"), ["guide", "hobbit"], "texts by their bytes, the title any case")
        XCTAssertEqual(filtered(app, "pages>=many"), ["odd"], "a text compares with texts only (the one that does not decode)")
        XCTAssertEqual(filtered(app, "pages!=412 pages<400 ancillary"), ["justice", "sword"], "comparisons and words together")
        XCTAssertEqual(filtered(app, "id>h"), ["justice", "sword", "odd", "hobbit"], "ids after h, by title (the one that does not decode by its own)")
    }

    func testAComparisonThatNothingPassesSaysSoAndTheWordsAloneAreHighlighted() async throws {
        let app = try await makeApp()
        XCTAssertEqual(filtered(app, "pages>10000"), [])
        XCTAssertEqual(app.notice, "Nothing matches \"pages>10000\"")
        XCTAssertEqual(filtered(app, "a..b>1"), [])
        XCTAssertEqual(app.notice?.hasPrefix("The filter \"a..b>1\" is refused: "), true, app.notice ?? "no notice")
        XCTAssertEqual(filtered(app, "pages<400 leckie").count, 2)
        let canvas = app.frame(size: Size(width: 100, height: 16)).canvas
        XCTAssertTrue(canvas.lines[1].contains("/pages<400 leckie"), canvas.lines.joined(separator: "\n"))
        let row = 3  // Ancillary Justice, Ann Leckie, 386
        let line = canvas.lines[row]
        let x = line.distance(from: line.startIndex, to: try XCTUnwrap(line.range(of: "Leckie")).lowerBound)
        XCTAssertEqual((0..<6).map { canvas[x + $0, row].style.underline }, Array(repeating: true, count: 6), line)
        let pages = line.distance(from: line.startIndex, to: try XCTUnwrap(line.range(of: "386")).lowerBound)
        XCTAssertFalse(canvas[pages, row].style.underline, "a comparison's value is not highlighted: \(line)")
    }

    func testAFolderWithoutAModelIsFilteredByItsFieldsPathsAndIds() async throws {
        let app = try await makeApp()
        let notes = try XCTUnwrap(app.state.tabSet.all.firstIndex { $0.collectionID == "notes" })
        app.state.switchTab(to: notes)
        try await app.deliver()
        XCTAssertEqual(filtered(app, "words>=10"), ["b"])
        XCTAssertEqual(filtered(app, "about.topic=x"), ["a"])
        XCTAssertEqual(filtered(app, "id=b"), ["b"])
    }
}
