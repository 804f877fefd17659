import TerminalKit
import TerminalUI
import XCTest

final class OverlayTests: XCTestCase {
    let screenBindings = [
        KeyBinding(keys: [.character("j"), .down], action: "next", description: "Next colour", hint: "next"),
        KeyBinding(.character("d"), action: "delete", description: "Delete colour"),
    ]
    let globalBindings = [
        KeyBinding(.character("?"), action: "help", description: "Help", hint: "help"),
        KeyBinding(keys: [.character("q"), .ctrl("c")], action: "quit", description: "Quit", hint: "quit"),
    ]

    func testHelpOverlayListsEveryBindingInACentredBox() {
        let help = HelpOverlay(sections: [HelpSection(title: "Colors", bindings: screenBindings),
                                          HelpSection(title: "Global", bindings: globalBindings)])
        var canvas = Canvas(width: 35, height: 11)
        canvas.fill(canvas.bounds, with: ".")
        help.render(into: &canvas, area: canvas.bounds)
        assertLines(canvas, """
            ...................................
            ...┌ Keys ─────────────────────┐...
            ...│ Colors                    │...
            ...│   j/↓       Next colour   │...
            ...│   d         Delete colour │...
            ...│                           │...
            ...│ Global                    │...
            ...│   ?         Help          │...
            ...│   q/Ctrl-C  Quit          │...
            ...└──────────────── Esc close ┘...
            ...................................
            """)
        XCTAssertTrue(canvas.style(at: Point(x: 5, y: 2)).bold)       // section title
        XCTAssertTrue(canvas.style(at: Point(x: 7, y: 3)).bold)       // keys
        XCTAssertFalse(canvas.style(at: Point(x: 17, y: 3)).bold)     // description
        XCTAssertTrue(canvas.style(at: Point(x: 5, y: 1)).reverse)    // title, readable without colour
    }

    func testHelpOverlayScrollsWhatDoesNotFitAndSaysSo() {
        let help = HelpOverlay(sections: [HelpSection(title: "Colors", bindings: screenBindings + globalBindings)])
        assertLines(rendered(help, width: 20, height: 5), """
            ┌ Keys ────────────┐
            │ Colors           │
            │   j/↓       Nex… │
            │   d         Del… │
            └ Esc close · ↓ m… ┘
            """)
    }

    func testConfirmDialogAsksInACentredBox() {
        let dialog = ConfirmDialog(question: "Delete colors/abc?")
        var canvas = Canvas(width: 30, height: 7)
        canvas.fill(canvas.bounds, with: ".")
        dialog.render(into: &canvas, area: canvas.bounds)
        assertLines(canvas, """
            ..............................
            ....┌ Confirm ───────────┐....
            ....│ Delete colors/abc? │....
            ....│                    │....
            ....│    y Yes   n No    │....
            ....└────────────────────┘....
            ..............................
            """)
        XCTAssertTrue(canvas.style(at: Point(x: 9, y: 4)).reverse)   // "y"
        XCTAssertTrue(canvas.style(at: Point(x: 17, y: 4)).reverse)  // "n"
        XCTAssertFalse(canvas.style(at: Point(x: 11, y: 4)).reverse)
    }

    func testConfirmDialogWrapsALongQuestion() {
        let dialog = ConfirmDialog(question: "Delete 吾輩は猫である from books for good?")
        assertLines(rendered(dialog, width: 24, height: 7), """
            ┌ Confirm ─────────────┐
            │ Delete               │
            │ 吾輩は猫である from  │
            │ books for good?      │
            │                      │
            │     y Yes   n No     │
            └──────────────────────┘
            """)
    }

    func testTooSmallNamesBothSizes() {
        let message = TooSmall(actual: Size(width: 50, height: 3))
        XCTAssertEqual(message.message, "Terminal too small: need at least 60×16, have 50×3")
        assertLines(rendered(message, width: 60, height: 3), """

                 Terminal too small: need at least 60×16, have 50×3
            """)
        assertLines(rendered(TooSmall(actual: Size(width: 40, height: 5)), width: 40, height: 5), """

                      Terminal too small:
                 need at least 60×16, have 40×5
            """)
        XCTAssertTrue(TooSmall.applies(to: Size(width: 59, height: 40)))
        XCTAssertTrue(TooSmall.applies(to: Size(width: 100, height: 15)))
        XCTAssertFalse(TooSmall.applies(to: Size(width: 60, height: 16)))
    }
}
