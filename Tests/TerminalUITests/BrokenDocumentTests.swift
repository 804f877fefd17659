import DocumentStore
import Foundation
import TerminalKit
@testable import TerminalUI
import XCTest

/// A document whose file cannot be read: it is never replaced by `{}`, and it is repaired in
/// an editor, not in a form that cannot save it.
@MainActor
final class BrokenDocumentTests: FolderAppTestCase {
    private var broken: URL { folder.appendingPathComponent("books/broken.json") }

    override func setUp() async throws {
        try await super.setUp()
        let books = folder.appendingPathComponent("books")
        try FileManager.default.createDirectory(at: books, withIntermediateDirectories: true)
        try Data(#"{"title": "Half"#.utf8).write(to: broken)
    }

    func testUndoAfterDeletingAnUnreadableDocumentWritesNothing() async throws {
        let app = try await makeApp()
        _ = app.apply(.key(.character("d")))
        _ = app.apply(.key(.character("y")))
        XCTAssertFalse(FileManager.default.fileExists(atPath: broken.path))
        XCTAssertEqual(app.notice, "Deleted books/broken")
        _ = app.apply(.key(.character("u")))
        XCTAssertEqual(app.notice, "Nothing to undo")
        XCTAssertFalse(FileManager.default.fileExists(atPath: broken.path), "u must not write {} in its place")
    }

    func testEditingAnUnreadableDocumentOpensItsFileInTheEditor() async throws {
        let app = try await makeApp()
        XCTAssertEqual(app.apply(.key(.character("e"))), .runEditor(broken))
        XCTAssertNil(app.form, "no form that could never save")
        XCTAssertEqual(app.apply(.key(.enter)), .runEditor(broken))
        XCTAssertEqual(app.apply(.key(.character("E"))), .runEditor(broken))
    }

    func testTheListShowsTheFixOnceTheFileIsFixed() async throws {
        let app = try await makeApp()
        XCTAssertTrue(app.frame(size: Size(width: 100, height: 20)).canvas.lines.joined().contains("cannot be read"))
        try Data(#"{"author": "A", "numberOfPages": 1, "title": "Whole"}"#.utf8).write(to: broken)
        try await app.deliver()
        let screen = app.frame(size: Size(width: 100, height: 20)).canvas.lines.joined(separator: "\n")
        XCTAssertTrue(screen.contains("Whole"), screen)
        XCTAssertFalse(screen.contains("cannot be read"), screen)
        XCTAssertEqual(app.apply(.key(.character("e"))), .keepRunning, "a readable document opens in the form again")
        XCTAssertNotNil(app.form)
    }
}
