import DocumentStore
import Foundation
import TerminalKit
@testable import TerminalUI
import XCTest

/// `m` shows the last messages whole, newest first, in an overlay that scrolls; the status
/// line, which may cut a message, is not the only place it can be read.
@MainActor
final class MessageLogTests: FolderAppTestCase {
    private let size = Size(width: 80, height: 24)

    override func setUp() async throws {
        try await super.setUp()
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("books"), withIntermediateDirectories: true)
        try Data(#"{"author": "A", "numberOfPages": 1, "title": "One"}"#.utf8).write(to: folder.appendingPathComponent("books/one.json"))
    }

    private func screen(_ app: AppModel) -> String {
        app.frame(size: size).canvas.lines.joined(separator: "\n")
    }

    func testMShowsTheLastMessagesWholeNewestFirstAndEscCloses() async throws {
        let app = try await makeApp()
        let long = "Not saved: cannot write a file in /tmp/a-rather-long-folder-name/with-more-inside/data/books: Permission denied"
        _ = app.apply(.key(.character("x")))
        app.notice = long
        XCTAssertFalse(screen(app).contains(long), "the status line cannot hold it whole")
        let wide = app.frame(size: Size(width: 100, height: 24)).canvas.lines.joined(separator: "\n")
        XCTAssertTrue(wide.contains("m messages"), "the hint line lists the key:\n\(wide)")

        _ = app.apply(.key(.character("m")))
        let shown = screen(app)
        XCTAssertTrue(shown.contains("┌ Messages "), shown)
        XCTAssertTrue(shown.contains("Esc or m to close"), shown)
        // Wrapped at spaces, every word is there.
        for part in ["Not saved: cannot write a file in", "/tmp/a-rather-long-folder-name/with-more-inside/data/books:", "Permission denied"] {
            XCTAssertTrue(shown.contains(part), "\(part):\n\(shown)")
        }
        let newest = try XCTUnwrap(shown.range(of: "Not saved"))
        let older = try XCTUnwrap(shown.range(of: "\"x\" does nothing here"))
        XCTAssertLessThan(newest.lowerBound, older.lowerBound, shown)

        _ = app.apply(.key(.escape))
        XCTAssertFalse(screen(app).contains("┌ Messages "))
        XCTAssertTrue(screen(app).contains("┌ Books "))
    }

    func testTheLogKeepsTheLast50AndScrolls() async throws {
        let app = try await makeApp()
        for index in 1...60 { app.notice = "Message number \(index)" }
        XCTAssertEqual(app.status.history.count, 50)
        XCTAssertEqual(app.status.history.first?.text, "Message number 11")
        _ = app.apply(.key(.character("m")))
        XCTAssertTrue(screen(app).contains("Message number 60"), screen(app))
        XCTAssertTrue(screen(app).contains("↓ more"), screen(app))
        for _ in 0..<60 { _ = app.apply(.key(.character("j"))) }
        XCTAssertTrue(screen(app).contains("Message number 11"), screen(app))
        XCTAssertFalse(screen(app).contains("Message number 60"), screen(app))
        _ = app.apply(.key(.character("m")))
        XCTAssertTrue(screen(app).contains("┌ Books "), screen(app))
    }

    func testTheHelpListsTheKey() async throws {
        let app = try await makeApp()
        _ = app.apply(.key(.character("?")))
        XCTAssertTrue(Keymap.browse.contains { $0.keys == [.character("m")] && $0.hint == "messages" })
        XCTAssertTrue(app.frame(size: Size(width: 120, height: 60)).canvas.lines.joined().contains("Show the last 50 messages"))
    }
}
