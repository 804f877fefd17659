import DocumentStore
import Foundation
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

    /// The id and each column's stored cell, one line each (an absent field an empty line),
    /// folded as their joined text is, whether the id is ASCII or not.
    func testARowsSearchTextIsItsIdAndCellsOnALineEachFolded() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try Firestore(directory: folder)
        let columns = ["title", "pages", "missing", "tags"].map { Column<Int>(ColumnSpec($0, minWidth: 4)) { _ in "" } }
        let make = Column.searchTextMaker(among: columns)
        let fields = Fields(["title": .string("Straße ΣΟΦΙΑ 📚"), "pages": .integer(42), "tags": .array([.string("Zola\u{308}"), .string("#EC4BE9")])])
        for id in ["b1", "ÉMILE-Brontë", "Émile"] {
            let snapshot = DocumentSnapshot(reference: store.document("books/\(id)"), stored: .fields(fields))
            let lines = [id, "Straße ΣΟΦΙΑ 📚", "42", "", "Zola\u{308}, #EC4BE9"]
            XCTAssertEqual(make(snapshot).bytes, SearchText(lines.joined(separator: "\n")).bytes, id)
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
