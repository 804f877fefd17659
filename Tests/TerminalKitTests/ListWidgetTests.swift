import TerminalKit
import XCTest

final class ListWidgetTests: XCTestCase {
    let rows = (1...6).map { ListRow("Row \($0)") }

    func testSelectedRowIsReversedAcrossTheWholeWidth() {
        let list = ListWidget(rows: Array(rows.prefix(3)), state: ListState(selected: 1))
        let canvas = rendered(list, width: 10, height: 4)
        assertLines(canvas, """
            Row 1
            Row 2
            Row 3
            """)
        for x in 0..<10 {
            XCTAssertTrue(canvas.style(at: Point(x: x, y: 1)).reverse, "column \(x)")
            XCTAssertFalse(canvas.style(at: Point(x: x, y: 0)).reverse)
        }
    }

    func testAnUnfocusedListShowsItsSelectionInBoldUnderline() {
        let list = ListWidget(rows: rows, state: ListState(selected: 0), isFocused: false)
        let style = rendered(list, width: 10, height: 3).style(at: Point(x: 0, y: 0))
        XCTAssertFalse(style.reverse)
        XCTAssertTrue(style.bold)
        XCTAssertTrue(style.underline)
    }

    func testScrollsSoTheSelectionIsVisible() {
        let list = ListWidget(rows: rows, state: ListState(selected: 4, offset: 0))
        XCTAssertEqual(list.renderedState(in: Rect(x: 0, y: 0, width: 10, height: 3)),
                       ListState(selected: 4, offset: 2))
        assertLines(rendered(list, width: 10, height: 3), """
            Row 3
            Row 4
            Row 5
            """)
    }

    func testKeepsTheOffsetWhileTheSelectionStaysInView() {
        let list = ListWidget(rows: rows, state: ListState(selected: 3, offset: 2))
        XCTAssertEqual(list.renderedState(in: Rect(x: 0, y: 0, width: 10, height: 3)).offset, 2)
        let up = ListWidget(rows: rows, state: ListState(selected: 1, offset: 2))
        XCTAssertEqual(up.renderedState(in: Rect(x: 0, y: 0, width: 10, height: 3)).offset, 1)
    }

    func testClampsASelectionPastTheEndAndAnOffsetLeavingEmptyRows() {
        let state = ListState(selected: 9, offset: 5).keptVisible(rowCount: 6, height: 4)
        XCTAssertEqual(state, ListState(selected: 5, offset: 2))
        XCTAssertEqual(ListState(selected: 0, offset: 3).keptVisible(rowCount: 6, height: 10),
                       ListState(selected: 0, offset: 0))
        XCTAssertEqual(ListState(selected: 2).keptVisible(rowCount: 0, height: 4), ListState(selected: nil, offset: 0))
    }

    func testMovingTheSelection() {
        var state = ListState()
        state.move(by: 1, rowCount: 3)
        XCTAssertEqual(state.selected, 0)
        state.move(by: 5, rowCount: 3)
        XCTAssertEqual(state.selected, 2)
        state.move(by: -1, rowCount: 3)
        XCTAssertEqual(state.selected, 1)
        state.selectFirst(rowCount: 3)
        XCTAssertEqual(state.selected, 0)
        state.selectLast(rowCount: 3)
        XCTAssertEqual(state.selected, 2)
        state.move(by: 1, rowCount: 0)
        XCTAssertNil(state.selected)
    }

    func testAWideTitleIsTruncatedAtThePaneEdgeWithoutBreakingTheLayout() {
        let list = ListWidget(rows: [
            ListRow("吾輩は猫である"),
            ListRow([Span("Tea "), Span("🍵", style: Style(bold: true)), Span(" time")]),
            ListRow("short"),
        ], state: ListState(selected: 0))
        var canvas = Canvas(width: 14, height: 3)
        canvas.fill(canvas.bounds, with: "|")
        list.render(into: &canvas, area: Rect(x: 1, y: 0, width: 10, height: 3))
        assertLines(canvas, """
            |吾輩は猫… |||
            |Tea 🍵 ti…|||
            |short     |||
            """)
        XCTAssertTrue(canvas.style(at: Point(x: 10, y: 0)).reverse)   // the row's last column
        XCTAssertFalse(canvas.style(at: Point(x: 11, y: 0)).reverse)  // outside the pane
        XCTAssertTrue(canvas.style(at: Point(x: 5, y: 1)).bold)       // 🍵
    }

    func testMarkerColumnAlignsRowsAndFlagsBrokenOnes() {
        let list = ListWidget(rows: [
            ListRow("good.json"),
            ListRow("broken.json: not JSON", marker: "!"),
            ListRow("fine.json"),
        ], state: ListState(selected: 1))
        XCTAssertEqual(list.markerWidth, 2)
        let canvas = rendered(list, width: 16, height: 3)
        assertLines(canvas, """
              good.json
            ! broken.json: …
              fine.json
            """)
        XCTAssertTrue(canvas.style(at: Point(x: 0, y: 1)).bold)
        XCTAssertTrue(canvas.style(at: Point(x: 0, y: 1)).reverse)
    }

    func testEmptyListShowsItsEmptyText() {
        let canvas = rendered(ListWidget(rows: [], state: ListState(), emptyText: "No colours"), width: 12, height: 2)
        assertLines(canvas, "No colours")
        XCTAssertTrue(canvas.style(at: Point(x: 0, y: 0)).dim)
    }
}
