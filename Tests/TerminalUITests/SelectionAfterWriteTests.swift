import DocumentStore
import Foundation
import TerminalKit
@testable import TerminalUI
import XCTest

/// After an add or an undo the document Shelf wrote is selected, even though the list is
/// drawn before the listener reports it; `u` after an add removes what was added.
@MainActor
final class SelectionAfterWriteTests: FolderAppTestCase {

    override func setUp() async throws {
        try await super.setUp()
        let books = folder.appendingPathComponent("books")
        try FileManager.default.createDirectory(at: books, withIntermediateDirectories: true)
        for (id, title) in [("a", "Alpha"), ("m", "Middle"), ("z", "Zulu")] {
            try Data(#"{"author": "X", "numberOfPages": 1, "title": "\#(title)"}"#.utf8).write(to: books.appendingPathComponent("\(id).json"))
        }
    }

    /// Takes in what the store holds now (`AppModel.deliver`), then asserts `condition`.
    private func detailTitle(_ app: AppModel) -> String {
        let line = app.frame(size: Size(width: 100, height: 20)).canvas.lines[1]
        return String(line.split(separator: "┌").last ?? "").trimmingCharacters(in: CharacterSet(charactersIn: "─┐ "))
    }

    func testTheAddedDocumentIsSelectedOnceListedAndUUndoesTheAdd() async throws {
        let app = try await makeApp()
        _ = app.apply(.key(.character("a")))
        press(app, "New Book")
        _ = app.apply(.key(.tab)); press(app, "Someone")
        _ = app.apply(.key(.tab)); press(app, "12")
        _ = app.apply(.key(.enter))
        let notice = try XCTUnwrap(app.notice)
        XCTAssertTrue(notice.hasPrefix("Added books/"), notice)
        let path = String(notice.dropFirst("Added ".count))
        _ = detailTitle(app)  // a frame before the listener has it
        try await deliver(app, { app.tab.index(of: String(path.dropFirst("books/".count))) != nil })
        XCTAssertEqual(detailTitle(app), path, "the new document is selected")

        _ = app.apply(.key(.character("u")))
        XCTAssertEqual(app.notice, "Removed \(path): the add is undone")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent(path + ".json").path))
    }

    func testAfterUndoingADeleteTheDocumentIsSelectedAgain() async throws {
        let app = try await makeApp()
        _ = app.apply(.key(.character("j")))
        XCTAssertEqual(detailTitle(app), "books/m")
        _ = app.apply(.key(.character("d")))
        _ = app.apply(.key(.character("y")))
        try await deliver(app, { app.tab.index(of: "m") == nil })
        XCTAssertNotEqual(detailTitle(app), "books/m")
        _ = app.apply(.key(.character("u")))
        _ = detailTitle(app)  // drawn before the listener reports it back
        try await deliver(app, { app.tab.index(of: "m") != nil })
        XCTAssertEqual(detailTitle(app), "books/m")
    }
}
