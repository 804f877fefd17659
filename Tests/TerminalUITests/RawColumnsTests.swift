import DocumentStore
import Foundation
import TerminalKit
@testable import TerminalUI
import XCTest

/// A folder Shelf has no model for lists its documents' own fields as columns: what visidata
/// shows of a JSON file, rather than an id and an empty name.
@MainActor
final class RawColumnsTests: FolderAppTestCase {
    override func setUp() async throws {
        try await super.setUp()
        for index in 1...20 {
            var fields = [#""pages": \#(index * 7 % 23)"#, #""title": "Note \#(index)""#, #""done": \#(index % 2 == 0)"#]
            if index % 4 == 0 { fields.append(#""tags": ["a", "b"]"#) }
            if index == 3 { fields.append(#""rare": 1"#) }
            try folder.writeDocument("notes/n\(String(format: "%02d", index))", "{" + fields.joined(separator: ", ") + "}")
        }
    }

    /// The app on the notes tab, read.
    private func notes() async throws -> AppModel {
        let app = try await makeApp()
        press(app, ":notes")
        _ = app.apply(.key(.enter))
        try await app.deliver()
        XCTAssertEqual(app.tab.collectionID, "notes")
        return app
    }

    func testTheFieldsMostDocumentsHoldAreColumnsTitleFirst() async throws {
        let app = try await notes()
        XCTAssertEqual(app.tab.columns.map(\.title), ["Id", "title", "done", "pages", "tags"], "rare is in fewer than a tenth")
        XCTAssertEqual(app.tab.columns.map(\.alignment), [.left, .left, .left, .right, .left], "numbers right-aligned")
        let lines = app.frame(size: Size(width: 100, height: 16)).canvas.lines
        XCTAssertTrue(lines[2].contains("Id ▲"), lines[2])
        XCTAssertTrue(lines[3].contains("n01") && lines[3].contains("Note 1") && lines[3].contains("false") && lines[3].contains("7"), lines[3])
        XCTAssertTrue(lines[6].contains("[\"a\""), "n04 has tags: \(lines[6])")
    }

    func testANumericFieldSortsAsNumbersAndFiltersByComparison() async throws {
        let app = try await notes()
        app.state.current.sort = SortOrder(column: 3)  // pages
        let tab = app.tab
        let pages = app.state.visibleRows(of: tab).map { tab.snapshot(at: $0)?.get("pages") as? Int }
        XCTAssertEqual(pages, pages.sorted { ($0 ?? 0) < ($1 ?? 0) }, "2 before 10")
        _ = app.apply(.key(.character("/")))
        for character in "pages>=19 done=true" { _ = app.apply(.key(.character(character))) }
        _ = app.apply(.key(.enter))
        XCTAssertEqual(app.state.visibleRows(of: tab).map { tab.snapshot(at: $0)?.documentID }, ["n06", "n16"])
    }
}
