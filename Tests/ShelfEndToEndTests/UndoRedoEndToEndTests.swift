import Foundation
import XCTest

/// `u` undoes deletes, edits made in a form and adds, newest first, and `Ctrl-R` redoes them,
/// in the real binary; the files go back to their bytes.
final class UndoRedoEndToEndTests: TmuxTestCase {
    func testUUndoesTwoDeletesAndCtrlRRedoesOne() throws {
        let data = try temporaryDataCopy()
        dataFolder = data
        let tmux = try TmuxSession(binary: try shelfBinary(), dataFolder: data)
        session = tmux
        let first = data.appendingPathComponent("books/a-game-of-thrones.json")
        let second = data.appendingPathComponent("books/a-wizard-of-earthsea.json")
        tmux.waitFor(text: "47 documents")
        tmux.send(keys: "d", "y")
        tmux.waitFor(text: "46 documents")
        tmux.send(keys: "d", "y")
        tmux.waitFor(text: "45 documents")
        XCTAssertFalse(FileManager.default.fileExists(atPath: first.path) || FileManager.default.fileExists(atPath: second.path))

        tmux.send(keys: "u")
        tmux.waitFor(text: "Restored books/a-wizard-of-earthsea")
        tmux.waitFor(text: "46 documents")
        tmux.send(keys: "u")
        tmux.waitFor(text: "Restored books/a-game-of-thrones")
        tmux.waitFor(text: "47 documents")
        XCTAssertTrue(FileManager.default.fileExists(atPath: first.path) && FileManager.default.fileExists(atPath: second.path))

        tmux.send(keys: "C-r")
        tmux.waitFor(text: "Redone: books/a-game-of-thrones deleted again")
        tmux.waitFor(text: "46 documents")
        XCTAssertFalse(FileManager.default.fileExists(atPath: first.path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: second.path))
    }

    private func start() throws -> (TmuxSession, URL) {
        let data = try temporaryDataCopy()
        dataFolder = data
        let tmux = try TmuxSession(binary: try shelfBinary(), dataFolder: data)
        session = tmux
        tmux.waitFor(text: "47 documents")
        return (tmux, data)
    }

    /// Edits the selected book's pages in its form (Title, Author, Pages) and saves.
    private func editPages(_ tmux: TmuxSession, of id: String, to pages: String, file: StaticString = #filePath, line: UInt = #line) {
        tmux.waitFor(text: "┌ books/\(id) ", file: file, line: line)
        tmux.send(keys: "e")
        tmux.waitFor(text: "Edit books/\(id)", file: file, line: line)
        tmux.send(keys: "Tab", "Tab")
        tmux.send(keys: Array(repeating: "BSpace", count: 8))
        tmux.type(pages)
        tmux.waitForScreen("the Pages field reads \(pages)", file: file, line: line) { screen in
            TerminalSessionTests.detailPaneLines(screen).contains { $0.contains("Pages") && $0.hasSuffix(" \(pages)") }
        }
        tmux.send(keys: "Enter")
        tmux.waitFor(text: "Saved books/\(id)", file: file, line: line)
    }

    private func contents(_ file: URL) -> Data? { FileManager.default.contents(atPath: file.path) }

    func testUUndoesAFormEditToTheFilesOldBytesAndCtrlRRedoesIt() throws {
        let (tmux, data) = try start()
        let file = data.appendingPathComponent("books/a-game-of-thrones.json")
        let original = try XCTUnwrap(contents(file))
        editPages(tmux, of: "a-game-of-thrones", to: "999")
        tmux.waitUntil("the file says 999 pages") { (try? TerminalSessionTests.jsonObject(at: file))?["numberOfPages"] as? Int == 999 }
        let edited = try XCTUnwrap(contents(file))
        XCTAssertNotEqual(edited, original)
        tmux.waitFor(text: "q quit")

        tmux.send(keys: "u")
        tmux.waitFor(text: "Restored books/a-game-of-thrones")
        tmux.waitUntil("the file has its old bytes") { self.contents(file) == original }
        tmux.waitForScreen("the detail shows 694 pages again") { TerminalSessionTests.detailText($0).contains("Pages 694") }

        tmux.send(keys: "C-r")
        tmux.waitFor(text: "Redone: books/a-game-of-thrones written again")
        tmux.waitUntil("the file has the edited bytes again") { self.contents(file) == edited }
        tmux.waitForScreen("the detail shows 999 pages again") { TerminalSessionTests.detailText($0).contains("Pages 999") }
    }

    func testUAfterAnAddRemovesTheDocumentAndCtrlRBringsItBack() throws {
        let (tmux, data) = try start()
        let colors = data.appendingPathComponent("colors")
        tmux.send(keys: "2")
        tmux.waitFor(text: "61 documents")
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: colors.path))
        tmux.send(keys: "a")
        tmux.waitFor(text: "New colour")
        tmux.type("Undo Me Orange")
        tmux.send(keys: "Tab")
        tmux.send(keys: Array(repeating: "BSpace", count: 12))
        tmux.type("#ff8000")
        tmux.waitFor(text: "#ff8000")
        tmux.send(keys: "Enter")
        tmux.waitFor(text: "62 documents")
        var added: [String] = []
        tmux.waitUntil("the added colour's file is there") {
            added = ((try? FileManager.default.contentsOfDirectory(atPath: colors.path)) ?? []).filter { !before.contains($0) }
            return added.count == 1
        }
        let name = try XCTUnwrap(added.first)
        let id = String(name.dropLast(".json".count))
        let file = colors.appendingPathComponent(name)
        let written = try XCTUnwrap(contents(file))

        tmux.send(keys: "u")
        tmux.waitFor(text: "Removed colors/\(id): the add is undone")
        tmux.waitFor(text: "61 documents")
        tmux.waitUntil("the added file is gone") { !FileManager.default.fileExists(atPath: file.path) }
        XCTAssertFalse(TerminalSessionTests.listShows(tmux.screen(), "Undo Me Orange"), TmuxSession.framed(tmux.screen()))

        tmux.send(keys: "C-r")
        tmux.waitFor(text: "Redone: colors/\(id) written again")
        tmux.waitFor(text: "62 documents")
        tmux.waitUntil("the colour's file is back, as it was") { self.contents(file) == written }
        tmux.waitForScreen("the colour is listed and selected again") {
            TerminalSessionTests.listShows($0, "Undo Me Orange", "#ff8000") && $0.contains("┌ colors/\(id) ")
        }
    }

    func testUAfterAnAddThatFollowedAnEditUndoesTheAddOnly() throws {
        let (tmux, data) = try start()
        let books = data.appendingPathComponent("books")
        let edited = books.appendingPathComponent("a-game-of-thrones.json")
        let original = try XCTUnwrap(contents(edited))
        editPages(tmux, of: "a-game-of-thrones", to: "999")
        tmux.waitUntil("the edit is written") { (try? TerminalSessionTests.jsonObject(at: edited))?["numberOfPages"] as? Int == 999 }
        let afterEdit = try XCTUnwrap(contents(edited))
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: books.path))

        tmux.send(keys: "a")
        tmux.waitFor(text: "New book")
        tmux.type("Added After The Edit")
        tmux.send(keys: "Tab")
        tmux.type("Someone")
        tmux.send(keys: "Tab")
        tmux.type("12")
        tmux.waitForScreen("the Pages field reads 12") { screen in
            TerminalSessionTests.detailPaneLines(screen).contains { $0.contains("Pages") && $0.hasSuffix(" 12") }
        }
        tmux.send(keys: "Enter")
        tmux.waitFor(text: "48 documents")
        var added: [String] = []
        tmux.waitUntil("the added book's file is there") {
            added = ((try? FileManager.default.contentsOfDirectory(atPath: books.path)) ?? []).filter { !before.contains($0) }
            return added.count == 1
        }
        let addedFile = books.appendingPathComponent(try XCTUnwrap(added.first))

        tmux.send(keys: "u")
        tmux.waitFor(text: "the add is undone")
        tmux.waitFor(text: "47 documents")
        tmux.waitUntil("the added book's file is gone") { !FileManager.default.fileExists(atPath: addedFile.path) }
        XCTAssertEqual(contents(edited), afterEdit, "undoing the add leaves the edit before it")

        // Again: now the edit.
        tmux.send(keys: "u")
        tmux.waitFor(text: "Restored books/a-game-of-thrones")
        tmux.waitUntil("the edited file has its old bytes") { self.contents(edited) == original }
        XCTAssertFalse(FileManager.default.fileExists(atPath: addedFile.path))
    }

    /// The issue's own steps: edit, another program rewrites the file, `u`. It asks; `y` puts
    /// back only what the edit set, so the other program's pages and field stay.
    func testUAfterAnotherProgramRewroteTheFileAsksAndKeepsWhatItWrote() throws {
        let (tmux, data) = try start()
        let file = data.appendingPathComponent("books/a-game-of-thrones.json")
        editPages(tmux, of: "a-game-of-thrones", to: "999")
        tmux.waitUntil("the edit is written") { (try? TerminalSessionTests.jsonObject(at: file))?["numberOfPages"] as? Int == 999 }
        var fields = try XCTUnwrap(TerminalSessionTests.jsonObject(at: file))
        fields["author"] = "Someone Else"
        fields["note"] = "written by hand"
        try JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys]).write(to: file)
        tmux.waitForScreen("the detail shows the other program's author") { TerminalSessionTests.detailText($0).contains("Someone Else") }

        tmux.send(keys: "u")
        tmux.waitFor(text: "Changed on disk")
        tmux.waitFor(text: "numberOfPages")
        XCTAssertEqual(try TerminalSessionTests.jsonObject(at: file)["author"] as? String, "Someone Else", "nothing written before the answer")
        tmux.send(keys: "y")
        tmux.waitFor(text: "Restored books/a-game-of-thrones")
        tmux.waitUntil("the pages are back") { (try? TerminalSessionTests.jsonObject(at: file))?["numberOfPages"] as? Int == 694 }
        let after = try TerminalSessionTests.jsonObject(at: file)
        XCTAssertEqual(after["author"] as? String, "Someone Else")
        XCTAssertEqual(after["note"] as? String, "written by hand")
    }
}
