@testable import DocumentStore
import Foundation
import XCTest

/// Numeric document ids (`__id<n>__`): accepted, and ordered before every other id by their
/// number, as Firestore orders paths, wherever ids are ordered: a collection, a collection
/// group, cursors and filters on the id, and a listener's snapshots.
final class NumericIDOrderTests: QueryTestCase {
    private let seeded = ["__id10__", "__id-3__", "__id2__", "alpha", "Beta", "__idx", "0"]
    private let ordered = ["__id-3__", "__id2__", "__id10__", "0", "Beta", "__idx", "alpha"]
    private var items: CollectionReference { db.collection("items") }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try seed("items", Dictionary(uniqueKeysWithValues: seeded.map { ($0, ["n": 1]) }))
    }

    func testANumericIdIsWrittenAndReadBack() async throws {
        let read = try await items.document("__id10__").getDocument()
        XCTAssertTrue(read.exists)
        XCTAssertEqual(read.documentID, "__id10__")
    }

    func testACollectionListsNumericIdsFirstByTheirNumber() throws {
        XCTAssertEqual(ids(items), ordered)
#if SHELF_REMOTE_TESTS
        // A served query ordered by name descending is refused, as Google's emulator refuses it.
        XCTAssertThrowsError(try items.order(by: FieldPath.documentID(), descending: true).readSnapshot())
#else
        XCTAssertEqual(ids(items.order(by: FieldPath.documentID(), descending: true)), ordered.reversed())
#endif
        XCTAssertEqual(ids(items.order(by: "n")), ordered, "ties on a field break by id in the same order")
    }

    func testCursorsAndFiltersOnTheIdFollowTheSameOrder() throws {
        let byID = items.order(by: FieldPath.documentID())
        XCTAssertEqual(ids(byID.start(after: ["__id2__"])), Array(ordered.dropFirst(2)))
        XCTAssertEqual(ids(byID.end(before: ["0"])), Array(ordered.prefix(3)))
        XCTAssertEqual(ids(items.whereField(FieldPath.documentID(), isLessThan: "__id10__")), ["__id-3__", "__id2__"])
    }

    func testACollectionGroupOrdersNumericIdsFirstInEachSegment() throws {
        try db.document("shelves/__id5__/items/b").write(["n": 1])
        try db.document("shelves/__id40__/items/a").write(["n": 1])
        try db.document("shelves/zz/items/__id1__").write(["n": 1])
        let paths = try paths(db.collectionGroup("items"))
        XCTAssertEqual(paths.suffix(3), ["shelves/__id5__/items/b", "shelves/__id40__/items/a", "shelves/zz/items/__id1__"])
        XCTAssertEqual(Array(paths.prefix(ordered.count)), ordered.map { "items/\($0)" })
    }

    func testAListenerDeliversNumericIdsInTheSameOrder() throws {
        let delivered = expectation(description: "the first snapshot")
        track(items.addSnapshotListener { snapshot, _ in
            XCTAssertEqual(snapshot?.documents.map(\.documentID), self.ordered)
            delivered.fulfill()
        })
        wait(for: [delivered], timeout: 10)
    }
}
