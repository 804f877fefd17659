import TerminalKit
import XCTest

final class TextFieldTests: XCTestCase {
    func testStartsWithTheCursorAtTheEnd() {
        let field = TextField(text: "abc")
        XCTAssertEqual(field.cursor, 3)
        XCTAssertEqual(TextField(text: "abc", cursor: 1).cursor, 1)
        XCTAssertEqual(TextField(text: "abc", cursor: 10).cursor, 3)
    }

    func testEditingSequence() {
        var field = TextField()
        for key: Key in [.character("h"), .character("e"), .character("l"), .character("o")] {
            XCTAssertTrue(field.handle(key))
        }
        field.handle(.left)
        field.handle(.character("l"))
        XCTAssertEqual(field.text, "hello")
        XCTAssertEqual(field.cursor, 4)
        field.handle(.home)
        field.handle(.delete)
        field.handle(.character("H"))
        XCTAssertEqual(field.text, "Hello")
        field.handle(.end)
        field.handle(.backspace)
        field.handle(.backspace)
        XCTAssertEqual(field.text, "Hel")
        field.handle(.right)  // at the end already
        field.handle(.delete) // nothing after the cursor
        XCTAssertEqual(field.text, "Hel")
        XCTAssertEqual(field.cursor, 3)
        field.handle(.home)
        field.handle(.backspace) // nothing before the cursor
        field.handle(.left)
        XCTAssertEqual(field.text, "Hel")
        XCTAssertEqual(field.cursor, 0)
    }

    func testEmojiAndAccentsAreOneStepAndOneDelete() {
        var field = TextField(text: "a🍵e\u{301}👩‍💻")
        XCTAssertEqual(field.cursor, 4)
        field.backspace()
        XCTAssertEqual(field.text, "a🍵e\u{301}")
        field.moveLeft()
        field.backspace()
        XCTAssertEqual(field.text, "ae\u{301}")
        XCTAssertEqual(field.cursor, 1)
        field.insert("漢字")
        XCTAssertEqual(field.text, "a漢字é")
        XCTAssertEqual(field.cursor, 3)
    }

    func testACombiningMarkTypedAfterALetterJoinsIt() {
        var field = TextField(text: "e")
        field.insert("\u{301}")
        XCTAssertEqual(field.characters.count, 1)
        XCTAssertEqual(field.cursor, 1)
    }

    func testControlKeyEditing() {
        var field = TextField(text: "one two three")
        field.handle(.ctrl("w"))
        XCTAssertEqual(field.text, "one two ")
        field.handle(.ctrl("w"))
        XCTAssertEqual(field.text, "one ")
        field.handle(.ctrl("a"))
        field.handle(.right)
        field.handle(.ctrl("k"))
        XCTAssertEqual(field.text, "o")
        field.handle(.ctrl("e"))
        field.insert("x")
        field.handle(.left)
        field.handle(.ctrl("u"))
        XCTAssertEqual(field.text, "x")
        XCTAssertEqual(field.cursor, 0)
    }

    func testKeysAFieldDoesNotUseAreLeftToTheForm() {
        var field = TextField(text: "a")
        for key: Key in [.enter, .escape, .tab, .backTab, .up, .down, .resize, .ctrl("s")] {
            XCTAssertFalse(field.handle(key), "\(key)")
        }
        XCTAssertEqual(field.text, "a")
    }

    func testRendersWithTheCursorColumn() {
        let field = TextField(text: "Tea", cursor: 1, style: Style(underline: true))
        let area = Rect(x: 2, y: 1, width: 6, height: 1)
        var canvas = Canvas(width: 10, height: 3)
        field.render(into: &canvas, area: area)
        assertLines(canvas, """

              Tea
            """)
        XCTAssertTrue(canvas.style(at: Point(x: 7, y: 1)).underline)  // the field's extent
        XCTAssertFalse(canvas.style(at: Point(x: 8, y: 1)).underline)
        XCTAssertEqual(field.cursorPosition(in: area), Point(x: 3, y: 1))
    }

    /// Text hidden on either side is marked with "…", and the cursor never sits on a marker.
    func testScrollsSidewaysToKeepTheCursorVisibleAndMarksHiddenText() {
        var field = TextField(text: "abcdefghij")
        XCTAssertEqual(field.cursorColumn(width: 5), 4)
        assertLines(rendered(field, width: 5, height: 1), "…hij")
        field.moveToStart()
        XCTAssertEqual(field.cursorColumn(width: 5), 0)
        assertLines(rendered(field, width: 5, height: 1), "abcd…")
        for _ in 0..<5 { field.moveRight() }   // before "f"
        XCTAssertEqual(field.cursorColumn(width: 5), 3)
        assertLines(rendered(field, width: 5, height: 1), "…def…")
        field.moveLeft(); field.moveLeft()   // before "d": still from the start
        XCTAssertEqual(field.cursorColumn(width: 5), 3)
        assertLines(rendered(field, width: 5, height: 1), "abcd…")
        field.moveRight()   // before "e": its cell would be the marker's, so the text scrolls
        XCTAssertEqual(field.cursorColumn(width: 5), 3)
        assertLines(rendered(field, width: 5, height: 1), "…cde…")
    }

    func testAnEmojiInAFieldTakesTwoCellsAndKeepsTheCursorRight() {
        var field = TextField(text: "tea 🍵 cup")
        field.moveToStart()
        for _ in 0..<5 { field.moveRight() }   // after 🍵
        XCTAssertEqual(field.cursorColumn(width: 20), 6)
        assertLines(rendered(field, width: 12, height: 1), "tea 🍵 cup")

        // Narrow: the text scrolls, and the emoji is whole or gone, never half drawn.
        field.moveToEnd()
        XCTAssertEqual(field.cursorColumn(width: 6), 5)
        assertLines(rendered(field, width: 6, height: 1), "… cup")
        field.moveToStart()
        field.moveRight(); field.moveRight(); field.moveRight(); field.moveRight() // before 🍵
        assertLines(rendered(field, width: 7, height: 1), "tea 🍵…")
        // The emoji under the cursor is shown whole, so the text scrolls.
        assertLines(rendered(field, width: 6, height: 1), "…a 🍵…")
        assertLines(rendered(field, width: 5, height: 1), "… 🍵…")
        XCTAssertEqual(field.cursorColumn(width: 5), 2)
    }

    func testPlaceholderShowsDimmedWhenEmpty() {
        let canvas = rendered(TextField(placeholder: "#rrggbb"), width: 9, height: 1)
        assertLines(canvas, "#rrggbb")
        XCTAssertTrue(canvas.style(at: Point(x: 0, y: 0)).dim)
    }
}
