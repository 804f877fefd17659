import TerminalKit
import TerminalUI
import XCTest

final class KeyBindingTests: XCTestCase {
    func testTheFirstMatchingBindingWinsSoScreensCanOverrideGlobals() {
        let screen = [KeyBinding(.character("d"), action: "delete", description: "Delete")]
        let global = [
            KeyBinding(.character("d"), action: "debug", description: "Debug"),
            KeyBinding(keys: [.character("q"), .ctrl("c")], action: "quit", description: "Quit"),
        ]
        let table = screen + global
        XCTAssertEqual(table.action(for: .character("d")), "delete")
        XCTAssertEqual(table.action(for: .ctrl("c")), "quit")
        XCTAssertNil(table.action(for: .character("z")))
        XCTAssertEqual(table.binding(for: .character("q"))?.description, "Quit")
    }

    func testKeyLabels() {
        let binding = KeyBinding(keys: [.character("j"), .down], action: "next", description: "Next")
        XCTAssertEqual(binding.keyLabel, "j/↓")
        XCTAssertEqual(Key.ctrl("c").label, "Ctrl-C")
        XCTAssertEqual(Key.character(" ").label, "Space")
        XCTAssertEqual(Key.backTab.label, "Shift-Tab")
        XCTAssertEqual(Key.pageDown.label, "PgDn")
        XCTAssertEqual(Key.escape.label, "Esc")
    }

    func testADisabledKeyLeavesTheHintLineButKeepsItsBindingAndItsReason() {
        enum Action { case delete, quit }
        let table = [KeyBinding(.character("d"), action: Action.delete, description: "Delete", hint: "delete"),
                     KeyBinding(.character("q"), action: Action.quit, description: "Quit", hint: "quit")]
            .disabling { $0 == .delete ? "read-only" : nil }
        XCTAssertEqual(table.binding(for: .character("d"))?.disabledReason, "read-only", "still found, so pressing it can say why")
        XCTAssertNil(table.binding(for: .character("q"))?.disabledReason)
        assertLines(rendered(HintBar(bindings: table), width: 30, height: 1), "q quit")
    }
}
