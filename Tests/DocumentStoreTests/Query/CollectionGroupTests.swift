@testable import DocumentStore
import Foundation
import XCTest

/// `db.collectionGroup(_:)`: every collection with the id, at any depth, and nothing else;
/// with filters, orders by path, document-id cursors and filters as in Firebase's tests.
final class CollectionGroupTests: QueryTestCase {
    private func write(_ paths: [String]) throws {
        let batch = db.batch()
        for path in paths { batch.setData(["x": 1], forDocument: db.document(path)) }
        try batch.commitNow()
    }

    func testEveryCollectionWithTheIdAtAnyDepth() throws {
        try write([
            "abc/123/bg/cg-doc1", "abc/123/bg/cg-doc2", "bg/cg-doc3", "bg/cg-doc4", "def/456/bg/cg-doc5",
            "bg/virtual-doc/nested-coll/not-cg-doc", "xbg/not-cg-doc", "bgx/not-cg-doc", "abc/123/bgx/not-cg-doc",
            "abc/123/xbg/not-cg-doc", "abc/bg",
        ])
        XCTAssertEqual(ids(db.collectionGroup("bg")), ["cg-doc1", "cg-doc2", "cg-doc3", "cg-doc4", "cg-doc5"])
    }

    func testDocumentIdCursorsAndFiltersTakePaths() throws {
        try write(["a/a/bg/cg-doc1", "a/b/a/b/bg/cg-doc2", "a/b/bg/cg-doc3", "a/b/c/d/bg/cg-doc4", "a/c/bg/cg-doc5", "bg/cg-doc6", "a/b/nope/nope"])
        let group = db.collectionGroup("bg")
        XCTAssertEqual(ids(group.order(by: FieldPath.documentID()).start(after: ["a/b"]).end(before: ["a/b/bg/cg-doc3"])), ["cg-doc2"])
        XCTAssertEqual(ids(group.whereField(FieldPath.documentID(), isGreaterThanOrEqualTo: "a/b")
            .whereField(FieldPath.documentID(), isLessThan: "a/b/bg/cg-doc3")), ["cg-doc2"])
    }

    func testFiltersOrdersAndTiesByPath() throws {
        let batch = db.batch()
        batch.setData(["stars": 5], forDocument: db.document("books/dune/reviews/r1"))
        batch.setData(["stars": 5], forDocument: db.document("books/emma/reviews/r1"))
        batch.setData(["stars": 2], forDocument: db.document("films/alien/reviews/r2"))
        batch.setData(["stars": 4], forDocument: db.document("reviews/top"))
        try batch.commitNow()
        let paths = try self.paths(db.collectionGroup("reviews").whereField("stars", isGreaterThan: 3).order(by: "stars", descending: true))
        XCTAssertEqual(paths, ["books/emma/reviews/r1", "books/dune/reviews/r1", "reviews/top"])
    }

    func testAListenerSeesDocumentsInNewAndExistingCollections() throws {
        try write(["books/dune/reviews/r1"])
        let recorder = ListenerRecorder<QuerySnapshot>()
        track(db.collectionGroup("reviews").order(by: FieldPath.documentID()).addSnapshotListener(recorder.listener))
        XCTAssertEqual(recorder.snapshot(1)?.changes, [Change(.added, "r1", nil, 0)])
        try write(["authors/herbert/reviews/r9"])
        let added = try XCTUnwrap(recorder.snapshot(2))
        XCTAssertEqual(added.changes, [Change(.added, "r9", nil, 0)], "authors/… sorts before books/…")
        try store.writeFile("books/emma/reviews/r1.json", #"{"x": 2}"#)  // another program, a new folder
        let third = try XCTUnwrap(recorder.latest("books/emma/reviews/r1 arrives") { $0.count == 3 })
        XCTAssertEqual(third.documents.map(\.reference.path), ["authors/herbert/reviews/r9", "books/dune/reviews/r1", "books/emma/reviews/r1"])
        try db.document("books/dune/reviews/r1").deleteDocument()
        XCTAssertEqual(recorder.latest("the deletion") { $0.count == 2 }?.documentChanges.map(Change.init), [Change(.removed, "r1", 1, nil)])
    }

    func testAnIdWithASlashIsRefused() {
        XCTAssertEqual(invalidArgument(db.collectionGroup("a/b")), "Invalid collection ID (a/b). Collection IDs must not contain / in them.")
    }
}
