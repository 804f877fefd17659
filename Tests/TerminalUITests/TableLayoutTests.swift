import TerminalKit
@testable import TerminalUI
import XCTest

/// Column widths come from the width alone; cells are cut by display width and padded.
final class TableLayoutTests: XCTestCase {
    private let columns = [ColumnSpec("Title", minWidth: 8, weight: 2), ColumnSpec("Author", minWidth: 6, weight: 1),
                           ColumnSpec("Pages", minWidth: 5, alignment: .right)]

    private func text(_ spans: [Span]) -> String { spans.map(\.text).joined() }

    func testFlexibleColumnsShareTheSpareWidthByWeight() {
        let layout = TableLayout(columns: columns, width: 40)
        // minimums 8, 8 ("Author ▲" needs 8), 7 ("Pages ▲"), gaps 4: 27; 13 spare shared 2:1.
        XCTAssertEqual(layout.widths, [8 + 8 + 1, 8 + 4, 7])
        XCTAssertEqual(layout.widths.reduce(0, +) + 2 * TableLayout.gap, 40)
    }

    func testColumnsThatDoNotFitAreLeftOutFromTheRight() {
        let layout = TableLayout(columns: columns, width: 20)
        XCTAssertEqual(layout.widths, [10, 8, 0])
        XCTAssertEqual(text(layout.row([[Span("Dune")], [Span("Herbert")], [Span("412")]])), "Dune        Herbert")
    }

    func testCellsAreCutByDisplayWidthAndNumbersAlignRight() {
        let layout = TableLayout(columns: columns, width: 27)
        let row = text(layout.row([[Span("日本語のタイトル")], [Span("Brontë")], [Span("42")]]))
        XCTAssertEqual(row, "日本語…   Brontë         42")
        XCTAssertEqual(DisplayWidth.of(row), 27)
    }

    func testTheHeaderMarksTheSortedColumnAndItsDirection() {
        let layout = TableLayout(columns: columns, width: 40)
        XCTAssertEqual(text(layout.header(sortedBy: 1, ascending: true)), "Title              Author ▲        Pages")
        XCTAssertEqual(text(layout.header(sortedBy: 2, ascending: false)), "Title              Author        Pages ▼")
    }
}

/// A click on the header finds the column under it.
final class TableLayoutHitTests: XCTestCase {
    func testAColumnIsFoundByItsCellsNotItsGaps() {
        let layout = TableLayout(columns: [ColumnSpec("Name", minWidth: 6), ColumnSpec("Hex", minWidth: 7)], width: 15)
        XCTAssertEqual(layout.widths, [6, 7])
        XCTAssertEqual((0..<6).map { layout.column(atOffset: $0) }, Array(repeating: 0, count: 6))
        XCTAssertNil(layout.column(atOffset: 6), "the gap")
        XCTAssertNil(layout.column(atOffset: 7))
        XCTAssertEqual(layout.column(atOffset: 8), 1)
        XCTAssertEqual(layout.column(atOffset: 14), 1)
        XCTAssertNil(layout.column(atOffset: 15))
    }
}
