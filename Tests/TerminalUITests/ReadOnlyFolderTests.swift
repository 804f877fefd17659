import DocumentStore
import Foundation
import TerminalKit
@testable import TerminalUI
import XCTest

/// A read-only folder offers no key that writes, and each such key says why it does nothing;
/// a folder of other files says what a document is.
@MainActor
final class ReadOnlyFolderTests: FolderAppTestCase {
    private let size = Size(width: 100, height: 20)

    override func setUp() async throws {
        try await super.setUp()
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("books"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("notes"), withIntermediateDirectories: true)
        try Data(#"{"author": "A", "numberOfPages": 1, "title": "One"}"#.utf8).write(to: folder.appendingPathComponent("books/one.json"))
        try Data("a note\n".utf8).write(to: folder.appendingPathComponent("notes/todo.txt"))
    }

    private func lines(_ app: AppModel) -> [String] { app.frame(size: size).canvas.lines }

    func testTheHintLineLeavesOutKeysThatWriteAndEachSaysWhy() async throws {
        let app = try await makeApp()
        XCTAssertTrue(lines(app)[19].contains("a add"), "a writable folder offers them:\n\(lines(app)[19])")
        app.isReadOnly = true
        let hints = lines(app)[19]
        for hint in ["a add", "e edit", "d delete", "u undo", "E editor"] {
            XCTAssertFalse(hints.contains(hint), "\(hint) in: \(hints)")
        }
        XCTAssertTrue(hints.contains("/ filter") && hints.contains("q quit"), hints)
        for key in [Key.character("a"), .character("e"), .enter, .character("E"), .character("d"), .character("u"), .ctrl("r")] {
            XCTAssertEqual(app.apply(.key(key)), .keepRunning)
            XCTAssertTrue(app.notice?.contains("read-only") == true, "\(key): \(app.notice ?? "no message")")
            guard case .browse = app.state.mode else { return XCTFail("\(key) left the list: \(app.state.mode)") }
        }
        _ = app.apply(.key(.character("?")))
        let help = app.frame(size: Size(width: 160, height: 60)).canvas.lines.joined(separator: "\n")
        XCTAssertTrue(help.contains("(not now: The folder is read-only)"), "the help says why:\n\(help)")
        XCTAssertEqual(try String(contentsOf: folder.appendingPathComponent("books/one.json"), encoding: .utf8),
                       #"{"author": "A", "numberOfPages": 1, "title": "One"}"#)
    }

    func testAFolderOfOtherFilesSaysOnlyJSONFilesAreDocuments() async throws {
        let app = try await makeApp()
        let index = try XCTUnwrap(app.tabs.firstIndex { $0.collectionID == "notes" })
        app.state.switchTab(to: index)
        try await app.deliver()
        let screen = lines(app)
        XCTAssertTrue(screen[3].contains("No documents in 'notes' collection"), screen.joined(separator: "\n"))
        XCTAssertTrue(screen[4].contains("Only *.json files are documents"), screen.joined(separator: "\n"))
    }

    func testOnANarrowListTheHintFollowsTheWrappedMessage() async throws {
        let app = try await makeApp()
        let index = try XCTUnwrap(app.tabs.firstIndex { $0.collectionID == "notes" })
        app.state.switchTab(to: index)
        try await app.deliver()
        let screen = app.frame(size: Size(width: 60, height: 20)).canvas.lines
        let shown = screen.joined(separator: "\n")
        let first = try XCTUnwrap(screen.firstIndex { $0.contains("No documents") }, shown)
        XCTAssertTrue(screen[first + 1].contains("collection"), "the message wraps whole:\n\(shown)")
        XCTAssertTrue(screen[first + 2].contains("Only *.json"), "the hint is below it, not over it:\n\(shown)")
    }
}
