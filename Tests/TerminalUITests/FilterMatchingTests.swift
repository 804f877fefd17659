import DocumentStore
import Foundation
import TerminalKit
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
        let fields = Fields(["title": .string("Straße ΣΟΦΙΑ 📚"), "pages": .integer(42), "tags": .array([.string("Zola\u{308}"), .string("#EC4BE9")])])
        for id in ["b1", "ÉMILE-Brontë", "Émile"] {
            let snapshot = DocumentSnapshot(reference: store.document("books/\(id)"), stored: .fields(fields))
            let lines = [id, "Straße ΣΟΦΙΑ 📚", "42", "", "Zola\u{308}, #EC4BE9"]
            XCTAssertEqual(Column.searchText(of: snapshot, among: columns).bytes, SearchText(lines.joined(separator: "\n")).bytes, id)
        }
    }

    /// A default column's cell folded in place from the stored value gives the bytes its
    /// cell's text folds to, for every kind of value, nested fields and missing ones.
    func testACellFoldedInPlaceIsItsStoredCellsTextFolded() throws {
        let store = try Firestore(directory: FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString))
        let long = String(repeating: "Ärger ", count: 20)
        let values: [FirestoreValue] = [
            .string("Moby Dick"), .string(long), .string(""), .integer(-42), .double(2.5), .boolean(true), .null,
            .timestamp(Timestamp(seconds: 1_700_000_000, nanoseconds: 5)),
            .array([.string("Sci-Fi"), .null, .integer(7), .string("Ünder")]), .array([]),
            .map(Fields(["small": .string("S")])), .bytes(Data([1, 2])),
        ]
        for value in values {
            let fields = Fields(["value": value, "cover": .map(Fields(["small": value]))])
            let snapshot = DocumentSnapshot(reference: store.document("books/b1"), stored: .fields(fields))
            for path in [["value"], ["cover", "small"], ["missing"], ["value", "deeper"]] {
                var folded: [UInt8] = []
                StoredCell.folding(path)(snapshot, &folded)
                XCTAssertEqual(folded, TextFolding.fold(StoredCell.field(path)(snapshot)?.text ?? ""), "\(value) at \(path)")
            }
        }
        var unreadable: [UInt8] = []
        StoredCell.folding(["value"])(DocumentSnapshot(reference: store.document("books/b2"), stored: .unreadable("bad")), &unreadable)
        XCTAssertEqual(unreadable, [])
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
