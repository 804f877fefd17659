import DocumentStore
import Foundation
import TerminalKit
@testable import TerminalUI
import XCTest

/// Esc clears a filter but keeps its matches highlighted in the whole list, and n/N go from
/// one to the next, as n and N do after a search in less, vim and visidata.
@MainActor
final class MatchJumpTests: FolderAppTestCase {
    override func setUp() async throws {
        try await super.setUp()
        for (id, title, author) in [("a", "Alpha", "Ann Leckie"), ("b", "Beta", "Iain Banks"), ("c", "Gamma", "Ann Leckie"),
                                    ("d", "Delta", "Ursula Le Guin"), ("e", "Epsilon", "Ann Leckie")] {
            try folder.writeDocument("books/\(id)", #"{"author": "\#(author)", "numberOfPages": 100, "title": "\#(title)"}"#)
        }
    }

    private func key(_ app: AppModel, _ character: Character) { _ = app.apply(.key(.character(character))) }
    private func selected(_ app: AppModel) -> String? { app.state.lists.states["books"]?.selectedID }

    func testAfterEscNAndCapitalNWalkTheMatchesInTheWholeListRoundTheEnds() async throws {
        let app = try await makeApp()  // by title: Alpha, Beta, Delta, Epsilon, Gamma
        key(app, "/")
        for character in "leckie" { key(app, character) }
        _ = app.apply(.key(.enter))
        XCTAssertEqual(app.state.visibleRows(of: app.tab).count, 3)
        _ = app.apply(.key(.escape))
        XCTAssertEqual(app.notice, "Filter cleared: n and N go to its matches")
        XCTAssertEqual(app.state.visibleRows(of: app.tab).count, 5, "the whole list is back")
        XCTAssertEqual(selected(app), "a")

        key(app, "n")
        XCTAssertEqual(selected(app), "e", "Epsilon, the next match below Alpha")
        XCTAssertEqual(app.notice, "Match 2 of 3 for \"leckie\"")
        key(app, "n")
        XCTAssertEqual(selected(app), "c")
        key(app, "n")
        XCTAssertEqual(selected(app), "a", "round from the end to the start")
        key(app, "N")
        XCTAssertEqual(selected(app), "c", "and back round the start")

        let canvas = app.frame(size: Size(width: 100, height: 16)).canvas
        let line = canvas.lines[3]  // Alpha, Ann Leckie: still highlighted
        let x = line.distance(from: line.startIndex, to: try XCTUnwrap(line.range(of: "Leckie")).lowerBound)
        XCTAssertTrue(canvas[x, 3].style.underline, line)

        _ = app.apply(.key(.escape))
        key(app, "n")
        XCTAssertEqual(app.notice, "No matches to go to: filter with / first, then Esc", "a second Esc forgets them")
        XCTAssertFalse(app.frame(size: Size(width: 100, height: 16)).canvas[x, 3].style.underline)
    }
}
