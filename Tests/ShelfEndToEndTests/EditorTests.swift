import Foundation
import XCTest

/// `E` (and `e` on a file that cannot be read) hands the document's file to `$EDITOR`; the
/// screen comes back and the change arrives through the listener.
final class EditorTests: TmuxTestCase {
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

    /// `E` with only `EDITOR` set (no `VISUAL` at all): that editor runs on the selected file.
    func testCapitalEUsesEDITORWhenVISUALIsUnset() throws {
        dataFolder = try temporaryDataCopy()
        let editor = try editorScript(title: "Written Through EDITOR")
        let tmux = try TmuxSession(binary: try shelfBinary(), dataFolder: dataFolder!, environment: ["EDITOR": editor.path])
        session = tmux
        tmux.waitFor(text: "47 documents")
        tmux.waitFor(text: "┌ books/a-game-of-thrones ")
        tmux.send(keys: "E")
        tmux.waitFor(text: "Back from the editor")
        tmux.waitForScreen("the detail shows the title the editor wrote") {
            TerminalSessionTests.detailText($0).contains("Title Written Through EDITOR")
        }
        let file = dataFolder!.appendingPathComponent("books/a-game-of-thrones.json")
        let log = try String(contentsOf: dataFolder!.deletingLastPathComponent().appendingPathComponent("editor.log"), encoding: .utf8)
        XCTAssertEqual(log, file.path + "\n", "EDITOR ran once, on the selected document's file")
        XCTAssertEqual(try TerminalSessionTests.jsonObject(at: file)["title"] as? String, "Written Through EDITOR")
        XCTAssertEqual(tmux.paneFormat("#{alternate_on}"), "1", "the app's screen is back")
    }

    /// An editor that leaves invalid JSON: the document shows as a `!` row with its reason, the
    /// app goes on, and `e` on the broken row runs the editor again, whose fix makes it readable.
    func testAnEditorLeavingInvalidJSONShowsTheDocumentBrokenUntilEFixesIt() throws {
        dataFolder = try temporaryDataCopy()
        // Run 1 writes half a document; run 2 a whole one.
        let script = dataFolder!.deletingLastPathComponent().appendingPathComponent("editor.sh")
        try """
            #!/bin/sh
            echo "$1" >> "$(dirname "$0")/editor.log"
            if [ "$(wc -l < "$(dirname "$0")/editor.log")" -eq 1 ]; then
              printf '{"author": "Ed", "title": "Half' > "$1"
            else
              printf '{"author": "Ed", "numberOfPages": 5, "title": "Whole Again"}\\n' > "$1"
            fi
            """.write(to: script, atomically: true, encoding: .utf8)
        chmod(script.path, 0o755)
        let tmux = try TmuxSession(binary: try shelfBinary(), dataFolder: dataFolder!, environment: ["EDITOR": script.path])
        session = tmux
        tmux.waitFor(text: "47 documents · 1 not decoding")
        tmux.waitFor(text: "┌ books/a-game-of-thrones ")

        tmux.send(keys: "E")
        tmux.waitFor(text: "Back from the editor")
        tmux.waitFor(text: "47 documents · 2 not decoding")
        tmux.waitForScreen("a-game-of-thrones is a ! row that gives its reason") { screen in
            TerminalSessionTests.listPane(screen).contains { $0.hasPrefix("!") && $0.contains("a-game-of-thrones") && $0.contains("not valid JSON") }
        }
        XCTAssertTrue(TerminalSessionTests.detailText(tmux.screen()).contains("not valid JSON"), TmuxSession.framed(tmux.screen()))
        XCTAssertEqual(try String(contentsOf: dataFolder!.appendingPathComponent("books/a-game-of-thrones.json"), encoding: .utf8),
                       #"{"author": "Ed", "title": "Half"#, "Shelf leaves the broken file as the editor left it")

        // The app carries on: the selection stays on the broken row, now among the last, and moves.
        XCTAssertTrue(tmux.screen().contains("┌ books/a-game-of-thrones "), TmuxSession.framed(tmux.screen()))
        tmux.send(keys: "k")
        tmux.waitForAbsence(of: "┌ books/a-game-of-thrones ")
        tmux.send(keys: "j")
        tmux.waitFor(text: "┌ books/a-game-of-thrones ")

        // e on the broken document opens the editor, which mends it.
        tmux.send(keys: "e")
        tmux.waitForScreen("the document reads again, with the editor's title") { screen in
            TerminalSessionTests.listShows(screen, "Whole Again", "Ed", "5") && screen.contains("47 documents · 1 not decoding")
        }
        XCTAssertFalse(TerminalSessionTests.listPane(tmux.screen()).contains { $0.hasPrefix("!") && $0.contains("a-game-of-thrones") },
                       TmuxSession.framed(tmux.screen()))
        let log = try String(contentsOf: dataFolder!.deletingLastPathComponent().appendingPathComponent("editor.log"), encoding: .utf8)
        XCTAssertEqual(log.split(separator: "\n").count, 2, "the editor ran twice: \(log)")
    }

    /// Neither `VISUAL` nor `EDITOR` set: `vi` from the PATH runs (here a fake one that logs
    /// what it saw and edits the file).
    func testWithoutVISUALOrEDITORViRuns() throws {
        dataFolder = try temporaryDataCopy()
        let scratch = dataFolder!.deletingLastPathComponent()
        let bin = scratch.appendingPathComponent("bin", isDirectory: true)
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let vi = bin.appendingPathComponent("vi")
        try """
            #!/bin/sh
            echo "VISUAL=${VISUAL-unset} EDITOR=${EDITOR-unset} $1" >> "\(scratch.path)/vi.log"
            printf '{"author": "Vi", "numberOfPages": 7, "title": "Edited In Vi"}\\n' > "$1"
            """.write(to: vi, atomically: true, encoding: .utf8)
        chmod(vi.path, 0o755)
        let path = bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let tmux = try TmuxSession(binary: try shelfBinary(), dataFolder: dataFolder!, environment: ["PATH": path])
        session = tmux
        tmux.waitFor(text: "47 documents")
        tmux.waitFor(text: "┌ books/a-game-of-thrones ")
        tmux.send(keys: "E")
        tmux.waitFor(text: "Back from the editor")
        tmux.waitForScreen("the detail shows the title vi wrote") {
            TerminalSessionTests.detailText($0).contains("Title Edited In Vi")
        }
        let log = try String(contentsOf: scratch.appendingPathComponent("vi.log"), encoding: .utf8)
        let file = dataFolder!.appendingPathComponent("books/a-game-of-thrones.json")
        XCTAssertEqual(log, "VISUAL=unset EDITOR=unset \(file.path)\n", "the fake vi ran, with neither variable set")
    }
}
