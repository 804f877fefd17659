import DocumentStore
import Foundation
import TerminalKit
@testable import TerminalUI
import XCTest

/// The help and the detail pane scroll, so at 80×24 every key and every field can be read.
@MainActor
final class ScrollingTests: FolderAppTestCase {

    override func setUp() async throws {
        try await super.setUp()
        let books = folder.appendingPathComponent("books")
        try FileManager.default.createDirectory(at: books, withIntermediateDirectories: true)
        var fields: [String: Any] = ["author": "A", "numberOfPages": 1, "title": "Many fields"]
        for index in 1...41 { fields[String(format: "extra%02d", index)] = "value \(index)" }
        try JSONSerialization.data(withJSONObject: fields).write(to: books.appendingPathComponent("many.json"))
        try Data(#"{"author": "B", "numberOfPages": 2, "title": "Other"}"#.utf8).write(to: books.appendingPathComponent("other.json"))
    }

    private func screen(_ app: AppModel) -> String {
        app.frame(size: Size(width: 80, height: 24)).canvas.lines.joined(separator: "\n")
    }

    func testTheHelpScrollsToItsLastLineAndBack() async throws {
        let app = try await makeApp()
        _ = app.apply(.key(.character("?")))
        XCTAssertTrue(screen(app).contains("Move up"))
        XCTAssertFalse(screen(app).contains("Quit from anywhere"), "at 80×24 the help does not fit:\n\(screen(app))")
        XCTAssertTrue(screen(app).contains("↓ more"), "the help says there is more:\n\(screen(app))")
        for key in [Key.character(" "), .pageDown, .down, .character("j")] {
            for _ in 0..<80 { _ = app.apply(.key(key)) }
            XCTAssertTrue(screen(app).contains("Quit from anywhere"), "\(key) scrolls to the end:\n\(screen(app))")
            for _ in 0..<80 { _ = app.apply(.key(.character("k"))) }
            XCTAssertTrue(screen(app).contains("Move up"), "k scrolls back up:\n\(screen(app))")
        }
        _ = app.apply(.key(.pageDown))
        _ = app.apply(.key(.pageUp))
        XCTAssertTrue(screen(app).contains("Move up"))
        _ = app.apply(.key(.escape))
        XCTAssertFalse(screen(app).contains("Keys"))
    }

    func testJAndKScrollTheDetailAndAMoveStartsAtTheTop() async throws {
        let app = try await makeApp()
        XCTAssertTrue(screen(app).contains("┌ books/many "))
        XCTAssertFalse(screen(app).contains("extra41"), "41 fields do not fit at 80×24")
        for _ in 0..<60 { _ = app.apply(.key(.character("J"))) }
        XCTAssertTrue(screen(app).contains("extra41: value 41"), "J scrolls to the last field:\n\(screen(app))")
        XCTAssertFalse(screen(app).contains("│ Title "), "the top of the detail scrolled away:\n\(screen(app))")
        _ = app.apply(.key(.character("K")))
        XCTAssertTrue(screen(app).contains("extra40"), "K scrolls back at once, however far J went:\n\(screen(app))")
        XCTAssertFalse(screen(app).contains("extra41"))
        _ = app.apply(.key(.character("j")))
        _ = app.apply(.key(.character("k")))
        XCTAssertTrue(screen(app).contains("│ Title "), "another document, or the same again, starts at the top:\n\(screen(app))")
    }
}
