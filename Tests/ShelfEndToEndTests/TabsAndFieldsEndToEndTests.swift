import Foundation
import XCTest

/// Tabs for folders made while Shelf runs, `o`'s Tab completion, the status picker, and
/// adding and editing documents of folders without a model in their form.
final class TabsAndFieldsEndToEndTests: TmuxTestCase {
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

    /// A document's collection (`books/hitchhiker/reviews/r1.json`): the detail names it, `c`
    /// opens it as the last tab (the others keep their numbers), and its document is edited there.
    func testCOpensTheSelectedDocumentsCollectionAsATab() throws {
        dataFolder = try temporaryDataCopy()
        let reviews = dataFolder!.appendingPathComponent("books/hitchhiker/reviews")
        try FileManager.default.createDirectory(at: reviews, withIntermediateDirectories: true)
        try Data(#"{"stars": 5, "title": "Mostly harmless"}"#.utf8).write(to: reviews.appendingPathComponent("r1.json"))
        let tmux = try TmuxSession(binary: try shelfBinary(), dataFolder: dataFolder!)
        session = tmux
        tmux.waitFor(text: "47 documents")
        tmux.send(keys: "o")
        tmux.type("hitchhiker")
        tmux.send(keys: "Enter")
        tmux.send(keys: "Escape")
        tmux.send(keys: "/")
        tmux.type("ultimate")
        tmux.send(keys: "Enter")
        tmux.waitFor(text: "┌ books/hitchhiker ")
        tmux.waitFor(text: "reviews (c opens it)")
        tmux.send(keys: "c")
        tmux.waitFor(text: "Opened books/hitchhiker/reviews")
        tmux.waitFor(text: "6 books/hitchhiker/reviews")
        tmux.waitFor(text: "Mostly harmless")
        XCTAssertTrue(tmux.screen().contains("2 Colors"), TmuxSession.framed(tmux.screen()))
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

    /// A folder without a model: `e` opens a form of the document's fields as typed JSON, and
    /// `a` the same form empty; what is saved is on disk with every other value as it was.
    func testAAndEInAFolderWithoutAModelUseTheForm() throws {
        dataFolder = try temporaryDataCopy()
        let notes = dataFolder!.appendingPathComponent("notes")
        try FileManager.default.createDirectory(at: notes, withIntermediateDirectories: true)
        let before = """
            {
              "kept": [
                1,
                {
                  "deep": true
                }
              ],
              "title": "Before",
              "when": {
                "$timestamp": "2024-05-06T07:08:09.123456Z"
              }
            }

            """
        try Data(before.utf8).write(to: notes.appendingPathComponent("m.json"))
        // An editor that fails the test if it is ever run.
        let tmux = try TmuxSession(binary: try shelfBinary(), dataFolder: dataFolder!, width: 140,
                                   environment: ["EDITOR": "/bin/false", "VISUAL": ""])
        session = tmux
        tmux.waitFor(text: "47 documents")
        tmux.send(keys: "6")
        tmux.waitFor(text: "Before")
        tmux.send(keys: "e")
        tmux.waitFor(text: "Edit notes/m")
        tmux.waitFor(text: #"{"$timestamp": "2024-05-06T07:08:09.123456Z"}"#)
        tmux.send(keys: "Tab")  // from kept to title
        tmux.send(keys: "C-u")
        tmux.type(#""After"#)
        tmux.waitFor(text: "! expected one JSON value")  // the string is not closed yet
        tmux.type("\"")
        tmux.waitForAbsence(of: "! expected one JSON value")
        tmux.send(keys: "Tab", "Tab")  // past when, to the new field
        tmux.type("pages: 412")
        tmux.send(keys: "Enter")
        tmux.waitFor(text: "Saved notes/m")
        let edited = try String(contentsOf: notes.appendingPathComponent("m.json"), encoding: .utf8)
        XCTAssertEqual(edited, before.replacingOccurrences(of: "Before", with: "After")
            .replacingOccurrences(of: #"  "title""#, with: "  \"pages\": 412,\n  \"title\""))
        tmux.waitFor(text: "pages: 412")

        tmux.send(keys: "a")
        tmux.waitFor(text: "New document in notes")
        tmux.type(#"title: "Added in the form""#)
        tmux.send(keys: "Enter")
        tmux.waitFor(text: "Added notes/")
        tmux.waitFor(text: "2 documents")
        let names = try FileManager.default.contentsOfDirectory(atPath: notes.path).filter { $0.hasSuffix(".json") }
        XCTAssertEqual(names.count, 2)
        let added = try String(contentsOf: notes.appendingPathComponent(names.first { $0 != "m.json" }!), encoding: .utf8)
        XCTAssertEqual(added, "{\n  \"title\": \"Added in the form\"\n}\n")
        XCTAssertFalse(tmux.screen().contains("Editor:"), TmuxSession.framed(tmux.screen()))
    }
}
