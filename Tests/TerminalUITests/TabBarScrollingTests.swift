import DocumentStore
import Foundation
import TerminalKit
@testable import TerminalUI
import XCTest

/// Tabs that do not fit the width: the bar shows the page holding the active tab, and marks
/// the tabs hidden on either side; clicks land on the tabs as drawn.
@MainActor
final class TabBarScrollingTests: XCTestCase {
    private let titles = (1...8).map { "\($0) Tab\($0)" }  // " 1 Tab1 " is 8 columns wide

    func testTheActiveTabIsShownWithMarkersForTheHiddenTabs() {
        assertLines(rendered(TabBar(titles: titles, selected: 0), width: 30, height: 1), " 1 Tab1   2 Tab2   3 Tab3    ›")
        let middle = rendered(TabBar(titles: titles, selected: 4), width: 30, height: 1)
        assertLines(middle, "‹  4 Tab4   5 Tab5   6 Tab6  ›")
        XCTAssertTrue(middle.style(at: Point(x: 12, y: 0)).reverse, "5 Tab5 is the active tab")
        assertLines(rendered(TabBar(titles: titles, selected: 7), width: 30, height: 1), "‹  7 Tab7   8 Tab8")
        // All fit: no marker.
        assertLines(rendered(TabBar(titles: titles, selected: 7), width: 71, height: 1),
                    " 1 Tab1   2 Tab2   3 Tab3   4 Tab4   5 Tab5   6 Tab6   7 Tab7   8 Tab8")
    }

    func testTheLastOfManyTabsIsShown() {
        let many = (1...717).map { "\($0) folder\($0)" }
        let line = rendered(TabBar(titles: many, selected: 716), width: 100, height: 1).lines[0]
        XCTAssertTrue(line.hasPrefix("‹ "), line)
        XCTAssertTrue(line.contains(" 717 folder717 "), line)
        XCTAssertFalse(line.hasSuffix("›"), line)
    }

    func testAClickLandsOnTheTabsOfTheShownPage() {
        let bar = TabBar(titles: titles, selected: 4)
        XCTAssertNil(bar.index(atColumn: 0, width: 30), "the marker")
        XCTAssertEqual(bar.index(atColumn: 2, width: 30), 3)
        XCTAssertEqual(bar.index(atColumn: 9, width: 30), 3)
        XCTAssertNil(bar.index(atColumn: 10, width: 30))
        XCTAssertEqual(bar.index(atColumn: 11, width: 30), 4)
        XCTAssertNil(bar.index(atColumn: 29, width: 30), "the marker")
    }

    func testATabChosenByNumberIsShownAtSixtyColumns() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shelf-tabs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        for collection in ["books", "notes", "papers"] {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent(collection), withIntermediateDirectories: true)
        }
        // The start's listing of the collections, done at once: notes and papers are tabs.
        let app = AppModel(store: try Firestore(directory: folder), colorMode: .none, effects: SynchronousEffects())
        try await app.deliver()
        let size = Size(width: 60, height: 16)
        var bar = app.frame(size: size).canvas.lines[0]
        XCTAssertFalse(bar.contains("6 notes"), bar)
        XCTAssertTrue(bar.hasSuffix("›"), bar)
        _ = app.apply(.key(.character("6")))
        bar = app.frame(size: size).canvas.lines[0]
        XCTAssertTrue(bar.hasPrefix("‹ "), bar)
        let column = try XCTUnwrap(bar.range(of: "6 notes").map { bar.distance(from: bar.startIndex, to: $0.lowerBound) }, bar)
        XCTAssertEqual(app.frame(size: size).hits.hit(at: Point(x: column, y: 0)), .tab(5))
        _ = app.apply(.key(.backTab))
        _ = app.apply(.key(.backTab))
        bar = app.frame(size: size).canvas.lines[0]
        XCTAssertTrue(bar.contains("4 Offices"), bar)
    }
}
