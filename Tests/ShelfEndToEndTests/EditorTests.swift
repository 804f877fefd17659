import Foundation
import XCTest

/// `E` (and `e` on a file that cannot be read) hands the document's file to `$EDITOR`; the
/// screen comes back and the change arrives through the listener.
final class EditorTests: XCTestCase {
    private var session: TmuxSession?
    private var dataFolder: URL?

    override func tearDown() {
        session?.kill()
        session = nil
        if let dataFolder { removeTemporaryCopy(dataFolder) }
        super.tearDown()
    }

    /// An editor that replaces the file with a whole book titled `title`, and logs its argument.
    private func editorScript(title: String) throws -> URL {
        let script = try XCTUnwrap(dataFolder).deletingLastPathComponent().appendingPathComponent("editor.sh")
        let body = """
            #!/bin/sh
            echo "$1" >> "$(dirname "$0")/editor.log"
            printf '{"author": "Ed", "numberOfPages": 3, "title": "\(title)"}\\n' > "$1"
            """
        try body.write(to: script, atomically: true, encoding: .utf8)
        chmod(script.path, 0o755)
        return script
    }

    func testEOnABrokenFileOpensTheEditorAndTheFixShows() throws {
        dataFolder = try temporaryDataCopy()
        try Data(#"{"title": "Half"#.utf8).write(to: dataFolder!.appendingPathComponent("books/aaa-broken.json"))
        let editor = try editorScript(title: "Mended In The Editor")
        let tmux = try TmuxSession(binary: try shelfBinary(), dataFolder: dataFolder!, environment: ["EDITOR": editor.path, "VISUAL": ""])
        session = tmux
        tmux.waitFor(text: "48 documents")
        tmux.send(keys: "o")
        tmux.type("aaa-broken")
        tmux.send(keys: "Enter")
        tmux.waitForScreen("the lookup says books/aaa-broken cannot be read") {
            TerminalSessionTests.detailText($0).contains("books/aaa-broken cannot be read")
        }
        tmux.send(keys: "Escape")
        tmux.waitFor(text: "┌ books/aaa-broken ")
        tmux.send(keys: "e")
        tmux.waitFor(text: "Back from the editor")
        tmux.waitFor(text: "Mended In The Editor")
        XCTAssertFalse(tmux.screen().contains("cannot be read"), TmuxSession.framed(tmux.screen()))
        let log = try String(contentsOf: dataFolder!.deletingLastPathComponent().appendingPathComponent("editor.log"), encoding: .utf8)
        XCTAssertEqual(log, dataFolder!.appendingPathComponent("books/aaa-broken.json").path + "\n")
        XCTAssertEqual(tmux.paneFormat("#{alternate_on}"), "1", "the app's screen is back")
        XCTAssertEqual(tmux.paneFormat("#{mouse_sgr_flag}"), "1", "the mouse is reported again")
    }

    func testCapitalEOpensAnyDocumentAndAMissingEditorIsSaid() throws {
        dataFolder = try temporaryDataCopy()
        let editor = try editorScript(title: "Retitled By Editor")
        let tmux = try TmuxSession(binary: try shelfBinary(), dataFolder: dataFolder!, environment: ["VISUAL": editor.path])
        session = tmux
        tmux.waitFor(text: "47 documents")
        tmux.send(keys: "E")
        tmux.waitFor(text: "Retitled By Editor")
        tmux.kill()

        let missing = try TmuxSession(binary: try shelfBinary(), dataFolder: dataFolder!, environment: ["VISUAL": "/no/such/editor"])
        session = missing
        missing.waitFor(text: "47 documents")
        missing.send(keys: "E")
        missing.waitFor(text: "was not found: set VISUAL or EDITOR")
    }
}
