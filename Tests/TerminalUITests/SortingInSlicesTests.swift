import DocumentStore
import Foundation
@testable import TerminalUI
import XCTest

/// A large collection's sort keys are made a slice a frame, so no frame waits for all of them
/// (sizes scaled down here: "large" is over 10 rows, 10 keys a slice).
@MainActor
final class SortingInSlicesTests: XCTestCase {
    private var folder: URL!

    override func setUp() async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("shelf-slices-\(UUID().uuidString)")
        let books = folder.appendingPathComponent("books")
        try FileManager.default.createDirectory(at: books, withIntermediateDirectories: true)
        // Ids in the opposite order to the titles, authors in yet another.
        for index in 1...25 {
            let fields: [String: Any] = ["author": String(format: "Author %02d", (index * 7) % 25), "numberOfPages": index,
                                         "title": String(format: "Book %02d", index)]
            try JSONSerialization.data(withJSONObject: fields).write(to: books.appendingPathComponent(String(format: "id%02d.json", 26 - index)))
        }
    }

    override func tearDown() async throws { try? FileManager.default.removeItem(at: folder) }

    private func makeApp() async throws -> AppModel {
        let app = AppModel(store: try Firestore(directory: folder), colorMode: .none)
        app.sortAtOnceLimit = 10
        app.sortSlice = 10
        for _ in 0..<500 where !app.tab.isLoaded { try await Task.sleep(for: .milliseconds(10)) }
        return app
    }

    private func screen(_ app: AppModel) -> String {
        AppView.render(app, size: Size(width: 100, height: 40)).canvas.lines.joined(separator: "\n")
    }

    func testTheFirstFramesSayHowFarSortingIsAndKeysWaitForIt() async throws {
        let app = try await makeApp()
        var text = screen(app)
        XCTAssertTrue(text.contains("Sorting books by Title… 0 of 25"), text)
        XCTAssertTrue(text.contains("│  Book 25"), "the rows show by id while their order is made:\n\(text)")
        XCTAssertTrue(text.lastIndex(of: "5") != nil && text.range(of: "Book 25")!.lowerBound < text.range(of: "Book 01")!.lowerBound,
                      "by id first (id01 is Book 25):\n\(text)")
        XCTAssertTrue(text.contains("25 documents"), text)
        _ = app.handle(.character("j"))

        XCTAssertTrue(app.advanceSorting())
        XCTAssertTrue(screen(app).contains("Sorting books by Title… 10 of 25"), screen(app))
        XCTAssertTrue(app.advanceSorting())
        XCTAssertFalse(app.advanceSorting(), "the third slice finishes")
        _ = app.replayKeysWaitingForLoad()
        text = screen(app)
        XCTAssertFalse(text.contains("Sorting"), text)
        XCTAssertTrue(text.contains("│  Book 01"), text)
        XCTAssertTrue(text.contains(" 2/25 ┘"), "the j typed while sorting moved once it was done:\n\(text)")
        XCTAssertTrue(text.contains("┌ books/id24 "), text)
        XCTAssertFalse(app.advanceSorting(), "nothing left to do")
    }

    func testANewColumnKeepsTheLastOrderUntilItsKeysAreMade() async throws {
        let app = try await makeApp()
        while app.advanceSorting() {}
        _ = app.handle(.character("s"))  // by author
        var text = screen(app)
        XCTAssertTrue(text.contains("Sorting books by Author… 0 of 25"), text)
        let rows = text.components(separatedBy: "\n").filter { $0.hasPrefix("│  Book ") }
        XCTAssertEqual(rows.first?.hasPrefix("│  Book 01"), true, "still by title meanwhile:\n\(text)")
        while app.advanceSorting() {}
        text = screen(app)
        XCTAssertTrue(text.contains("Author ▲"), text)
        let authors = text.components(separatedBy: "\n").compactMap { $0.range(of: "Author ")?.upperBound }.count
        XCTAssertGreaterThan(authors, 20, text)
        let first = text.components(separatedBy: "\n").first { $0.hasPrefix("│  Book ") } ?? ""
        XCTAssertTrue(first.contains("Author 00"), "by author now:\n\(text)")
    }

    func testASmallCollectionIsOrderedAtOnce() async throws {
        let app = try await makeApp()
        app.sortAtOnceLimit = 25
        XCTAssertFalse(app.advanceSorting())
        XCTAssertTrue(screen(app).contains("│  Book 01"))
    }
}
