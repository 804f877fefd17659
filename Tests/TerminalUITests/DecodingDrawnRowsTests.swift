import DocumentStore
import Foundation
import ShelfModels
import TerminalKit
@testable import TerminalUI
import XCTest

/// A list sorts and searches every row by its stored fields and decodes only the rows it
/// draws (issue 23: "decode only what is shown"), so a million documents cost their snapshots,
/// not a million models.
@MainActor
final class DecodingDrawnRowsTests: FolderAppTestCase {

    override func setUp() async throws {
        try await super.setUp()
        let books = folder.appendingPathComponent("books")
        try FileManager.default.createDirectory(at: books, withIntermediateDirectories: true)
        // Ids in the opposite order to the titles; pages in yet another.
        for index in 1...300 {
            let fields: [String: Any] = ["author": String(format: "Author %03d", (index * 7) % 300), "numberOfPages": (index * 13) % 300,
                                         "title": String(format: "Book %03d", index), "genres": ["G\(index % 5)"]]
            try JSONSerialization.data(withJSONObject: fields).write(to: books.appendingPathComponent(String(format: "id%03d.json", 301 - index)))
        }
        // Stored values a model cannot take: listed by the values they have, marked "!".
        try Data(#"{"author": "Zed", "numberOfPages": "many", "title": "Book 150a"}"#.utf8).write(to: books.appendingPathComponent("odd.json"))
        try Data(#"{"author": "Nobody"}"#.utf8).write(to: books.appendingPathComponent("untitled.json"))
    }

    private func appAndBookTab() async throws -> (AppModel, ListTab<WholeCollectionRows<ShelfBook>>) {
        let app = try await makeApp()
        let tab = try XCTUnwrap(app.tab as? ListTab<WholeCollectionRows<ShelfBook>>)
        tab.source.problemsCountedUpTo = 0  // counting problems decodes every row, by design
        return (app, tab)
    }

    private func screen(_ app: AppModel) -> [String] {
        app.frame(size: Size(width: 120, height: 30)).canvas.lines
    }

    /// The list pane's rows as drawn (the left half of the screen).
    private func listed(_ app: AppModel) -> [String] {
        screen(app).dropFirst(3).map { String($0.prefix(60)) }.filter { $0.contains("Book") || $0.contains("Nobody") || $0.contains("untitled") }
    }

    private func decodedCount(_ tab: ListTab<WholeCollectionRows<ShelfBook>>) -> Int { tab.source.live.rows.filter(\.isDecoded).count }

    func testSortingAndFilteringDecodeOnlyTheRowsDrawn() async throws {
        let (app, tab) = try await appAndBookTab()
        let drawnRows = 30
        var rows = listed(app)
        XCTAssertTrue(rows.first?.contains("Book 001") == true, rows.joined(separator: "\n"))
        XCTAssertLessThanOrEqual(decodedCount(tab), drawnRows, "the first frame decodes the rows it draws")
        for key in "sSsS" {
            _ = app.apply(.key(.character(key)))
            rows = listed(app)
        }
        XCTAssertLessThanOrEqual(decodedCount(tab), 5 * drawnRows, "each order drew one screen of rows")
        for key in "/book 2" { _ = app.apply(.key(.character(key))) }
        rows = listed(app)
        XCTAssertTrue(rows.allSatisfy { $0.contains("Book 2") }, rows.joined(separator: "\n"))
        XCTAssertLessThan(decodedCount(tab), 302 / 2, "searching 302 rows decoded none of those not drawn")
    }

    /// The ids in the tab's order by a column.
    private func ids(_ tab: ListTab<WholeCollectionRows<ShelfBook>>, by column: Int, ascending: Bool = true) -> [String] {
        tab.rows(by: SortOrder(column: column, ascending: ascending), matching: ListFilter(""), narrowing: nil).map { tab.source.live.rows[$0].id }
    }

    func testStoredValuesOrderRowsAsTheirColumnsDrawThem() async throws {
        let (_, tab) = try await appAndBookTab()
        // By title: "Book 150a" (which does not decode) after "Book 150" (id151), by its title;
        // the document without a title last, whichever the direction.
        var byTitle = ids(tab, by: 0)
        XCTAssertEqual(byTitle.first, "id300")
        XCTAssertEqual(Array(byTitle[149...151]), ["id151", "odd", "id150"])
        XCTAssertEqual(byTitle.last, "untitled")
        byTitle = ids(tab, by: 0, ascending: false)
        XCTAssertEqual(Array(byTitle.prefix(1) + byTitle.suffix(1)), ["id001", "untitled"])
        // By pages: numbers by value (not "10" before "9"), the text "many" after them all,
        // then the document without pages.
        let byPages = ids(tab, by: 2)
        let pages = byPages.dropLast(2).map { tab.source.live.row(id: $0)!.snapshot.get("numberOfPages") as! Int }
        XCTAssertEqual(pages, pages.sorted())
        XCTAssertEqual(Array(byPages.suffix(2)), ["odd", "untitled"])
        XCTAssertEqual(decodedCount(tab), 0, "ordered without a decode")
    }
}
