import DocumentStore
import Foundation
@testable import TerminalUI
import XCTest

/// A folder without a model: `e` opens the document in the editor, as `E` does; `a` opens a
/// new document holding `{}` in the editor, removed again if left empty.
@MainActor
final class RawTabEditingTests: XCTestCase {
    private var folder: URL!

    override func setUp() async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("shelf-rawedit-\(UUID().uuidString)")
        let notes = folder.appendingPathComponent("notes")
        try FileManager.default.createDirectory(at: notes, withIntermediateDirectories: true)
        try Data(#"{"title": "First", "nested": {"n": [1, 2]}}"#.utf8).write(to: notes.appendingPathComponent("x.json"))
    }

    override func tearDown() async throws { try? FileManager.default.removeItem(at: folder) }

    private func makeApp() async throws -> AppModel {
        let app = AppModel(store: try Firestore(directory: folder), colorMode: .none)
        _ = app.handle(.character("6"))
        for _ in 0..<500 where !(app.tab.isLoaded && app.tab.rowCount > 0) { try await Task.sleep(for: .milliseconds(10)) }
        XCTAssertEqual(app.tab.collectionID, "notes")
        return app
    }

    private func notes() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("notes").path).filter { $0.hasSuffix(".json") }.sorted()
    }

    func testEOpensTheDocumentInTheEditor() async throws {
        let app = try await makeApp()
        XCTAssertEqual(app.handle(.character("e")), .runEditor(folder.appendingPathComponent("notes/x.json")))
        XCTAssertNil(app.form)
    }

    func testAOpensAnEmptyDocumentInTheEditorAndUUndoesTheAdd() async throws {
        let app = try await makeApp()
        guard case .runEditor(let file) = app.handle(.character("a")) else { return XCTFail("a did not open the editor") }
        XCTAssertEqual(file.deletingLastPathComponent().lastPathComponent, "notes")
        let template = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
        XCTAssertEqual(template?.isEmpty, true, "the editor starts from {}")
        try Data(#"{"title": "Written in the editor", "list": [1, "two"]}"#.utf8).write(to: file)
        app.editorFinished(file: file, result: nil)
        let id = file.deletingPathExtension().lastPathComponent
        XCTAssertEqual(app.notice, "Added notes/\(id) (u removes it)")
        XCTAssertEqual(app.selectedIDs["notes"], id)
        for _ in 0..<500 where app.tab.rowCount < 2 { try await Task.sleep(for: .milliseconds(10)) }
        XCTAssertEqual(try notes().count, 2)
        _ = app.handle(.character("u"))
        XCTAssertEqual(app.notice, "Removed notes/\(id): the add is undone")
        XCTAssertEqual(try notes(), ["x.json"])
    }

    func testADocumentLeftEmptyIsNotAdded() async throws {
        let app = try await makeApp()
        guard case .runEditor(let file) = app.handle(.character("a")) else { return XCTFail("a did not open the editor") }
        app.editorFinished(file: file, result: "vi exited with status 1")
        XCTAssertEqual(app.notice, "Editor: vi exited with status 1. Nothing added: the new document was left empty")
        XCTAssertEqual(try notes(), ["x.json"])
    }
}
