import Foundation
import XCTest

/// `v` shows the selected document's file as stored; `Y` copies it to the terminal's clipboard
/// by OSC 52, which tmux (with `set-clipboard on`) keeps as a paste buffer.
final class RawViewAndClipboardTests: TmuxTestCase {
    private func start() throws -> TmuxSession {
        let data = try temporaryDataCopy()
        dataFolder = data
        let tmux = try TmuxSession(binary: try shelfBinary(), dataFolder: data)
        session = tmux
        tmux.waitFor(text: "47 documents")
        return tmux
    }

    func testVShowsTheStoredJSONAndEscCloses() throws {
        let tmux = try start()
        tmux.send(keys: "v")
        tmux.waitFor(text: "┌ books/a-game-of-thrones.json ")
        let lines = TerminalSessionTests.detailPaneLines(tmux.screen())
        XCTAssertEqual(Array(lines.prefix(8)), [
            "{", "\"author\": \"George R. R. Martin\",", "\"genres\": [", "\"Fantasy\"", "],",
            "\"numberOfPages\": 694,", "\"title\": \"A Game of Thrones\"", "}",
        ], TmuxSession.framed(tmux.screen()))
        XCTAssertTrue(tmux.screen().contains("│    \"author\""), "the file's indentation is kept:\n\(TmuxSession.framed(tmux.screen()))")
        XCTAssertTrue(tmux.screen().contains("v or Esc closes"), TmuxSession.framed(tmux.screen()))
        XCTAssertFalse(tmux.screen().contains("more ┘"), "a short file does not scroll:\n\(TmuxSession.framed(tmux.screen()))")
        tmux.send(keys: "Escape")
        tmux.waitForAbsence(of: ".json ")
        tmux.waitFor(text: "┌ books/a-game-of-thrones ")
        // j moves the list again, not the closed view.
        tmux.send(keys: "j")
        tmux.waitFor(text: "┌ books/a-wizard-of-earthsea ")
    }

    /// The JSON of a document longer than the pane scrolls by the view's keys, and `v` closes it.
    func testVScrollsTheStoredJSONOfALongDocumentAndVCloses() throws {
        let tmux = try start()
        // 41 fields, one a line: 43 lines, more than the pane's rows.
        var lines = ["  \"author\": \"A\"", "  \"numberOfPages\": 1", "  \"title\": \"Zz Many Fields\""]
        lines += (1...38).map { String(format: "  \"extra%02d\": \"value %d\"", $0, $0) }
        let text = "{\n" + lines.joined(separator: ",\n") + "\n}\n"
        try Data(text.utf8).write(to: XCTUnwrap(dataFolder).appendingPathComponent("books/zz-many.json"))
        tmux.waitFor(text: "48 documents")
        tmux.send(keys: "/")
        tmux.type("Zz Many")
        tmux.send(keys: "Enter")
        tmux.waitFor(text: "┌ books/zz-many ")

        func first(_ screen: String) -> String? { TerminalSessionTests.detailPaneLines(screen).first }
        func showsEnd(_ screen: String) -> Bool {
            let rows = TerminalSessionTests.detailPaneLines(screen)
            return rows.contains("\"extra38\": \"value 38\"") && rows.contains("}")
        }
        tmux.send(keys: "v")
        tmux.waitFor(text: "┌ books/zz-many.json ")
        XCTAssertEqual(first(tmux.screen()), "{", TmuxSession.framed(tmux.screen()))
        XCTAssertFalse(showsEnd(tmux.screen()), "the end is below the pane:\n\(TmuxSession.framed(tmux.screen()))")
        XCTAssertTrue(tmux.screen().contains("v or Esc closes · ↓ more"), TmuxSession.framed(tmux.screen()))

        // A row at a time, by letter and by arrow.
        for (down, up) in [("j", "k"), ("Down", "Up")] {
            tmux.send(keys: down)
            tmux.waitForScreen("\(down) scrolls one row") { first($0) == "\"author\": \"A\"," }
            tmux.send(keys: up)
            tmux.waitForScreen("\(up) scrolls back") { first($0) == "{" }
        }
        // A page, by PgDn and by Space, reaches the end; PgUp, Home and g go back to the top.
        for (down, up) in [("PgDn", "PgUp"), ("Space", "Home"), ("End", "g"), ("G", "PgUp")] {
            tmux.send(keys: down)
            tmux.waitForScreen("\(down) shows the end of the file", where: showsEnd)
            XCTAssertNotEqual(first(tmux.screen()), "{", TmuxSession.framed(tmux.screen()))
            XCTAssertTrue(tmux.screen().contains("v or Esc closes · ↑ more"), TmuxSession.framed(tmux.screen()))
            tmux.send(keys: up)
            tmux.waitForScreen("\(up) shows the top again") { first($0) == "{" }
        }

        tmux.send(keys: "G")
        tmux.waitForScreen("G shows the end of the file", where: showsEnd)
        tmux.send(keys: "v")
        tmux.waitForAbsence(of: ".json ")
        tmux.waitForScreen("the detail of books/zz-many is back") { screen in
            screen.contains("┌ books/zz-many ") && first(screen)?.hasPrefix("Title ") == true && first(screen)?.hasSuffix(" Zz Many Fields") == true
        }
    }

    func testCapitalYCopiesTheFileThroughOSC52() throws {
        let tmux = try start()
        try tmux.setServerOption("set-clipboard", "on")
        tmux.send(keys: "j", "Y")
        tmux.waitFor(text: "Copied books/a-wizard-of-earthsea to the clipboard as JSON")
        let stored = try String(contentsOf: XCTUnwrap(dataFolder).appendingPathComponent("books/a-wizard-of-earthsea.json"), encoding: .utf8)
        tmux.waitUntil("tmux holds the copied text as a paste buffer") { tmux.pasteBuffer() == stored }
        XCTAssertEqual(tmux.pasteBuffer(), stored)
    }

    /// A 5 MB document is more than tmux takes by OSC 52 (it would drop the sequence without a
    /// word): nothing is sent, the clipboard stays as it was, and the status line says why.
    func testCapitalYOnADocumentTooLargeForTheClipboardSaysSoAndSendsNothing() throws {
        let data = try temporaryDataCopy()
        dataFolder = data
        // Past the store's 1 MiB, the book is unreadable and listed last; its file is still copied.
        let notes = String(repeating: "x", count: 5_242_880)
        let stored = Data(#"{"author": "George R. R. Martin", "notes": "\#(notes)", "numberOfPages": 694, "title": "A Game of Thrones"}"#.utf8)
        try stored.write(to: data.appendingPathComponent("books/a-game-of-thrones.json"))
        let tmux = try TmuxSession(binary: try shelfBinary(), dataFolder: data)
        session = tmux
        tmux.waitFor(text: "47 documents")
        try tmux.setServerOption("set-clipboard", "on")
        tmux.send(keys: "G")
        tmux.waitFor(text: "─ 47/47 ┘")
        tmux.send(keys: "Y")   // a-game-of-thrones, which has no title to sort by
        tmux.waitFor(text: "Not copied: \(stored.count.formatted()) bytes, over the 786,426 a terminal's")
        XCTAssertNil(tmux.pasteBuffer(), "nothing reached the clipboard")
    }
}
