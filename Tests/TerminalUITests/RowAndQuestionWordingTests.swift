import DocumentStore
import Foundation
import TerminalKit
@testable import TerminalUI
import XCTest

/// What rows, questions, hints and counts say, each as the screen shows it: a row's column
/// kept, why a row is undecodable, the delete question's title, the answers a question gives.
@MainActor
final class RowAndQuestionWordingTests: FolderAppTestCase {

    override func setUp() async throws {
        try await super.setUp()
        let books = folder.appendingPathComponent("books")
        try FileManager.default.createDirectory(at: books, withIntermediateDirectories: true)
        try Data(#"{"author": "P", "numberOfPages": "twohundredfifty", "title": "Zzz Broken"}"#.utf8).write(to: books.appendingPathComponent("aaa.json"))
        for index in 1...30 {
            let id = String(format: "b%02d", index)
            try Data(#"{"author": "X", "numberOfPages": \#(index), "title": "Book \#(index)"}"#.utf8).write(to: books.appendingPathComponent("\(id).json"))
        }
    }

    private func lines(_ app: AppModel) -> [String] { app.frame(size: Size(width: 100, height: 16)).canvas.lines }

    func testRowsKeepTheirColumnWhenTheMarkedRowScrollsAway() async throws {
        let app = try await makeApp()
        // Sorted by title, the broken document ("Zzz") is last: out of view at the top, in view at the end.
        XCTAssertTrue(lines(app)[3].hasPrefix("│  Book 1 "), lines(app).joined(separator: "\n"))
        XCTAssertFalse(lines(app).joined().contains("Zzz Broken"))
        _ = app.apply(.key(.end))
        XCTAssertTrue(lines(app).joined().contains("Zzz Broken"))
        XCTAssertTrue(lines(app)[3].hasPrefix("│  Book "), "the text stays two columns in:\n\(lines(app).joined(separator: "\n"))")
    }

    func testAnUndecodableRowSaysWhyInShort() async throws {
        let app = try await makeApp()
        _ = app.apply(.key(.end))
        let row = lines(app).first { $0.hasPrefix("│!") } ?? ""
        XCTAssertTrue(row.hasPrefix("│! Zzz Broken  numberOfPages: expected"), row)
    }

    func testAFileThatIsNotJSONSaysSoInItsRow() async throws {
        try Data(#"{"title": "Half"#.utf8).write(to: folder.appendingPathComponent("books/aab.json"))
        let app = try await makeApp()
        _ = app.apply(.key(.end))
        let row = lines(app).first { $0.hasPrefix("│!") && $0.contains("aab") } ?? ""
        XCTAssertTrue(row.hasPrefix("│! aab  not valid JSON: line 1"), row)
    }

    func testTheDeleteQuestionNamesTheTitle() async throws {
        let app = try await makeApp()
        _ = app.apply(.key(.down))  // by title, Book 10 follows Book 1
        _ = app.apply(.key(.character("d")))
        let screen = lines(app).joined(separator: "\n")
        XCTAssertTrue(screen.contains("Delete “Book 10” (books/b10)?"), screen)
    }

    func testTheHintLineNamesTheAnswersTheQuestionGives() async throws {
        let app = try await makeApp()
        _ = app.apply(.key(.character("e")))  // Book 1, first by title
        _ = app.apply(.key(.character("!")))
        try Data(#"{"author": "Y", "numberOfPages": 1, "title": "Changed"}"#.utf8).write(to: folder.appendingPathComponent("books/b01.json"))
        try await app.deliver()
        _ = app.apply(.key(.enter))
        let all = lines(app)
        XCTAssertTrue(all.joined().contains("y Overwrite   n Reload"), all.joined(separator: "\n"))
        XCTAssertTrue(all.last!.hasPrefix("y Overwrite  n Reload"), all.last!)
    }

    func testCountsAreGroupedAsTheLoadingLineGroupsThem() {
        XCTAssertEqual(AppView.countText(visible: 100_000, total: 100_000), "100,000 documents")
        XCTAssertEqual(AppView.countText(visible: 1_234, total: 100_000), "1,234 of 100,000 documents")
        XCTAssertEqual(AppView.countText(visible: 1, total: 1), "1 document")
    }

    func testTheLookupFollowsChangesOnDisk() async throws {
        let app = try await makeApp()
        _ = app.apply(.key(.character("o")))
        for c in "b02" { _ = app.apply(.key(.character(c))) }
        _ = app.apply(.key(.enter))
        await (app.effects as? SynchronousEffects)?.finishCalls()
        XCTAssertTrue(lines(app).joined().contains("Opened as Book"))
        XCTAssertTrue(lines(app).joined().contains("Book 2"), lines(app).joined(separator: "\n"))
        try Data(#"{"author": "X", "numberOfPages": 2, "title": "Book Two Renamed"}"#.utf8).write(to: folder.appendingPathComponent("books/b02.json"))
        try await app.deliver()
        _ = lines(app)  // the frame sees the books changed and fetches the book again
        await (app.effects as? SynchronousEffects)?.finishCalls()
        XCTAssertTrue(lines(app).joined().contains("Title   Book Two Renamed"), lines(app).joined(separator: "\n"))
    }
}
