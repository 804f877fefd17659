import TerminalKit
import XCTest

final class BarTests: XCTestCase {
    func testTabBarReversesTheSelectedTab() {
        let canvas = rendered(TabBar(titles: ["Books", "Colors"], selected: 1), width: 20, height: 1)
        assertLines(canvas, " Books   Colors")
        XCTAssertFalse(canvas.style(at: Point(x: 1, y: 0)).reverse)
        XCTAssertTrue(canvas.style(at: Point(x: 8, y: 0)).reverse)
        XCTAssertTrue(canvas.style(at: Point(x: 8, y: 0)).bold)
    }

    func testStatusBarPutsCountsRightAndCutsTheMessage() {
        let bar = StatusBar(left: "Saved colors/dZI8vLbiPai2nph7UAxv", right: "12 colours")
        let canvas = rendered(bar, width: 30, height: 1)
        assertLines(canvas, " Saved colors/dZI… 12 colours")
        XCTAssertTrue(canvas.style(at: Point(x: 29, y: 0)).reverse)  // the whole row
        assertLines(rendered(StatusBar(left: "Ready", right: "吾輩 3"), width: 20, height: 1),
                    " Ready       吾輩 3")
    }

    func testALongMessageShortensItsPathInTheMiddleSoTheReasonShows() {
        let message = "Not saved: cannot write a file in /tmp/shelf-try/a-rather-long/data-folder/books: Permission denied"
        let bar = StatusBar(left: message, right: "47 documents")
        let line = rendered(bar, width: 80, height: 1).lines[0]
        XCTAssertEqual(line, " Not saved: cannot write a file in /tmp…r/books: Permission denied 47 documents ")
        XCTAssertEqual(line.displayWidth, 80)
        // When shortening its paths is not enough, the end is cut.
        XCTAssertEqual(StatusBar.fitted("Not saved: cannot write in colors/dZI8vLbiPai2nph7UAxv: Permission denied", toWidth: 30),
                       "Not saved: cannot write in co…")
        // Without a reason after a colon, the path is the message: the end is cut.
        XCTAssertEqual(StatusBar.fitted("Copied colors/dZI8vLbiPai2nph7UAxv to the clipboard", toWidth: 30), "Copied colors/dZI8vLbiPai2nph…")
        XCTAssertEqual(StatusBar.fitted("short", toWidth: 17), "short")
    }

    func testHintBarShowsHintsThatFitWhole() {
        let bindings = [
            KeyBinding(keys: [.character("q"), .ctrl("c")], action: "quit", description: "Quit Shelf", hint: "quit"),
            KeyBinding(.character("/"), action: "search", description: "Search", hint: "search"),
            KeyBinding(.character("x"), action: "secret", description: "Only in help"),
            KeyBinding(.character("?"), action: "help", description: "All keys", hint: "help"),
        ]
        let canvas = rendered(HintBar(bindings: bindings), width: 30, height: 1)
        assertLines(canvas, "q quit  / search  ? help")
        XCTAssertTrue(canvas.style(at: Point(x: 0, y: 0)).bold)
        XCTAssertFalse(canvas.style(at: Point(x: 2, y: 0)).bold)
        // Too narrow for "/ search": it is left out, "? help" still fits after "q quit".
        assertLines(rendered(HintBar(bindings: bindings), width: 15, height: 1), "q quit  ? help")
    }

    func testMinorHintsGiveWayLastFirstSoTheOthersStay() {
        let bindings = [
            KeyBinding(keys: [.character("/")], action: "filter", description: "Filter", hint: "filter"),
            KeyBinding(keys: [.character("E")], action: "editor", description: "Editor", hint: "editor", isMinorHint: true),
            KeyBinding(keys: [.character("v")], action: "json", description: "JSON", hint: "json", isMinorHint: true),
            KeyBinding(keys: [.character("q")], action: "quit", description: "Quit", hint: "quit"),
        ]
        assertLines(rendered(HintBar(bindings: bindings), width: 40, height: 1), "/ filter  E editor  v json  q quit")
        assertLines(rendered(HintBar(bindings: bindings), width: 30, height: 1), "/ filter  E editor  q quit")
        assertLines(rendered(HintBar(bindings: bindings), width: 20, height: 1), "/ filter  q quit")
    }
}
