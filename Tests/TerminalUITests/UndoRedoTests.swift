import DocumentStore
import Foundation
import TerminalKit
@testable import TerminalUI
import XCTest

/// `u` undoes Shelf's changes one after another, newest first; `Ctrl-R` redoes what `u` undid;
/// a new change forgets what could be redone.
@MainActor
final class UndoRedoTests: FolderAppTestCase {

    override func setUp() async throws {
        try await super.setUp()
        let books = folder.appendingPathComponent("books")
        try FileManager.default.createDirectory(at: books, withIntermediateDirectories: true)
        for (id, title) in [("a", "Alpha"), ("b", "Beta"), ("c", "Gamma")] {
            try Data(#"{"author": "X", "numberOfPages": 1, "title": "\#(title)"}"#.utf8).write(to: books.appendingPathComponent("\(id).json"))
        }
    }

    private func exists(_ id: String) -> Bool {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent("books/\(id).json").path)
    }

    private func title(_ id: String) throws -> String? {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("books/\(id).json")))
        return (object as? [String: Any])?["title"] as? String
    }

    /// Waits (up to 5 s) for the listener to catch up.
    /// Takes in what the store holds now (`AppModel.deliver`), then asserts `condition`.
    private func listed(_ app: AppModel) -> Int { app.state.visibleRows(of: app.tab).count }

    private func delete(_ app: AppModel) {
        _ = app.apply(.key(.character("d")))
        _ = app.apply(.key(.character("y")))
    }

    func testUUndoesTwoDeletesNewestFirstAndCtrlRRedoesThem() async throws {
        let app = try await makeApp()
        delete(app)  // Alpha, the first by title
        try await deliver(app, { listed(app) == 2 })
        delete(app)  // then Beta
        try await deliver(app, { listed(app) == 1 })
        XCTAssertFalse(exists("a") || exists("b"))

        _ = app.apply(.key(.character("u")))
        XCTAssertEqual(app.notice, "Restored books/b")
        XCTAssertTrue(exists("b") && !exists("a"))
        _ = app.apply(.key(.character("u")))
        XCTAssertEqual(app.notice, "Restored books/a")
        XCTAssertTrue(exists("a"))
        _ = app.apply(.key(.character("u")))
        XCTAssertEqual(app.notice, "Nothing to undo")

        _ = app.apply(.key(.ctrl("r")))
        XCTAssertEqual(app.notice, "Redone: books/a deleted again")
        XCTAssertFalse(exists("a"))
        _ = app.apply(.key(.ctrl("r")))
        XCTAssertEqual(app.notice, "Redone: books/b deleted again")
        XCTAssertFalse(exists("b"))
        _ = app.apply(.key(.ctrl("r")))
        XCTAssertEqual(app.notice, "Nothing to redo")
        // And undone once more.
        _ = app.apply(.key(.character("u")))
        XCTAssertTrue(exists("b"))
    }

    func testAnEditIsUndoneAndRedoneOnceListed() async throws {
        let app = try await makeApp()
        _ = app.apply(.key(.character("e")))
        for _ in "Alpha" { _ = app.apply(.key(.backspace)) }
        for character in "Omega" { _ = app.apply(.key(.character(character))) }
        _ = app.apply(.key(.enter))
        XCTAssertEqual(try title("a"), "Omega")
        // Once the list shows the edit, u puts the title back and Ctrl-R the edit.
        try await deliver(app, { app.tab.index(of: "a").map { app.tab.snapshot(at: $0)?.get("title") as? String } == "Omega" })
        _ = app.apply(.key(.character("u")))
        XCTAssertEqual(try title("a"), "Alpha")
        _ = app.apply(.key(.ctrl("r")))
        XCTAssertEqual(app.notice, "Redone: books/a written again")
        XCTAssertEqual(try title("a"), "Omega")
    }

    func testANewChangeForgetsWhatCouldBeRedone() async throws {
        let app = try await makeApp()
        delete(app)
        try await deliver(app, { listed(app) == 2 })
        _ = app.apply(.key(.character("u")))
        try await deliver(app, { listed(app) == 3 })
        delete(app)
        _ = app.apply(.key(.ctrl("r")))
        XCTAssertEqual(app.notice, "Nothing to redo")
    }

    func testTheHelpListsCtrlR() async throws {
        let app = try await makeApp()
        _ = app.apply(.key(.character("?")))
        let help = app.frame(size: Size(width: 100, height: 80)).canvas.lines.joined(separator: "\n")
        XCTAssertTrue(help.contains("Ctrl-R") && help.contains("Redo what u undid"), help)
    }
}

/// `u` and `Ctrl-R` never silently overwrite another program's change: when the document is no
/// longer as Shelf's change left it, they ask, as saving does, and then put back only the
/// fields that change set.
@MainActor
final class UndoAfterChangesOnDiskTests: FolderAppTestCase {
    private var file: URL { folder.appendingPathComponent("books/a.json") }

    override func setUp() async throws {
        try await super.setUp()
        let books = folder.appendingPathComponent("books")
        try FileManager.default.createDirectory(at: books, withIntermediateDirectories: true)
        try Data(#"{"author": "X", "numberOfPages": 1, "title": "Alpha"}"#.utf8).write(to: file)
    }

    /// Takes in what the store holds now (`AppModel.deliver`), then asserts `condition`.
    private func fields() throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any] ?? [:]
    }

    /// Another program rewrites the book: 777 pages and a field no form shows.
    private func rewriteFromAnotherProgram(author: String) throws {
        try Data(#"{"author": "\#(author)", "note": "kept by hand", "numberOfPages": 777, "title": "Alpha"}"#.utf8).write(to: file)
    }

    /// Sets the author (the form's second field) and saves.
    private func editAuthor(_ app: AppModel, to author: String) {
        _ = app.apply(.key(.character("e")))
        _ = app.apply(.key(.tab))
        for _ in 0..<10 { _ = app.apply(.key(.backspace)) }
        for character in author { _ = app.apply(.key(.character(character))) }
        _ = app.apply(.key(.enter))
    }

    func testUndoOfAnEditChangedOnDiskSinceAsksAndPutsBackOnlyTheFieldsTheEditSet() async throws {
        let app = try await makeApp()
        editAuthor(app, to: "Yves")
        XCTAssertEqual(try fields()["author"] as? String, "Yves")
        try rewriteFromAnotherProgram(author: "Yves")

        _ = app.apply(.key(.character("u")))
        guard case .confirm(.undoConflict) = app.state.mode else { return XCTFail("u did not ask; mode \(app.state.mode), notice \(app.notice ?? "-")") }
        XCTAssertEqual(try fields()["numberOfPages"] as? Int, 777, "nothing is written before the answer")
        let question = app.frame(size: Size(width: 100, height: 30)).canvas.lines.joined(separator: "\n")
        XCTAssertTrue(question.contains("Changed on disk") && question.contains("author"), question)

        _ = app.apply(.key(.character("n")))
        XCTAssertEqual(try fields()["numberOfPages"] as? Int, 777)
        XCTAssertEqual(try fields()["author"] as? String, "Yves")
        _ = app.apply(.key(.character("u")))
        guard case .confirm(.undoConflict) = app.state.mode else { return XCTFail("u did not ask again after n; mode \(app.state.mode)") }

        _ = app.apply(.key(.character("y")))
        let after = try fields()
        XCTAssertEqual(after["author"] as? String, "X", "the field the edit set goes back")
        XCTAssertEqual(after["numberOfPages"] as? Int, 777, "another program's value stays")
        XCTAssertEqual(after["note"] as? String, "kept by hand", "a field the edit did not set stays")
        XCTAssertEqual(after["title"] as? String, "Alpha")
    }

    func testUndoAfterOverwritingAnotherProgramsChangeBringsThatChangeBack() async throws {
        let app = try await makeApp()
        _ = app.apply(.key(.character("e")))
        try rewriteFromAnotherProgram(author: "X")
        try await deliver(app, { app.tab.index(of: "a").map { app.tab.snapshot(at: $0)?.get("note") != nil } ?? false })
        _ = app.apply(.key(.tab))
        for _ in 0..<10 { _ = app.apply(.key(.backspace)) }
        for character in "Yves" { _ = app.apply(.key(.character(character))) }
        _ = app.apply(.key(.enter))
        guard case .confirm(.conflict(_, deleted: false)) = app.state.mode else { return XCTFail("saving did not ask; mode \(app.state.mode)") }
        _ = app.apply(.key(.character("y")))  // Overwrite
        XCTAssertEqual(try fields()["author"] as? String, "Yves")

        _ = app.apply(.key(.character("u")))
        let after = try fields()
        XCTAssertEqual(after["author"] as? String, "X")
        XCTAssertEqual(after["numberOfPages"] as? Int, 777, "undo puts back what the overwrite replaced")
        XCTAssertEqual(after["note"] as? String, "kept by hand")
    }

    func testRedoOfAnEditChangedOnDiskSinceAsksAndKeepsTheOtherFields() async throws {
        let app = try await makeApp()
        editAuthor(app, to: "Yves")
        _ = app.apply(.key(.character("u")))
        XCTAssertEqual(try fields()["author"] as? String, "X")
        try rewriteFromAnotherProgram(author: "X")

        _ = app.apply(.key(.ctrl("r")))
        guard case .confirm(.undoConflict) = app.state.mode else { return XCTFail("Ctrl-R did not ask; mode \(app.state.mode), notice \(app.notice ?? "-")") }
        _ = app.apply(.key(.character("y")))
        let after = try fields()
        XCTAssertEqual(after["author"] as? String, "Yves")
        XCTAssertEqual(after["numberOfPages"] as? Int, 777)
        XCTAssertEqual(after["note"] as? String, "kept by hand")
    }

    func testUndoOfADeleteAfterTheDocumentWasMadeAgainAsksAndKeepsTheNewFields() async throws {
        let app = try await makeApp()
        _ = app.apply(.key(.character("d")))
        _ = app.apply(.key(.character("y")))
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.path))
        try rewriteFromAnotherProgram(author: "Z")  // made again by hand meanwhile

        _ = app.apply(.key(.character("u")))
        guard case .confirm(.undoConflict) = app.state.mode else { return XCTFail("u did not ask; mode \(app.state.mode), notice \(app.notice ?? "-")") }
        _ = app.apply(.key(.character("y")))
        let after = try fields()
        XCTAssertEqual(after["author"] as? String, "X", "the deleted fields come back")
        XCTAssertEqual(after["note"] as? String, "kept by hand", "a field the delete did not remove stays")
    }

    func testUndoOfAnEditDeletedOnDiskSinceSaysSoAndWritesTheDocumentAsItWas() async throws {
        let app = try await makeApp()
        editAuthor(app, to: "Yves")
        try FileManager.default.removeItem(at: file)

        _ = app.apply(.key(.character("u")))
        guard case .confirm(.undoConflict(_, redo: false, isGone: true)) = app.state.mode else { return XCTFail("u did not ask; mode \(app.state.mode)") }
        let question = app.frame(size: Size(width: 100, height: 30)).canvas.lines.joined(separator: "\n")
        XCTAssertTrue(question.contains("Deleted on disk") && question.contains("written again as it was"), question)
        _ = app.apply(.key(.character("y")))
        XCTAssertEqual(try fields()["author"] as? String, "X")
        XCTAssertEqual(try fields()["title"] as? String, "Alpha")
    }
}
