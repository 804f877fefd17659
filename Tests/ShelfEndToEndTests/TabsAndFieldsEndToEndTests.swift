import Foundation
import XCTest

/// Tabs for folders made while Shelf runs, `o`'s Tab completion, the status picker, and
/// adding and editing documents of folders without a model.
final class TabsAndFieldsEndToEndTests: XCTestCase {
    private var session: TmuxSession?
    private var dataFolder: URL?

    override func tearDown() {
        session?.kill()
        session = nil
        if let dataFolder { removeTemporaryCopy(dataFolder) }
        super.tearDown()
    }

    /// A collection folder made by another program appears as a tab; one removed says it is gone.
    func testMkdirWhileRunningAddsATabAndRemovingItSaysGone() throws {
        dataFolder = try temporaryDataCopy()
        let tmux = try TmuxSession(binary: try shelfBinary(), dataFolder: dataFolder!)
        session = tmux
        tmux.waitFor(text: "47 documents")
        let notes = dataFolder!.appendingPathComponent("notes")
        try FileManager.default.createDirectory(at: notes, withIntermediateDirectories: true)
        try Data(#"{"title": "Made outside"}"#.utf8).write(to: notes.appendingPathComponent("x.json"))
        tmux.waitFor(text: "6 notes")
        tmux.send(keys: "6")
        tmux.waitFor(text: "Made outside")
        try FileManager.default.removeItem(at: notes)
        tmux.waitFor(text: "The 'notes' folder is gone: it was removed on disk")
        tmux.send(keys: "j", "e", "1")
        tmux.waitFor(text: "47 documents")
        XCTAssertFalse(tmux.screen().contains(TmuxSession.exitedMarker), TmuxSession.framed(tmux.screen()))
    }

    /// Tab in the `o` prompt completes the id, then lists the ids and cycles through them.
    func testTabCompletesTheIdInTheOpenPrompt() throws {
        dataFolder = try temporaryDataCopy()
        let tmux = try TmuxSession(binary: try shelfBinary(), dataFolder: dataFolder!)
        session = tmux
        tmux.waitFor(text: "47 documents")
        tmux.send(keys: "o")
        tmux.type("hitc")
        tmux.send(keys: "Tab")
        tmux.waitFor(text: "Open books/hitchhiker ")
        tmux.send(keys: "Tab")
        tmux.waitFor(text: "4 ids: hitchhiker  hitchhiker-genre  hitchhike…")
        tmux.send(keys: "Tab", "Tab")
        tmux.waitFor(text: "Open books/hitchhiker-genre ")
        tmux.send(keys: "Enter")
        tmux.waitForScreen("the lookup shows hitchhiker-genre") {
            TerminalSessionTests.detailText($0).contains("hitchhiker-genre")
        }
    }

    /// An article's status is chosen with → and Space, not typed; the form shows the choices.
    func testTheStatusIsPickedNotTyped() throws {
        dataFolder = try temporaryDataCopy()
        let tmux = try TmuxSession(binary: try shelfBinary(), dataFolder: dataFolder!)
        session = tmux
        tmux.waitFor(text: "47 documents")
        tmux.send(keys: "5")
        tmux.waitFor(text: "7 documents")
        tmux.send(keys: "a")
        tmux.waitFor(text: "◂ draft ▸")
        tmux.waitFor(text: "draft · in review · approved")
        tmux.type("Picked Not Typed")
        tmux.send(keys: "Tab", "Right", "Space")
        tmux.waitFor(text: "◂ approved ▸")
        tmux.send(keys: "Enter")
        tmux.waitFor(text: "8 documents")
        let files = try FileManager.default.contentsOfDirectory(at: dataFolder!.appendingPathComponent("articles"), includingPropertiesForKeys: nil)
        let texts = try files.map { try String(contentsOf: $0, encoding: .utf8) }
        XCTAssertEqual(texts.filter { $0.contains("Picked Not Typed") && $0.contains("approved") }.count, 1, texts.joined(separator: "\n"))
    }

    /// ← chooses the previous status (from the first, the last), → and Space the next; the
    /// value shown is the one saved.
    func testTheStatusPickerGoesBackWithLeft() throws {
        dataFolder = try temporaryDataCopy()
        let tmux = try TmuxSession(binary: try shelfBinary(), dataFolder: dataFolder!)
        session = tmux
        tmux.waitFor(text: "47 documents")
        tmux.send(keys: "5")
        tmux.waitFor(text: "7 documents")
        tmux.send(keys: "a")
        tmux.waitFor(text: "◂ draft ▸")
        tmux.type("Picked With Left")
        tmux.send(keys: "Tab")
        for (key, shown) in [("Left", "published"), ("Left", "approved"), ("Left", "in review"), ("Right", "approved"),
                             ("Space", "published"), ("Left", "approved"), ("Left", "in review")] {
            tmux.send(keys: key)
            tmux.waitFor(text: "◂ \(shown) ▸")
        }
        XCTAssertTrue(tmux.screen().contains("New article"), "the picker keys leave the form open:\n\(TmuxSession.framed(tmux.screen()))")
        tmux.send(keys: "Enter")
        tmux.waitFor(text: "8 documents")
        let articles = dataFolder!.appendingPathComponent("articles")
        let objects = try FileManager.default.contentsOfDirectory(at: articles, includingPropertiesForKeys: nil)
            .map { try TerminalSessionTests.jsonObject(at: $0) }
        let saved = try XCTUnwrap(objects.first { $0["title"] as? String == "Picked With Left" }, "\(objects)")
        XCTAssertEqual(saved["status"] as? String, "in review")
    }

    /// A folder without a model: `a` writes a new document in the editor (from `{}`), `e`
    /// edits the selected one there.
    func testAAndEInAFolderWithoutAModelUseTheEditor() throws {
        dataFolder = try temporaryDataCopy()
        let notes = dataFolder!.appendingPathComponent("notes")
        try FileManager.default.createDirectory(at: notes, withIntermediateDirectories: true)
        try Data(#"{"title": "Before"}"#.utf8).write(to: notes.appendingPathComponent("m.json"))
        // Writes {"title": "Editor run N", "kept": [1, {"deep": true}]} into the file it is given.
        let script = dataFolder!.deletingLastPathComponent().appendingPathComponent("editor.sh")
        try """
            #!/bin/sh
            echo "$1" >> "$(dirname "$0")/editor.log"
            n=$(wc -l < "$(dirname "$0")/editor.log")
            printf '{"title": "Editor run %s", "kept": [1, {"deep": true}]}\\n' $n > "$1"
            """.write(to: script, atomically: true, encoding: .utf8)
        chmod(script.path, 0o755)
        let tmux = try TmuxSession(binary: try shelfBinary(), dataFolder: dataFolder!, environment: ["EDITOR": script.path, "VISUAL": ""])
        session = tmux
        tmux.waitFor(text: "47 documents")
        tmux.send(keys: "6")
        tmux.waitFor(text: "Before")
        tmux.send(keys: "a")
        tmux.waitFor(text: "(u removes it)")
        tmux.waitFor(text: "Editor run 1")
        tmux.waitFor(text: "2 documents")
        tmux.send(keys: "e")
        tmux.waitFor(text: "Editor run 2")
        XCTAssertTrue(tmux.waitForAbsence(of: "Editor run 1"))
        let names = try FileManager.default.contentsOfDirectory(atPath: notes.path).filter { $0.hasSuffix(".json") }
        XCTAssertEqual(names.count, 2)
        let added = try String(contentsOf: notes.appendingPathComponent(names.first { $0 != "m.json" }!), encoding: .utf8)
        XCTAssertTrue(added.contains("Editor run 2") && added.contains("deep"), added)
    }
}
