import DocumentStore
import Foundation
import TerminalKit
@testable import TerminalUI
import XCTest

/// The list as columns under a header, sorted by `s`/`S`, with its position in the frame and a
/// filter over every shown field: as the screen shows them.
@MainActor
final class ColumnsAndSortingTests: FolderAppTestCase {

    override func setUp() async throws {
        try await super.setUp()
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("books"), withIntermediateDirectories: true)
        try write("aaa", #"{"author": "P", "numberOfPages": "twohundredfifty", "title": "Aaa Broken"}"#)
        try write("b1", #"{"author": "Charlotte Brontë", "numberOfPages": 532, "title": "Jane Eyre", "genres": ["Gothic"]}"#)
        try write("b2", ##"{"author": "Frank Herbert", "numberOfPages": 412, "title": "Dune", "tags": [{"title": "epic", "color": "#EC4BE9"}]}"##)
        try write("b3", #"{"author": "Frank Herbert", "numberOfPages": 98, "title": "Children of Dune"}"#)
        try write("b4", #"{"author": "Ann Leckie", "numberOfPages": 386, "title": "Ancillary Justice", "genres": ["Sci-Fi"]}"#)
    }

    private func write(_ id: String, _ json: String) throws {
        try Data(json.utf8).write(to: folder.appendingPathComponent("books/\(id).json"))
    }

    private func lines(_ app: AppModel, width: Int = 100) -> [String] {
        app.frame(size: Size(width: width, height: 16)).canvas.lines
    }

    /// The list pane's rows, header first, without the borders and trailing spaces.
    private func list(_ app: AppModel) -> [String] {
        lines(app)[2..<8].map { line in
            String(line.dropFirst().prefix(48)).replacingOccurrences(of: #"\s+$"#, with: "", options: .regularExpression)
        }
    }

    func testBooksOpenSortedByTitleUnderAHeaderABrokenDocumentByItsTitleToo() async throws {
        let app = try await makeApp()
        XCTAssertEqual(list(app), [
            "  Title ▲                Author            Pages",
            "! Aaa Broken  numberOfPages: expected Int, foun…",
            "  Ancillary Justice      Ann Leckie          386",
            "  Children of Dune       Frank Herbert        98",
            "  Dune                   Frank Herbert       412",
            "  Jane Eyre              Charlotte Bro…      532",
        ])
        XCTAssertTrue(lines(app)[1].contains("books/aaa"), "the first row is selected:\n\(lines(app).joined(separator: "\n"))")
    }

    func testSSortsByTheNextColumnAndCapitalSReversesWithTiesById() async throws {
        let app = try await makeApp()
        _ = app.apply(.key(.character("s")))
        XCTAssertEqual(list(app).map { String($0.prefix(20)).trimmingCharacters(in: .whitespaces) }, [
            "Title", "Ancillary Justice", "Jane Eyre", "Dune", "Children of Dune", "! Aaa Broken  number",
        ])
        XCTAssertTrue(list(app)[0].contains("Author ▲"), list(app)[0])
        XCTAssertTrue(lines(app)[14].contains("Sorted by Author ▲ ascending"), lines(app)[14])

        _ = app.apply(.key(.character("S")))
        XCTAssertTrue(list(app)[0].contains("Author ▼"), list(app)[0])
        // Frank Herbert's two books keep their id order (b2 Dune, b3 Children of Dune).
        XCTAssertEqual(list(app).map { String($0.prefix(20)).trimmingCharacters(in: .whitespaces) }, [
            "Title", "! Aaa Broken  number", "Dune", "Children of Dune", "Jane Eyre", "Ancillary Justice",
        ])

        // Pages, ascending again: by number, not by text, and a text ("twohundredfifty") after them.
        _ = app.apply(.key(.character("s")))
        XCTAssertTrue(list(app)[0].contains("Pages ▲"), list(app)[0])
        XCTAssertEqual(list(app).map { String($0.suffix(3)) }.dropFirst().dropLast(), [" 98", "386", "412", "532"])
        XCTAssertTrue(list(app).last?.hasPrefix("! Aaa Broken") == true, list(app).joined(separator: "\n"))

        _ = app.apply(.key(.character("s")))  // past the last column shown (pages): back to the title
        XCTAssertTrue(list(app)[0].hasPrefix("  Title ▲"), list(app)[0])
    }

    func testSCyclesThroughTheColumnsShownAtTheWidthOnly() async throws {
        let app = try await makeApp()
        // At 100 columns the list shows Title, Author and Pages; Genres and Tags do not fit.
        XCTAssertFalse(list(app)[0].contains("Genres"), list(app)[0])
        var sorted: [String] = []
        for _ in 0..<4 {
            _ = app.apply(.key(.character("s")))
            sorted.append(lines(app)[14])
        }
        XCTAssertEqual(sorted.map { $0.components(separatedBy: "Sorted by ").last!.components(separatedBy: " ").first! },
                       ["Author", "Pages", "Title", "Author"])
        // At 160 columns Genres and Tags are shown, and sorted by in turn.
        for _ in 0..<3 {
            _ = app.apply(.key(.character("s")))
            _ = lines(app, width: 160)
        }
        XCTAssertTrue(lines(app, width: 160)[2].contains("Tags ▲"), lines(app, width: 160)[2])
    }

    func testASortedColumnANarrowerScreenHidesStaysSortedAndIsNamedInTheFrame() async throws {
        let app = try await makeApp()
        for _ in 0..<3 {
            _ = app.apply(.key(.character("s")))
            _ = lines(app, width: 160)
        }
        XCTAssertTrue(lines(app, width: 160)[2].contains("Genres ▲"), lines(app, width: 160)[2])
        XCTAssertTrue(lines(app, width: 160)[1].contains("┌ Books ─"), lines(app, width: 160)[1])
        // Narrower: Genres is not shown; the rows keep its order (Gothic, Sci-Fi, then those
        // without genres, by id), and the frame says what they are sorted by.
        XCTAssertTrue(lines(app)[1].hasPrefix("┌ Books by Genres ▲ ─"), lines(app)[1])
        XCTAssertEqual(list(app).map { String($0.prefix(20)).trimmingCharacters(in: .whitespaces) }, [
            "Title", "Jane Eyre", "Ancillary Justice", "! Aaa Broken  number", "Dune", "Children of Dune",
        ])
        // s goes on to the first column shown.
        _ = app.apply(.key(.character("s")))
        XCTAssertTrue(list(app)[0].hasPrefix("  Title ▲"), list(app)[0])
        XCTAssertTrue(lines(app)[1].hasPrefix("┌ Books ─"), lines(app)[1])
    }

    func testTheSelectionAndOrderHoldUnderLiveUpdates() async throws {
        let app = try await makeApp()
        for _ in 0..<3 { _ = app.apply(.key(.character("j"))) }
        XCTAssertTrue(lines(app)[1].contains("books/b2"), lines(app)[1])
        XCTAssertTrue(lines(app)[13].contains("4/5"), "the frame says where the selection is:\n\(lines(app)[13])")
        // A book that sorts first arrives, and another changes its title to sort last.
        try write("b9", #"{"author": "Z", "numberOfPages": 1, "title": "Aardvark"}"#)
        try write("b1", #"{"author": "Charlotte Brontë", "numberOfPages": 532, "title": "Villette"}"#)
        try await app.deliver()
        XCTAssertEqual(list(app).map { String($0.prefix(20)).trimmingCharacters(in: .whitespaces) }, [
            "Title ▲", "! Aaa Broken  number", "Aardvark", "Ancillary Justice", "Children of Dune", "Dune",
        ])
        XCTAssertTrue(lines(app)[1].contains("books/b2"), "the selection stays on Dune:\n\(lines(app).joined(separator: "\n"))")
        XCTAssertTrue(lines(app)[13].contains("5/6"), lines(app)[13])
    }

    func testThePositionIsGroupedForLargeLists() {
        XCTAssertEqual(AppView.positionText(0, count: 30_047), "1/30,047")
        XCTAssertEqual(AppView.positionText(16, count: 47), "17/47")
        XCTAssertNil(AppView.positionText(nil, count: 0))
    }

    func testTheFilterSearchesEveryShownFieldIgnoringCaseAndAccents() async throws {
        let app = try await makeApp()
        func filter(_ text: String) -> [String] {
            _ = app.apply(.key(.character("/")))
            for c in text { _ = app.apply(.key(.character(c))) }
            _ = app.apply(.key(.enter))
            let rows = list(app).dropFirst().filter { !$0.isEmpty }.map { String($0.dropFirst(2).prefix(20)).trimmingCharacters(in: .whitespaces) }
            _ = app.apply(.key(.escape))
            return rows
        }
        XCTAssertEqual(filter("bronte"), ["Jane Eyre"])
        XCTAssertEqual(filter("BRONTË"), ["Jane Eyre"])
        XCTAssertEqual(filter("gothic"), ["Jane Eyre"], "genres are searched")
        XCTAssertEqual(filter("#ec4b"), ["Dune"], "a tag's colour is searched")
        XCTAssertEqual(filter("dune"), ["Children of Dune", "Dune"], "in the list's order")
        XCTAssertEqual(filter("b4"), ["Ancillary Justice"], "the id is searched")
    }

    func testMatchesAreHighlightedInTheRows() async throws {
        let app = try await makeApp()
        _ = app.apply(.key(.character("/")))
        for c in "herb" { _ = app.apply(.key(.character(c))) }
        let canvas = app.frame(size: Size(width: 100, height: 16)).canvas
        let row = 3  // the first row under the header: Children of Dune, Frank Herbert
        let line = canvas.lines[row]
        let start = try XCTUnwrap(line.range(of: "Herb")).lowerBound
        let x = line.distance(from: line.startIndex, to: start)
        XCTAssertEqual((0..<4).map { canvas[x + $0, row].style.underline }, [true, true, true, true], line)
        XCTAssertFalse(canvas[x + 4, row].style.underline, "only the match is highlighted: \(line)")
        XCTAssertFalse(canvas[x - 2, row].style.underline, line)
    }
}
