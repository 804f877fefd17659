import TerminalKit
import XCTest

final class CanvasTests: XCTestCase {
    func testWriteReturnsColumnsAndLinesShowTheText() {
        var canvas = Canvas(width: 8, height: 2)
        XCTAssertEqual(canvas.write("abc", at: Point(x: 1, y: 0)), 3)
        XCTAssertEqual(canvas.write("漢字", at: Point(x: 2, y: 1)), 4)
        assertLines(canvas, """
             abc
              漢字
            """)
        XCTAssertEqual(canvas.lines, [" abc    ", "  漢字  "])
    }

    func testAWideCharacterTakesItsCellAndAContinuationCell() {
        var canvas = Canvas(width: 4, height: 1)
        canvas.write("🍵x", at: .zero)
        XCTAssertEqual(canvas[0, 0].text, "🍵")
        XCTAssertEqual(canvas[0, 0].width, 2)
        XCTAssertTrue(canvas[1, 0].isContinuation)
        XCTAssertEqual(canvas[2, 0].text, "x")
    }

    func testAWideCharacterThatDoesNotFitBeforeTheClipIsPaddedWithASpace() {
        var canvas = Canvas(width: 6, height: 1, style: Style(dim: true))
        let bold = Style(bold: true)
        XCTAssertEqual(canvas.write("ab漢字", at: .zero, style: bold, clippedTo: 3), 3)
        assertLines(canvas, "ab")
        XCTAssertEqual(canvas[2, 0], Cell(text: " ", width: 1, style: bold))
        XCTAssertEqual(canvas[3, 0].style, Style(dim: true))  // untouched after the clip
    }

    func testAWideCharacterNeverHangsOverTheRightEdge() {
        var canvas = Canvas(width: 5, height: 1)
        canvas.write("漢字漢", at: .zero)
        assertLines(canvas, "漢字")
        XCTAssertEqual(canvas[4, 0].text, " ")
        XCTAssertFalse(canvas[4, 0].isContinuation)
    }

    func testOverwritingHalfOfAWideCharacterBlanksTheOtherHalf() {
        var canvas = Canvas(width: 6, height: 2)
        canvas.write("漢字漢", at: .zero)
        canvas.write("x", at: Point(x: 1, y: 0))   // right half of 漢
        canvas.write("y", at: Point(x: 2, y: 0))   // left half of 字
        assertLines(canvas, " xy 漢")
        canvas.write("漢字漢", at: Point(x: 0, y: 1))
        canvas.write("🍵", at: Point(x: 1, y: 1))  // straddles 漢 and 字
        assertLines(canvas, """
             xy 漢
             🍵 漢
            """)
    }

    func testWritingLeftOfTheCanvasIsClipped() {
        var canvas = Canvas(width: 4, height: 1)
        canvas.write("漢ab", at: Point(x: -1, y: 0))
        assertLines(canvas, " ab")
        canvas.write("zzz", at: Point(x: 0, y: 5))  // below: nothing happens
        assertLines(canvas, " ab")
    }

    func testControlsAreDrawnEscapedAndLoneZeroWidthCharactersSkipped() {
        var canvas = Canvas(width: 6, height: 1)
        canvas.write("a\tb\u{200B}c", at: .zero)
        assertLines(canvas, "a\\tbc")
    }

    func testSpansKeepTheirStylesAndShareTheClip() {
        var canvas = Canvas(width: 10, height: 1)
        let bold = Style(bold: true)
        let used = canvas.write([Span("ab", style: bold), Span("cdef")], at: Point(x: 1, y: 0), clippedTo: 4)
        XCTAssertEqual(used, 4)
        assertLines(canvas, " abcd")
        XCTAssertEqual(canvas.style(at: Point(x: 2, y: 0)), bold)
        XCTAssertEqual(canvas.style(at: Point(x: 3, y: 0)), .plain)
    }

    func testFillAndRestyle() {
        var canvas = Canvas(width: 5, height: 3)
        canvas.write("漢字x", at: Point(x: 0, y: 1))
        canvas.fill(Rect(x: 1, y: 1, width: 2, height: 5), with: "#", style: Style(reverse: true))
        assertLines(canvas, """

             ## x
             ##
            """)
        XCTAssertTrue(canvas.style(at: Point(x: 1, y: 2)).reverse)
        XCTAssertFalse(canvas.style(at: Point(x: 0, y: 2)).reverse)

        canvas.restyle(Rect(x: 0, y: 0, width: 5, height: 1)) { $0.underline = true }
        XCTAssertTrue(canvas.style(at: Point(x: 4, y: 0)).underline)
        XCTAssertFalse(canvas.style(at: Point(x: 4, y: 1)).underline)
    }

    func testDrawingOneCanvasIntoAnother() {
        var small = Canvas(width: 3, height: 1)
        small.write("a漢", at: .zero)
        var canvas = Canvas(width: 5, height: 2)
        canvas.draw(small, at: Point(x: 1, y: 1))
        canvas.draw(small, at: Point(x: 3, y: 0))  // 漢 would hang over the edge
        assertLines(canvas, """
               a
             a漢
            """)
    }

    func testRectLayout() {
        let area = Rect(x: 0, y: 0, width: 80, height: 24)
        let (top, rest) = area.splitRows(topHeight: 1)
        XCTAssertEqual(top, Rect(x: 0, y: 0, width: 80, height: 1))
        let (body, bars) = rest.splitRows(bottomHeight: 2)
        XCTAssertEqual(bars, Rect(x: 0, y: 22, width: 80, height: 2))
        XCTAssertEqual(body.height, 21)
        let (left, right) = body.splitColumns(leftWidth: 30)
        XCTAssertEqual(right, Rect(x: 30, y: 1, width: 50, height: 21))
        XCTAssertEqual(left.insetBy(dx: 1, dy: 1), Rect(x: 1, y: 2, width: 28, height: 19))
        XCTAssertEqual(area.centered(Size(width: 10, height: 4)), Rect(x: 35, y: 10, width: 10, height: 4))
        XCTAssertEqual(area.centered(Size(width: 100, height: 4)).width, 80)
        XCTAssertTrue(Rect(x: 5, y: 5, width: 2, height: 2).intersection(area.row(0)).isEmpty)
        XCTAssertEqual(Rect(x: 0, y: 0, width: -3, height: 2).width, 0)
    }
}
