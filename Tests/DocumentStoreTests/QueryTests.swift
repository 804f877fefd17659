@testable import DocumentStore
import Foundation
import XCTest

/// Point 8, queries: `whereField(_:isEqualTo:)`, `order(by:descending:)` and `limit(to:)`, read
/// once and listened to, including documents that leave and enter a limited result; and the
/// indices of a snapshot's changes as Firestore defines them.
final class QueryTests: StoreTestCase {
    private var books: CollectionReference { db.collection("books") }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try store.writeFile("books/dune.json", #"{"title": "Dune", "pages": 412, "genre": "sf", "meta": {"lang": "en"}}"#)
        try store.writeFile("books/emma.json", #"{"title": "Emma", "pages": 474, "genre": "classic", "meta": {"lang": "en"}}"#)
        try store.writeFile("books/hyperion.json", #"{"title": "Hyperion", "pages": 482, "genre": "sf", "meta": {"lang": "en"}}"#)
        try store.writeFile("books/kindred.json", #"{"title": "Kindred", "pages": 264, "genre": "sf"}"#)
        try store.writeFile("books/quijote.json", #"{"title": "Don Quijote", "pages": 1056.0, "genre": "classic", "meta": {"lang": "es"}}"#)
        try store.writeFile("books/untitled.json", #"{"genre": "sf"}"#)
        try store.writeFile("books/broken.json", "{")
    }

    private func ids(_ query: Query) async throws -> [String] {
        try await query.getDocuments().ids
    }

    func testWhereFieldIsEqualTo() async throws {
        let sf = try await ids(books.whereField("genre", isEqualTo: "sf"))
        XCTAssertEqual(sf, ["dune", "hyperion", "kindred", "untitled"])
        let spanish = try await ids(books.whereField("meta.lang", isEqualTo: "es"))
        XCTAssertEqual(spanish, ["quijote"])
        let pages = try await ids(books.whereField("pages", isEqualTo: 1056))
        XCTAssertEqual(pages, ["quijote"], "1056 equals 1056.0, as numbers do in Firestore")
        let both = try await ids(books.whereField("genre", isEqualTo: "sf").whereField("pages", isEqualTo: 412))
        XCTAssertEqual(both, ["dune"])
        let none = try await ids(books.whereField("genre", isEqualTo: "poetry"))
        XCTAssertEqual(none, [])
    }

    func testOrderByLeavesOutDocumentsWithoutTheField() async throws {
        let byPages = try await ids(books.order(by: "pages"))
        XCTAssertEqual(byPages, ["kindred", "dune", "emma", "hyperion", "quijote"])
        let byPagesDescending = try await ids(books.order(by: "pages", descending: true))
        XCTAssertEqual(byPagesDescending, ["quijote", "hyperion", "emma", "dune", "kindred"])
        let byTitle = try await ids(books.order(by: "title"))
        XCTAssertEqual(byTitle, ["quijote", "dune", "emma", "hyperion", "kindred"])
        let byGenreThenPages = try await ids(books.order(by: "genre").order(by: "pages", descending: true))
        XCTAssertEqual(byGenreThenPages, ["quijote", "emma", "hyperion", "dune", "kindred"])
    }

    func testLimit() async throws {
        let firstTwo = try await ids(books.order(by: "pages").limit(to: 2))
        XCTAssertEqual(firstTwo, ["kindred", "dune"])
        let sfTwo = try await ids(books.whereField("genre", isEqualTo: "sf").limit(to: 2))
        XCTAssertEqual(sfTwo, ["dune", "hyperion"])
        let error = await thrownError { _ = try await self.books.limit(to: 0).getDocuments() }
        XCTAssertEqual(error as? FirestoreErrorCode, FirestoreErrorCode(.invalidArgument, "Invalid query. Query limit (0) is invalid. Limit must be positive."))
    }

    func testAFilteredListenerSeesDocumentsEnterAndLeave() throws {
        let recorder = ListenerRecorder<QuerySnapshot>()
        track(books.whereField("genre", isEqualTo: "classic").addSnapshotListener(recorder.listener))
        XCTAssertEqual(recorder.snapshot(1)?.changes, [Change(.added, "emma", nil, 0), Change(.added, "quijote", nil, 1)])

        try books.document("dune").update(["genre": "classic"])
        XCTAssertEqual(recorder.snapshot(2)?.changes, [Change(.added, "dune", nil, 0)])
        try books.document("emma").update(["genre": "romance"])
        XCTAssertEqual(recorder.snapshot(3)?.changes, [Change(.removed, "emma", 1, nil)])
        try books.document("quijote").update(["pages": 1000])
        XCTAssertEqual(recorder.snapshot(4)?.changes, [Change(.modified, "quijote", 1, 1)])
        try books.document("kindred").update(["pages": 1])
        try recorder.expectNothing("a change to a document outside the results", before: {
            try books.document("quijote").update(["pages": 1001])
        }, isProbe: { $0.changes.map(\.id) == ["quijote"] })
    }

    func testAnOrderedListenerReportsMovesWithOldAndNewIndex() throws {
        let recorder = ListenerRecorder<QuerySnapshot>()
        track(books.order(by: "pages").addSnapshotListener(recorder.listener))
        XCTAssertEqual(recorder.snapshot(1)?.ids, ["kindred", "dune", "emma", "hyperion", "quijote"])
        try books.document("kindred").update(["pages": 500])
        let moved = try XCTUnwrap(recorder.snapshot(2))
        XCTAssertEqual(moved.changes, [Change(.modified, "kindred", 0, 3)])
        XCTAssertEqual(moved.ids, ["dune", "emma", "hyperion", "kindred", "quijote"])
        try store.writeFile("books/zero.json", #"{"title": "Zero", "pages": 0}"#)
        XCTAssertEqual(recorder.snapshot(3)?.changes, [Change(.added, "zero", nil, 0)])
        try books.document("untitled").update(["pages": 300])
        XCTAssertEqual(recorder.snapshot(4)?.changes, [Change(.added, "untitled", nil, 1)], "gaining the ordered field brings it in")
    }

    func testALimitedListenerSeesADocumentLeaveAndAnotherEnter() throws {
        let recorder = ListenerRecorder<QuerySnapshot>()
        track(books.order(by: "pages").limit(to: 2).addSnapshotListener(recorder.listener))
        XCTAssertEqual(recorder.snapshot(1)?.changes, [Change(.added, "kindred", nil, 0), Change(.added, "dune", nil, 1)])

        // kindred grows past emma: it leaves the first two, emma enters.
        try books.document("kindred").update(["pages": 2000])
        let swapped = try XCTUnwrap(recorder.snapshot(2))
        XCTAssertEqual(swapped.changes, [Change(.removed, "kindred", 0, nil), Change(.added, "emma", nil, 1)])
        XCTAssertEqual(swapped.ids, ["dune", "emma"])

        // A new short book pushes emma out.
        try books.document("short").write(["title": "Short", "pages": 10])
        let pushed = try XCTUnwrap(recorder.snapshot(3))
        XCTAssertEqual(pushed.changes, [Change(.removed, "emma", 1, nil), Change(.added, "short", nil, 0)])
        XCTAssertEqual(pushed.ids, ["short", "dune"])

        // Deleting one lets the next one in.
        try books.document("short").deleteDocument()
        let refilled = try XCTUnwrap(recorder.snapshot(4))
        XCTAssertEqual(refilled.changes, [Change(.removed, "short", 0, nil), Change(.added, "emma", nil, 1)])

        // A change beyond the limit delivers nothing.
        try books.document("hyperion").update(["pages": 483])
        try recorder.expectNothing("a change outside the limit", before: {
            try books.document("dune").update(["probe": true])
        }, isProbe: { $0.changes.map(\.id) == ["dune"] })
    }

    // MARK: Indices of several changes at once

    private func document(_ id: String, pages: Int) -> QueryDocumentSnapshot {
        QueryDocumentSnapshot(reference: books.document(id), stored: .fields(["pages": .integer(Int64(pages))]))
    }

    func testIndicesApplyInOrderRemovalsThenAdditionsThenModifications() {
        let query = books.order(by: "pages")
        let old = [document("a", pages: 1), document("b", pages: 2), document("c", pages: 3), document("d", pages: 4)]
        var new = old
        let changes = ChangeSteps.apply(
            removed: [old[3], old[1]],
            added: [document("z", pages: 5), document("e", pages: 0)],
            modified: [(old[2], document("c", pages: -1)), (old[0], document("a", pages: 6))],
            to: &new, evaluator: query.evaluator)
        XCTAssertEqual(new.map(\.documentID), ["c", "e", "z", "a"])
        // Step by step: [a b c d] -b-> [a c d] -d-> [a c] +e-> [e a c] +z-> [e a c z]
        // c moves 2->0: [c e a z]; a moves 2->3: [c e z a].
        XCTAssertEqual(changes.map(Change.init), [
            Change(.removed, "b", 1, nil), Change(.removed, "d", 2, nil),
            Change(.added, "e", nil, 0), Change(.added, "z", nil, 3),
            Change(.modified, "c", 2, 0), Change(.modified, "a", 2, 3),
        ])
    }

    func testTiesAreOrderedByDocumentID() async throws {
        try store.writeFile("books/b-tie.json", #"{"pages": 7}"#)
        try store.writeFile("books/a-tie.json", #"{"pages": 7}"#)
        let ties = try await ids(books.whereField("pages", isEqualTo: 7).order(by: "pages"))
        XCTAssertEqual(ties, ["a-tie", "b-tie"])
    }
}
