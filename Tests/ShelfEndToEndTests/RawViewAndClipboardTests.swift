import Foundation
import XCTest

/// `v` shows the selected document's file as stored; `Y` copies it to the terminal's clipboard
/// by OSC 52, which tmux (with `set-clipboard on`) keeps as a paste buffer.
final class RawViewAndClipboardTests: XCTestCase {
    private var session: TmuxSession?
    private var dataFolder: URL?

    override func tearDown() {
        session?.kill()
        session = nil
        if let dataFolder { removeTemporaryCopy(dataFolder) }
        super.tearDown()
    }

    private func start() throws -> TmuxSession {
        let data = try temporaryDataCopy()
        dataFolder = data
        let tmux = try TmuxSession(binary: try shelfBinary(), dataFolder: data)
        session = tmux
        tmux.waitFor(text: "47 documents")
        return tmux
    }

    func testVShowsTheStoredJSONScrollsAndEscCloses() throws {
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
        tmux.send(keys: "Escape")
        tmux.waitForAbsence(of: ".json ")
        tmux.waitFor(text: "┌ books/a-game-of-thrones ")
        // j moves the list again, not the closed view.
        tmux.send(keys: "j")
        tmux.waitFor(text: "┌ books/a-wizard-of-earthsea ")
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
}
