import TerminalKit
import XCTest

final class FormWidgetTests: XCTestCase {
    func makeForm() -> FormWidget {
        FormWidget(fields: [
            FormField(label: "Name", text: "Sky"),
            FormField(label: "Hex", text: "#87ceeb"),
        ])
    }

    func testLabelsFieldsAndTheFocusedMarker() {
        let canvas = rendered(makeForm(), width: 20, height: 3)
        assertLines(canvas, """
            › Name Sky
              Hex  #87ceeb
            """)
        XCTAssertTrue(canvas.style(at: Point(x: 2, y: 0)).bold)       // focused label
        XCTAssertFalse(canvas.style(at: Point(x: 2, y: 1)).bold)
        XCTAssertTrue(canvas.style(at: Point(x: 19, y: 0)).reverse)   // focused field, to the edge
        XCTAssertTrue(canvas.style(at: Point(x: 19, y: 1)).underline) // other field
        XCTAssertEqual(makeForm().cursorPosition(in: Rect(x: 0, y: 0, width: 20, height: 3)), Point(x: 10, y: 0))
    }

    /// The whole message, wrapped under the field: what is accepted is never cut off.
    func testValidationMessageUnderItsField() {
        var form = makeForm()
        form.fields[1].message = "expected #RGB or #RRGGBB"
        form.focus = 1
        let canvas = rendered(form, width: 24, height: 4)
        assertLines(canvas, """
              Name Sky
            › Hex  #87ceeb
                   ! expected #RGB
                   or #RRGGBB
            """)
        XCTAssertTrue(canvas.style(at: Point(x: 7, y: 2)).bold)
        XCTAssertEqual(form.cursorPosition(in: Rect(x: 0, y: 0, width: 24, height: 4)), Point(x: 14, y: 1))
    }

    func testKeysMoveFocusAndEditTheFocusedField() {
        var form = makeForm()
        XCTAssertTrue(form.handle(.tab))
        XCTAssertEqual(form.focus, 1)
        form.handle(.backspace)
        form.handle(.character("c"))
        form.handle(.tab)           // wraps around
        XCTAssertEqual(form.focus, 0)
        form.handle(.character("!"))
        form.handle(.backTab)
        XCTAssertEqual(form.focus, 1)
        form.handle(.up)
        XCTAssertEqual(form.focus, 0)
        XCTAssertEqual(form.values, ["Sky!", "#87ceec"])
        XCTAssertFalse(form.handle(.enter))
        XCTAssertFalse(form.handle(.escape))
    }

    func testScrollsToTheFocusedFieldInAShortArea() {
        var form = FormWidget(fields: (1...5).map { FormField(label: "F\($0)", text: "v\($0)") })
        form.focus = 4
        assertLines(rendered(form, width: 12, height: 2), """
              F4 v4
            › F5 v5
            """)
        XCTAssertEqual(form.cursorPosition(in: Rect(x: 0, y: 0, width: 12, height: 2)), Point(x: 7, y: 1))
    }

    func testAnEmojiInAFieldKeepsTheLayout() {
        let form = FormWidget(fields: [FormField(label: "Tag", text: "🍵 tea"), FormField(label: "N", text: "x")])
        assertLines(rendered(form, width: 14, height: 2), """
            › Tag 🍵 tea
              N   x
            """)
        XCTAssertEqual(form.cursorPosition(in: Rect(x: 0, y: 0, width: 14, height: 2)), Point(x: 12, y: 0))
    }

    /// A field not being edited shows the start of its value, cut with "…"; the one being
    /// edited follows its cursor and marks the hidden start with "…".
    func testFieldsNotBeingEditedShowTheStartOfTheirValueCutWithAnEllipsis() {
        let form = FormWidget(fields: [FormField(label: "Author", text: "George R. R. Martin"),
                                       FormField(label: "Title", text: "A Game of Thrones")])
        assertLines(rendered(form, width: 20, height: 2), """
            › Author …R. Martin
              Title  A Game of …
            """)
        XCTAssertEqual(form.cursorPosition(in: Rect(x: 0, y: 0, width: 20, height: 2)), Point(x: 19, y: 0))
    }

    /// A picker too narrow for its value keeps its arrows and cuts the value with "…".
    func testANarrowPickerKeepsItsArrows() {
        let form = FormWidget(fields: [FormField(label: "N", text: "x"),
                                       FormField(label: "Kind", text: "Hardcover", choices: ["Hardcover", "Paperback"])])
        assertLines(rendered(form, width: 18, height: 2), """
            › N    x
              Kind ◂ Hardco… ▸
            """)
    }

    /// A message takes the rows it needs under its field, as many as the form has; one that
    /// cannot fit ends in "…".
    func testAValidationMessageUsesTheRowsAvailableAndEndsInAnEllipsisWhenCut() {
        var form = FormWidget(fields: [FormField(label: "Hex", text: "#12")])
        form.fields[0].message = "expected #RGB, #RGBA, #RRGGBB or #RRGGBBAA, found \"#12\""
        assertLines(rendered(form, width: 22, height: 6), """
            › Hex #12
                  ! expected #RGB,
                  #RGBA, #RRGGBB
                  or #RRGGBBAA,
                  found "#12"
            """)
        assertLines(rendered(form, width: 22, height: 3), """
            › Hex #12
                  ! expected #RGB,
                  #RGBA, #RRGGBB…
            """)
    }

    func testAPlaceholderTooLongForItsFieldEndsInAnEllipsis() {
        let form = FormWidget(fields: [FormField(label: "Hex", placeholder: "#RGB, #RGBA, #RRGGBB or #RRGGBBAA")])
        assertLines(rendered(form, width: 20, height: 1), """
            › Hex #RGB, #RGBA, …
            """)
    }

    /// However narrow, each part stays in its column: labels and values cut with "…", the
    /// message wrapped under the value.
    func testAVeryNarrowFormKeepsEachPartInItsColumn() {
        var form = FormWidget(fields: [FormField(label: "Title", text: "A Game of Thrones"),
                                       FormField(label: "Pages", text: "99999999999999999999")], focus: 1)
        form.fields[1].message = "too large"
        assertLines(rendered(form, width: 12, height: 4), """
              Tit… A Ga…
            › Pag… …999
                   ! too
                   large
            """)
        XCTAssertEqual(form.cursorPosition(in: Rect(x: 0, y: 0, width: 12, height: 4)), Point(x: 11, y: 1))
    }
}
