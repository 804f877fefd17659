import Foundation
import XCTest

/// At 80×24 the help and the detail pane of a long document scroll by their keys, in the real
/// binary under tmux: what was below their end becomes visible.
final class ScrollingEndToEndTests: TmuxTestCase {
    private func start(extraFields: Int = 0) throws -> TmuxSession {
        let data = try temporaryDataCopy()
        dataFolder = data
        if extraFields > 0 {
            // A book of 3 + extraFields fields whose title sorts first, so it is selected.
            var fields: [String: Any] = ["author": "A", "numberOfPages": 1, "title": "A Book of Many Fields"]
            for index in 1...extraFields { fields[String(format: "extra%02d", index)] = "value \(index)" }
            try JSONSerialization.data(withJSONObject: fields).write(to: data.appendingPathComponent("books/many.json"))
        }
        let tmux = try TmuxSession(binary: try shelfBinary(), dataFolder: data, width: 80, height: 24)
        session = tmux
        tmux.waitFor(text: extraFields > 0 ? "48 documents" : "47 documents")
        return tmux
    }

    private func framed(_ tmux: TmuxSession) -> String { TmuxSession.framed(tmux.screen()) }

    func testTheHelpScrollsWithJKArrowsPageKeysAndSpace() throws {
        let tmux = try start()
        let top = "│ Browsing "
        let end = "Quit from anywhere"
        tmux.send(keys: "?")
        tmux.waitFor(text: "Esc or ? to close · ↓ more")
        XCTAssertTrue(tmux.screen().contains(top), framed(tmux))
        XCTAssertFalse(tmux.screen().contains(end), "the help is longer than 24 rows:\n\(framed(tmux))")

        // One row down and back up, by letter and by arrow.
        for (down, up) in [("j", "k"), ("Down", "Up")] {
            tmux.send(keys: down)
            tmux.waitForAbsence(of: top)
            XCTAssertTrue(tmux.screen().contains("│   ↑/k "), "\(down) scrolls one row:\n\(framed(tmux))")
            XCTAssertTrue(tmux.screen().contains("Esc or ? to close · ↑↓ more"), framed(tmux))
            tmux.send(keys: up)
            tmux.waitFor(text: top)
        }

        // A page down and back up.
        tmux.send(keys: "PgDn")
        tmux.waitForAbsence(of: top)
        XCTAssertTrue(tmux.screen().contains("Esc or ? to close · ↑↓ more"), framed(tmux))
        tmux.send(keys: "PgUp")
        tmux.waitFor(text: top)

        // Space pages down too, to the end (the help is a few pages long; past the end, it stays).
        tmux.send(keys: "Space")
        tmux.waitForAbsence(of: top)
        tmux.send(keys: Array(repeating: "Space", count: 8))
        tmux.waitFor(text: end)
        XCTAssertTrue(tmux.screen().contains("Esc or ? to close · ↑ more"), "the end of the help:\n\(framed(tmux))")

        // PgDn reaches it as well.
        tmux.send(keys: Array(repeating: "PgUp", count: 9))
        tmux.waitFor(text: top)
        tmux.send(keys: Array(repeating: "PgDn", count: 9))
        tmux.waitFor(text: end)

        tmux.send(keys: "Escape")
        tmux.waitForAbsence(of: "Esc or ? to close")
        tmux.waitFor(text: "┌ Books ")
    }

    func testJAndKScrollTheDetailOfADocumentOf41Fields() throws {
        let tmux = try start(extraFields: 38)
        tmux.waitFor(text: "┌ books/many ")
        XCTAssertTrue(TerminalSessionTests.detailPaneLines(tmux.screen()).first?.hasPrefix("Title") == true, framed(tmux))
        XCTAssertFalse(tmux.screen().contains("extra38"), "the last field is below the pane:\n\(framed(tmux))")
        XCTAssertTrue(tmux.screen().contains("J ↓ more"), framed(tmux))

        // J scrolls one row.
        tmux.send(keys: "J")
        tmux.waitForScreen("the detail starts at Author") { TerminalSessionTests.detailPaneLines($0).first?.hasPrefix("Author") == true }
        XCTAssertTrue(tmux.screen().contains("┌ books/many "), "J scrolls, it does not move the selection:\n\(framed(tmux))")

        // Enough J for the last field, which then shows, and no more below it.
        tmux.send(keys: Array(repeating: "J", count: 40))
        tmux.waitFor(text: "extra38: value 38")
        tmux.waitForScreen("the frame says nothing more is below") { !$0.contains("J ↓") && $0.contains("K ↑") }

        // K scrolls back to the top.
        tmux.send(keys: "K")
        tmux.waitFor(text: "J ↓ more")
        tmux.send(keys: Array(repeating: "K", count: 40))
        tmux.waitForScreen("the detail starts at the title again") {
            TerminalSessionTests.detailPaneLines($0).first?.hasPrefix("Title") == true
        }
        XCTAssertFalse(tmux.screen().contains("extra38"), framed(tmux))
        XCTAssertTrue(tmux.screen().contains("┌ books/many "), framed(tmux))
    }

    /// `G`, a frame, then `g j j` typed in one burst: the list shows its first rows, as it does
    /// when the same keys come one frame each.
    func testKeysTypedInOneBurstLeaveNoRowAboveTheView() throws {
        let tmux = try start()
        tmux.waitFor(text: " 1/47 ┘")
        let firstRow = tmux.lines()[3]
        tmux.send(keys: "G")
        tmux.waitFor(text: " 47/47 ┘")
        XCTAssertNotEqual(tmux.lines()[3], firstRow, framed(tmux))
        tmux.send(keys: "g", "j", "j")
        tmux.waitFor(text: " 3/47 ┘")
        XCTAssertEqual(String(tmux.lines()[3].prefix(38)), String(firstRow.prefix(38)), "the first book is in view:\n\(framed(tmux))")
    }
}
