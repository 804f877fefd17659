import DocumentStore
import Foundation
import ShelfModels
import TerminalKit
@testable import TerminalUI
import XCTest

/// A document holding a 1 MiB word (legal in Firestore) draws like any other: what is on
/// screen is drawn, the rest is said to be cut. Before, wrapping it was quadratic and the
/// frame never finished.
@MainActor
final class LongValueTests: FolderAppTestCase {
    /// As long as a document may be (1 MiB) with room for the other fields and names.
    private let word = String(repeating: "w", count: (1 << 20) - 200)

    override func setUp() async throws {
        try await super.setUp()
        let books = folder.appendingPathComponent("books")
        try FileManager.default.createDirectory(at: books, withIntermediateDirectories: true)
        let fields: [String: Any] = ["title": word, "author": "A. Author", "numberOfPages": 1]
        try JSONSerialization.data(withJSONObject: fields).write(to: books.appendingPathComponent("long.json"))
    }

    func testTheListAndDetailDrawTheStartAndSayTheRestIsCut() async throws {
        let app = try await makeApp(colorMode: .palette256)
        let lines = app.frame(size: Size(width: 100, height: 30)).canvas.lines
        let screen = lines.joined(separator: "\n")
        XCTAssertTrue(lines[3].hasPrefix("│  www") && lines[3].contains("www…  A. Author"), "the row is cut with an ellipsis:\n\(screen)")
        XCTAssertTrue(lines[2].contains("│ Title   www"), "the detail starts with the title:\n\(screen)")
        XCTAssertTrue(lines[3].contains("│         www"), "the title goes on under itself:\n\(screen)")

        // Scrolled as far as it goes, the detail says the value is cut, and how long it is.
        let detail = DetailWidget(lines: [DetailLine("Title", word)], offset: .max)
        var canvas = Canvas(width: 60, height: 5)
        detail.render(into: &canvas, area: canvas.bounds)
        XCTAssertEqual(canvas.lines.last, "       … cut here: the value is \(word.utf8.count.formatted()) bytes long".padded(toWidth: 60))
        XCTAssertEqual(detail.rowCount(width: 60), DetailWidget.maxRowsPerValue)
    }

    func testTheFormOpensOnItAndEditsAtBothEnds() async throws {
        let app = try await makeApp(colorMode: .palette256)
        _ = app.apply(.key(.character("e")))
        var lines = app.frame(size: Size(width: 100, height: 30)).canvas.lines
        XCTAssertTrue(lines.contains { $0.contains("› Title        …www") }, lines.joined(separator: "\n"))  // the start hidden, marked
        _ = app.apply(.key(.home))
        _ = app.apply(.key(.character("A")))
        _ = app.apply(.key(.end))
        _ = app.apply(.key(.character("Z")))
        lines = app.frame(size: Size(width: 100, height: 30)).canvas.lines
        XCTAssertTrue(lines.contains { $0.contains("wwwZ ") }, lines.joined(separator: "\n"))
        XCTAssertEqual(app.form?.widget.values.first?.first, "A")
        XCTAssertEqual(app.form?.widget.values.first?.utf8.count, word.utf8.count + 2)
    }
}
