import TerminalKit
import XCTest

final class DetailWidgetTests: XCTestCase {
    func testLabelsInAColumnAndLongValuesWrapped() {
        let detail = DetailWidget(lines: [
            DetailLine("Title", "The Hitchhiker's Guide to the Galaxy", valueStyle: Style(bold: true)),
            DetailLine("Pages", "224"),
            DetailLine("Author", "Douglas Adams"),
        ])
        let canvas = rendered(detail, width: 24, height: 6)
        assertLines(canvas, """
            Title   The Hitchhiker's
                    Guide to the
                    Galaxy
            Pages   224
            Author  Douglas Adams
            """)
        XCTAssertTrue(canvas.style(at: Point(x: 0, y: 0)).bold)    // label
        XCTAssertTrue(canvas.style(at: Point(x: 8, y: 2)).bold)    // value style on a wrapped row
        XCTAssertFalse(canvas.style(at: Point(x: 8, y: 3)).bold)
        XCTAssertEqual(detail.rowCount(width: 24), 5)
    }

    func testWideValuesWrapByDisplayWidth() {
        let detail = DetailWidget(lines: [DetailLine("題名", "吾輩は猫である")])
        assertLines(rendered(detail, width: 14, height: 3), """
            題名  吾輩は猫
                  である
            """)
    }

    func testOffsetScrollsRowsAndIsClamped() {
        let detail = DetailWidget(lines: (1...5).map { DetailLine("L\($0)", "v\($0)") }, offset: 2)
        assertLines(rendered(detail, width: 10, height: 2), """
            L3  v3
            L4  v4
            """)
        var far = detail
        far.offset = 99
        assertLines(rendered(far, width: 10, height: 2), """
            L4  v4
            L5  v5
            """)
    }

    func testLongLabelsAreCutToPartOfTheWidth() {
        let detail = DetailWidget(lines: [DetailLine("Cover (medium)", "m.png")])
        assertLines(rendered(detail, width: 20, height: 1), "Cover (…  m.png")
    }
}
