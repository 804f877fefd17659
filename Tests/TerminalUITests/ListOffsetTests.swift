import DocumentStore
import Foundation
import TerminalKit
@testable import TerminalUI
import XCTest

/// The list's first row in view follows every key as it is handled, not only the frames drawn:
/// keys typed in one burst leave the list as the same keys typed one at a time.
@MainActor
final class ListOffsetTests: FolderAppTestCase {
    private let size = Size(width: 80, height: 24)
    private var pageSize: Int { AppView.listHeight(for: size) }

    override func setUp() async throws {
        try await super.setUp()
        // 51 books, "Book 01" to "Book 51": nearly three times the 18 rows shown at 80×24.
        try writeNumberedBooks(1...51)
    }

    /// The app, drawn once (so a click or a page knows the layout).
    private func drawnApp() async throws -> AppModel {
        let app = try await makeApp()
        _ = screen(app)
        return app
    }

    private func screen(_ app: AppModel) -> [String] { app.frame(size: size).canvas.lines }

    private func press(_ keys: [Key], _ app: AppModel) {
        for key in keys { _ = app.apply(.key(key, pageSize: pageSize)) }
    }

    /// The titles of the rows in view, top first.
    private func titlesInView(_ app: AppModel) -> [String] {
        screen(app)[3..<21].compactMap { line in line.range(of: #"Book \d\d"#, options: .regularExpression).map { String(line[$0]) } }
    }

    func testKeysInOneBurstScrollAsTheSameKeysOneFrameEach() async throws {
        let burst = try await drawnApp()
        press([.character("G")], burst)
        _ = screen(burst)
        press([.character("g"), .character("j"), .character("j")], burst)

        let oneByOne = try await drawnApp()
        for key in [Key.character("G"), .character("g"), .character("j"), .character("j")] {
            press([key], oneByOne)
            _ = screen(oneByOne)
        }
        XCTAssertEqual(screen(burst), screen(oneByOne))
        XCTAssertTrue(screen(burst)[21].contains(" 3/51 "), screen(burst).joined(separator: "\n"))
        XCTAssertEqual(titlesInView(burst).first, "Book 01", "no row is left above the view:\n\(screen(burst).joined(separator: "\n"))")
    }

    func testReversingTheOrderKeepsTheSelectedRowWhereItWasOnScreen() async throws {
        let app = try await drawnApp()
        // Book 48, the 15th row in view of Book 34…51.
        press([.character("G"), .character("k"), .character("k"), .character("k")], app)
        XCTAssertEqual(titlesInView(app).first, "Book 34")
        press([.character("S")], app)
        // Now 4th from the top: it cannot stay 15th, and no row is left above the view.
        XCTAssertEqual(titlesInView(app).first, "Book 51", screen(app).joined(separator: "\n"))
        XCTAssertTrue(screen(app)[21].contains(" 4/51 "), screen(app).joined(separator: "\n"))

        // The first book in view, selected, reversed: it becomes the last and the view ends with it.
        press([.character("g"), .character("S")], app)
        XCTAssertEqual(titlesInView(app).last, "Book 51", screen(app).joined(separator: "\n"))
        XCTAssertTrue(screen(app)[21].contains(" 51/51 "), screen(app).joined(separator: "\n"))
    }
}
