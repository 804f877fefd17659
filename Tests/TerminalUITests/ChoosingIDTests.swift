import DocumentStore
import Foundation
import TerminalKit
@testable import TerminalUI
import XCTest

/// A new document's form has an Id field above the model's: left blank, the document gets an
/// automatic id; typed, the document is added under it, never over one that has it.
@MainActor
final class ChoosingIDTests: FolderAppTestCase {
    override func setUp() async throws {
        try await super.setUp()
        try folder.writeDocument("books/taken", #"{"author": "X", "numberOfPages": 1, "title": "Taken"}"#)
    }

    /// `a`, the id typed in the Id field (Shift-Tab up from the title, where the form starts),
    /// then a book's fields.
    private func add(_ app: AppModel, id: String) {
        _ = app.apply(.key(.character("a")))
        XCTAssertEqual(app.form?.widget.focus, 1, "the form starts at the title")
        _ = app.apply(.key(.backTab))
        press(app, id)
        _ = app.apply(.key(.tab)); press(app, "Dune")
        _ = app.apply(.key(.tab)); press(app, "Frank Herbert")
        _ = app.apply(.key(.tab)); press(app, "412")
        _ = app.apply(.key(.enter))
    }

    private func file(_ id: String) -> URL { folder.appendingPathComponent("books/\(id).json") }

    func testATypedIdNamesTheNewDocumentAndUUndoesIt() async throws {
        let app = try await makeApp()
        XCTAssertEqual(app.apply(.key(.character("a"))), .keepRunning)
        XCTAssertEqual(app.form?.widget.fields.map(\.label).prefix(4), ["Id", "Title", "Author", "Pages"])
        XCTAssertTrue(app.frame(size: Size(width: 100, height: 24)).canvas.lines.joined().contains("blank: an automatic id"))
        _ = app.apply(.key(.escape))

        add(app, id: "dune")
        XCTAssertEqual(app.notice, "Added books/dune")
        let stored = try JSONSerialization.jsonObject(with: Data(contentsOf: file("dune"))) as? [String: Any]
        XCTAssertEqual(stored?["title"] as? String, "Dune")
        try await app.deliver()
        XCTAssertEqual(app.state.lists.states["books"]?.selectedID, "dune")

        _ = app.apply(.key(.character("u")))
        XCTAssertEqual(app.notice, "Removed books/dune: the add is undone")
        XCTAssertFalse(FileManager.default.fileExists(atPath: file("dune").path))
    }

    func testAnIdFirestoreRefusesIsMarkedAsTypedAndNothingIsSaved() async throws {
        let app = try await makeApp()
        for (id, reason) in [("a/b", "an id cannot contain \"/\""), ("..", "an id cannot be \".\" or \"..\""),
                             ("__x__", "ids matching __.*__ are reserved, but for numeric ids (__id<64-bit integer>__)")] {
            add(app, id: id)
            XCTAssertEqual(app.notice, "Not saved: fix the marked fields first", id)
            XCTAssertEqual(app.form?.widget.fields.first?.message, "not an id: \(reason)", id)
            _ = app.apply(.key(.escape))
            _ = app.apply(.key(.character("y")))  // discard what was typed
            XCTAssertNil(app.form, id)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("books").path), ["taken.json"])
    }

    func testAnIdAlreadyTakenOverwritesNothingAndTheFormComesBack() async throws {
        let app = try await makeApp()
        let before = try Data(contentsOf: file("taken"))
        add(app, id: "taken")
        XCTAssertEqual(app.notice, "Not saved: books/taken already exists: choose another id, or edit that document")
        XCTAssertEqual(app.form?.widget.values.prefix(4), ["taken", "Dune", "Frank Herbert", "412"], "what was typed stays")
        XCTAssertEqual(try Data(contentsOf: file("taken")), before, "the document there is untouched")
    }

    /// A failed save's error is about the form's text: it goes with the form, and a document
    /// opened next shows no stale error.
    func testAFailedSavesErrorGoesWithItsFormAndIsNotShownOverTheNextDocument() async throws {
        let app = try await makeApp()
        add(app, id: "taken")
        _ = app.apply(.key(.escape))
        _ = app.apply(.key(.character("y")))
        XCTAssertNil(app.form)
        _ = app.apply(.key(.character("o")))
        press(app, "taken")
        _ = app.apply(.key(.enter))
        let status = app.frame(size: Size(width: 100, height: 24)).canvas.lines[22]
        XCTAssertFalse(status.contains("already exists"), status)
    }
}
