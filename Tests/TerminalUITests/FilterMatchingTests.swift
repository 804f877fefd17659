@testable import TerminalUI
import XCTest

/// The filter compares folded text: case and accents ignored, matches shown as written.
final class FilterMatchingTests: XCTestCase {
    func testFoldingDropsCaseAndAccents() {
        XCTAssertEqual(TextFolding.fold("Brontë"), Array("bronte".utf8))
        XCTAssertEqual(TextFolding.fold("ÉMILE Zola"), Array("emile zola".utf8))
        XCTAssertEqual(TextFolding.fold("#EC4BE9"), Array("#ec4be9".utf8))
        // Composed or decomposed accents, letters beyond Latin, emoji: each folds as on its own.
        XCTAssertEqual(TextFolding.fold("Bronte\u{308} Tomás ΣΟΦΙΑ 📚"), TextFolding.fold("bronte tomas σοφια 📚"))
        XCTAssertEqual(TextFolding.fold("Straße Çà"), Array("straße ca".utf8))
        XCTAssertTrue(SearchText("Charlotte Brontë").contains(TextFolding.fold("BRONTE")))
        XCTAssertFalse(SearchText("Charlotte Bronte").contains(TextFolding.fold("brontes")))
    }

    func testARowsLinesFoldedOneAfterTheOtherAreTheirJoinedTextFolded() {
        for lines in [["b1", "Jane Eyre", "Charlotte Brontë"], ["ÉMILE", "", "Zola\u{308}"], [], ["Straße", "ΣΟΦΙΑ 📚", "#EC4BE9"]] {
            XCTAssertEqual(SearchText(lines: lines).bytes, SearchText(lines.joined(separator: "\n")).bytes, "\(lines)")
        }
    }

    func testEveryMatchIsHighlightedAsWritten() {
        let spans = Highlighter(query: "bro").spans("Brontë and brothers", style: .plain)
        XCTAssertEqual(spans.map(\.text), ["Bro", "ntë and ", "bro", "thers"])
        XCTAssertEqual(spans.map(\.style.underline), [true, false, true, false])
    }

    func testAnAccentedMatchHighlightsTheAccentedCharacter() {
        let spans = Highlighter(query: "tE").spans("Brontë", style: .plain)
        XCTAssertEqual(spans.map(\.text), ["Bron", "të"])
        XCTAssertEqual(spans.map(\.style.bold), [false, true])
    }

    func testNoQueryOrNoMatchLeavesTheTextWhole() {
        XCTAssertEqual(Highlighter(query: "").spans("Dune", style: .plain), [Span("Dune")])
        XCTAssertEqual(Highlighter(query: "zz").spans("Dune", style: .plain), [Span("Dune")])
    }

    /// A match cut by the column's width is marked as far as it shows: "Charlotte Bro…".
    func testAMatchCutByTheColumnIsMarkedWhereItShows() {
        let spans = Highlighter(query: "bronte").spans("Charlotte Brontë", style: .plain, maxWidth: 14)
        XCTAssertEqual(spans.map(\.text).joined().prefix(13), "Charlotte Bro")
        XCTAssertEqual(spans.first { $0.style.underline }?.text.prefix(3), "Bro")
    }
}
