import DocumentStore
import Foundation
@testable import TerminalUI
import XCTest

/// `u` undoes Shelf's changes one after another, newest first; `Ctrl-R` redoes what `u` undid;
/// a new change forgets what could be redone.
@MainActor
final class UndoRedoTests: XCTestCase {
    private var folder: URL!

    override func setUp() async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("shelf-undo-\(UUID().uuidString)")
        let books = folder.appendingPathComponent("books")
        try FileManager.default.createDirectory(at: books, withIntermediateDirectories: true)
        for (id, title) in [("a", "Alpha"), ("b", "Beta"), ("c", "Gamma")] {
            try Data(#"{"author": "X", "numberOfPages": 1, "title": "\#(title)"}"#.utf8).write(to: books.appendingPathComponent("\(id).json"))
        }
    }

    override func tearDown() async throws { try? FileManager.default.removeItem(at: folder) }

    private func makeApp() async throws -> AppModel {
        let app = AppModel(store: try Firestore(directory: folder), colorMode: .none)
        try await until { app.tab.isLoaded }
        return app
    }

    private func exists(_ id: String) -> Bool {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent("books/\(id).json").path)
    }

    private func title(_ id: String) throws -> String? {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("books/\(id).json")))
        return (object as? [String: Any])?["title"] as? String
    }

    /// Waits (up to 5 s) for the listener to catch up.
    private func until(_ condition: () -> Bool) async throws {
        for _ in 0..<500 where !condition() { try await Task.sleep(for: .milliseconds(10)) }
        XCTAssertTrue(condition())
    }

    private func listed(_ app: AppModel) -> Int { app.visibleRows(of: app.tab).count }

    private func delete(_ app: AppModel) {
        _ = app.handle(.character("d"))
        _ = app.handle(.character("y"))
    }

    func testUUndoesTwoDeletesNewestFirstAndCtrlRRedoesThem() async throws {
        let app = try await makeApp()
        delete(app)  // Alpha, the first by title
        try await until { listed(app) == 2 }
        delete(app)  // then Beta
        try await until { listed(app) == 1 }
        XCTAssertFalse(exists("a") || exists("b"))

        _ = app.handle(.character("u"))
        XCTAssertEqual(app.notice, "Restored books/b")
        XCTAssertTrue(exists("b") && !exists("a"))
        _ = app.handle(.character("u"))
        XCTAssertEqual(app.notice, "Restored books/a")
        XCTAssertTrue(exists("a"))
        _ = app.handle(.character("u"))
        XCTAssertEqual(app.notice, "Nothing to undo")

        _ = app.handle(.ctrl("r"))
        XCTAssertEqual(app.notice, "Redone: books/a deleted again")
        XCTAssertFalse(exists("a"))
        _ = app.handle(.ctrl("r"))
        XCTAssertEqual(app.notice, "Redone: books/b deleted again")
        XCTAssertFalse(exists("b"))
        _ = app.handle(.ctrl("r"))
        XCTAssertEqual(app.notice, "Nothing to redo")
        // And undone once more.
        _ = app.handle(.character("u"))
        XCTAssertTrue(exists("b"))
    }

    func testAnEditIsUndoneAndRedoneOnceListed() async throws {
        let app = try await makeApp()
        _ = app.handle(.character("e"))
        for _ in "Alpha" { _ = app.handle(.backspace) }
        for character in "Omega" { _ = app.handle(.character(character)) }
        _ = app.handle(.enter)
        XCTAssertEqual(try title("a"), "Omega")
        // Once the list shows the edit, u puts the title back and Ctrl-R the edit.
        try await until { app.tab.index(of: "a").map { app.tab.snapshot(at: $0).get("title") as? String } == "Omega" }
        _ = app.handle(.character("u"))
        XCTAssertEqual(try title("a"), "Alpha")
        _ = app.handle(.ctrl("r"))
        XCTAssertEqual(app.notice, "Redone: books/a written again")
        XCTAssertEqual(try title("a"), "Omega")
    }

    func testANewChangeForgetsWhatCouldBeRedone() async throws {
        let app = try await makeApp()
        delete(app)
        try await until { listed(app) == 2 }
        _ = app.handle(.character("u"))
        try await until { listed(app) == 3 }
        delete(app)
        _ = app.handle(.ctrl("r"))
        XCTAssertEqual(app.notice, "Nothing to redo")
    }

    func testTheHelpListsCtrlR() async throws {
        let app = try await makeApp()
        _ = app.handle(.character("?"))
        let help = AppView.render(app, size: Size(width: 100, height: 80)).canvas.lines.joined(separator: "\n")
        XCTAssertTrue(help.contains("Ctrl-R") && help.contains("Redo what u undid"), help)
    }
}
