@testable import DocumentStore
import Foundation
import XCTest

/// `StoreCopy` (`shelf export`'s walk): every document at every depth arrives with its types and
/// times, references re-pointed at the destination; what cannot be read or written is named,
/// left out, and the copy goes on.
final class StoreCopyTests: StoreTestCase {
    private var destination: TemporaryStore!

    override func setUpWithError() throws {
        try super.setUpWithError()
        destination = try TemporaryStore()
    }

    override func tearDown() {
        destination?.remove()
        destination = nil
        super.tearDown()
    }

    func testEveryDocumentAtEveryDepthArrivesWithItsTypesTimesAndReferencesRepointed() throws {
        try db.document("books/dune").write(["pages": 412, "rating": 4.0, "by": db.document("authors/herbert")])
        try db.document("books/dune/reviews/r1").write(["stars": 5])
        // Under a document that does not exist itself.
        try db.document("shelves/missing/items/i1").write(["n": 1])
        var events: [StoreCopy.Event] = []
        var copy = StoreCopy(into: destination.db) { events.append($0) }
        try copy.copy(from: db)
        XCTAssertEqual(copy.copied, 3)
        XCTAssertEqual(copy.collections, 4, "books, its reviews, shelves (no document of its own), the items under its missing shelf")
        let fields = try XCTUnwrap(try destination.db.document("books/dune").readDocument().stored.fields)
        XCTAssertEqual(fields["pages"], .integer(412))
        XCTAssertEqual(fields["rating"], .double(4.0), "a double stays a double")
        guard case .reference(let by)? = fields["by"] else { return XCTFail("\(String(describing: fields["by"]))") }
        XCTAssertTrue(by.firestore === destination.db, "re-pointed at the destination")
        XCTAssertEqual(by.path, "authors/herbert")
        XCTAssertTrue(try destination.db.document("shelves/missing/items/i1").readDocument().exists)
        XCTAssertEqual(try destination.db.documentTimes(["books/dune", "books/dune/reviews/r1"]),
                       try db.documentTimes(["books/dune", "books/dune/reviews/r1"]), "each keeps its create and update times")
        let finished = events.compactMap { if case .finished(let path, let read) = $0 { return "\(path) \(read)" } else { return nil } }
        XCTAssertEqual(finished, ["books 1", "books/dune/reviews 1", "shelves 0", "shelves/missing/items 1"])
    }

    func testAnUnreadableDocumentAndOneTooDeepToWriteAreNamedAndTheRestCopied() throws {
        try store.writeFile("misc/a.json", #"{"n": 1}"#)
        try store.writeFile("misc/broken.json", "{not json")
        // The store reads maps nested up to 100 levels, and writes at most 20 (Firestore's limit).
        try store.writeFile("misc/deep.json", String(repeating: #"{"a": "#, count: 30) + "1" + String(repeating: "}", count: 30))
        try store.writeFile("misc/z.json", #"{"n": 2}"#)
        var leftOut: [String] = []
        var copy = StoreCopy(into: destination.db) { event in
            if case .leftOut(let path, let reason, _) = event { leftOut.append("\(path) \(reason)") }
        }
        try copy.copy(from: db)
        XCTAssertEqual(copy.copied, 2)
        XCTAssertEqual(copy.unreadable, ["misc/broken"])
        XCTAssertEqual(copy.refused, ["misc/deep"])
        XCTAssertEqual(leftOut.sorted(), ["misc/broken unreadable", "misc/deep refused"])
        XCTAssertEqual(try destination.db.collection("misc").listDocuments().map(\.documentID).sorted(), ["a", "z"])
    }
}
