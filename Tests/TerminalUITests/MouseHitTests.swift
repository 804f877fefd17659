import DocumentStore
import Foundation
import TerminalKit
@testable import TerminalUI
import XCTest

/// What a click or a turn of the wheel lands on, and what it does: the hit test reads the
/// same layout the screen is drawn with.
@MainActor
final class MouseHitTests: FolderAppTestCase {
    private let size = Size(width: 80, height: 24)

    override func setUp() async throws {
        try await super.setUp()
        // 30 books, "Book 01" to "Book 30": more than the 18 rows the list shows at 80×24.
        try writeNumberedBooks(1...30) { number in
            number == 1 ? Dictionary(uniqueKeysWithValues: (1...40).map { (String(format: "extra%02d", $0), "value \($0)") }) : [:]
        }
    }

    /// The app, drawn once (so a click or a page knows the layout).
    private func drawnApp() async throws -> AppModel {
        let app = try await makeApp()
        _ = screen(app)
        return app
    }

    @discardableResult
    private func screen(_ app: AppModel) -> String {
        app.frame(size: size).canvas.lines.joined(separator: "\n")
    }

    func testTheTabBarIsHitByEachTabsWholeTitle() {
        let bar = TabBar(titles: ["1 Books", "2 Colors"], selected: 0)
        // " 1 Books " is columns 0-8, a space, then " 2 Colors " is 10-19.
        XCTAssertEqual((0...8).map { bar.index(atColumn: $0, width: 80) }, Array(repeating: 0, count: 9))
        XCTAssertNil(bar.index(atColumn: 9, width: 80))
        XCTAssertEqual(bar.index(atColumn: 10, width: 80), 1)
        XCTAssertEqual(bar.index(atColumn: 19, width: 80), 1)
        XCTAssertNil(bar.index(atColumn: 20, width: 80))
    }

    func testPointsLandOnTabsRowsTheHeaderAndTheDetail() async throws {
        let app = try await drawnApp()
        XCTAssertEqual(app.frame(size: size).hits.hit(at: Point(x: 12, y: 0)), .tab(1))
        // Row 1 is the frame, row 2 the header, row 3 the first book.
        XCTAssertEqual(app.frame(size: size).hits.hit(at: Point(x: 1, y: 1)), .list)
        XCTAssertEqual(app.frame(size: size).hits.hit(at: Point(x: 2, y: 2)), .list, "the marker column")
        XCTAssertEqual(app.frame(size: size).hits.hit(at: Point(x: 5, y: 2)), .header(column: 0))
        XCTAssertEqual(app.frame(size: size).hits.hit(at: Point(x: 5, y: 3)), .row(0))
        XCTAssertEqual(app.frame(size: size).hits.hit(at: Point(x: 38, y: 19)), .row(16))
        XCTAssertEqual(app.frame(size: size).hits.hit(at: Point(x: 40, y: 10)), .detail)
        XCTAssertEqual(app.frame(size: size).hits.hit(at: Point(x: 5, y: 22)), .elsewhere, "the status line")
        XCTAssertEqual(app.frame(size: Size(width: 30, height: 8)).hits.hit(at: Point(x: 5, y: 3)), .elsewhere, "too small")

        // Scrolled down, a row is hit by its place in the list, not on screen (keys act once
        // the screen is large enough again).
        _ = app.frame(size: size)
        _ = app.apply(.key(.character("G")))
        let text = screen(app)
        XCTAssertTrue(text.contains("│  Book 30"), text)
        XCTAssertEqual(app.frame(size: size).hits.hit(at: Point(x: 5, y: 3)), .row(12))
    }

    func testAClickSelectsARowOrATabAndTheWheelScrolls() async throws {
        let app = try await drawnApp()
        app.apply(.mouse(.press, on: app.frame(size: size).hits.hit(at: Point(x: 5, y: 7))))
        XCTAssertTrue(screen(app).contains("┌ books/b05 "), screen(app))
        app.apply(.mouse(.wheelDown, on: app.frame(size: size).hits.hit(at: Point(x: 5, y: 7))))
        XCTAssertTrue(screen(app).contains("┌ books/b08 "), "three rows a turn:\n\(screen(app))")
        app.apply(.mouse(.wheelUp, on: app.frame(size: size).hits.hit(at: Point(x: 5, y: 20))))
        app.apply(.mouse(.wheelUp, on: app.frame(size: size).hits.hit(at: Point(x: 5, y: 20))))
        XCTAssertTrue(screen(app).contains("┌ books/b02 "), screen(app))
        app.apply(.mouse(.press, on: app.frame(size: size).hits.hit(at: Point(x: 12, y: 0))))
        XCTAssertTrue(screen(app).contains("┌ Colors "), "a click on a tab switches to it:\n\(screen(app))")
    }

    func testTheWheelOverTheDetailScrollsItAndTheHelpScrollsAnywhere() async throws {
        let app = try await drawnApp()
        XCTAssertTrue(screen(app).contains("│ Title "), screen(app))
        app.apply(.mouse(.wheelDown, on: app.frame(size: size).hits.hit(at: Point(x: 60, y: 10))))
        XCTAssertFalse(screen(app).contains("│ Title "), "the detail scrolled:\n\(screen(app))")
        XCTAssertTrue(screen(app).contains("┌ books/b01 "), "the selection stays:\n\(screen(app))")
        app.apply(.mouse(.wheelUp, on: app.frame(size: size).hits.hit(at: Point(x: 60, y: 10))))
        XCTAssertTrue(screen(app).contains("│ Title "), screen(app))

        _ = app.apply(.key(.character("?")))
        XCTAssertTrue(screen(app).contains("Move up"))
        for _ in 0..<20 { _ = app.apply(.key(.pageDown)) }
        let help = screen(app).components(separatedBy: "\n")
        XCTAssertTrue(help.contains { $0.contains("Click ") && $0.contains("Select a row or a tab; a column's title sorts by it") }, "the help lists the mouse:\n\(screen(app))")
        XCTAssertTrue(help.contains { $0.contains("Wheel ") && $0.contains("Scroll what is under the pointer") }, screen(app))
        XCTAssertTrue(screen(app).contains("Mouse (off with --no-mouse)"), screen(app))
        _ = app.apply(.key(.character("g")))
        app.apply(.mouse(.wheelDown, on: app.frame(size: size).hits.hit(at: Point(x: 5, y: 5))))
        XCTAssertFalse(screen(app).contains("Move up"), "the wheel scrolls the help:\n\(screen(app))")
    }

    func testAClickOnAColumnsTitleSortsByItAndAgainReverses() async throws {
        let app = try await drawnApp()
        let header = screen(app).components(separatedBy: "\n")[2]
        let pages = try XCTUnwrap(header.range(of: "Pages"))
        let x = header.distance(from: header.startIndex, to: pages.lowerBound) + 1
        XCTAssertEqual(app.frame(size: size).hits.hit(at: Point(x: x, y: 2)), .header(column: 2), header)
        app.apply(.mouse(.press, on: app.frame(size: size).hits.hit(at: Point(x: x, y: 2))))
        XCTAssertTrue(screen(app).contains("Pages ▲"), screen(app))
        XCTAssertEqual(app.notice, "Sorted by Pages ▲ ascending")
        app.apply(.mouse(.press, on: app.frame(size: size).hits.hit(at: Point(x: x, y: 2))))
        XCTAssertTrue(screen(app).contains("Pages ▼"), screen(app))
        // The selected book (1 page) stays in view, now last: the most pages come first.
        let numbers = screen(app).components(separatedBy: "\n").compactMap { line -> Int? in
            guard line.hasPrefix("│  Book ") else { return nil }
            return Int(line.dropFirst("│  Book ".count).prefix(2))
        }
        XCTAssertEqual(numbers, Array((1...18).reversed()), screen(app))
    }

    func testAClickDoesNothingWhileAFormIsOpen() async throws {
        let app = try await drawnApp()
        _ = app.apply(.key(.character("e")))
        app.apply(.mouse(.press, on: app.frame(size: size).hits.hit(at: Point(x: 5, y: 7))))
        app.apply(.mouse(.press, on: app.frame(size: size).hits.hit(at: Point(x: 12, y: 0))))
        let text = screen(app)
        XCTAssertTrue(text.contains("Edit books/b01"), text)
        XCTAssertTrue(text.contains("┌ Books "), text)
    }
}
