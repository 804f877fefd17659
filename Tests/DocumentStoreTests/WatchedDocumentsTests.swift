@testable import DocumentStore
import Foundation
import XCTest

/// What every backend's listeners rely on: a document counts as changed only when what is
/// stored differs, an unchanged one keeps its snapshot, and changes wait until taken. What the
/// first look took is not kept as changes (the first delivery sends every document).
final class WatchedDocumentsTests: StoreTestCase {
    private func changedKeys(_ documents: WatchedDocuments) -> Set<ExactID> { Set(documents.takeChanged().keys) }

    private func snapshot(_ id: String, _ stored: StoredDocument) -> QueryDocumentSnapshot {
        QueryDocumentSnapshot(reference: db.document("books/\(id)"), stored: stored)
    }

    func testTheSameContentKeepsItsSnapshotAndIsNoChange() {
        let documents = WatchedDocuments()
        let first = documents.take("a", .unreadable("x")) { snapshot("a", .unreadable("x")) }
        XCTAssertEqual(changedKeys(documents), [], "the first look: everything is new, no set kept")
        var madeAgain = false
        let second = documents.take("a", .unreadable("x")) {
            madeAgain = true
            return snapshot("a", .unreadable("x"))
        }
        XCTAssertTrue(first === second, "the snapshot held")
        XCTAssertFalse(madeAgain, "no snapshot is made for what did not change")
        XCTAssertEqual(changedKeys(documents), [])
        documents.take("a", .unreadable("y")) { snapshot("a", .unreadable("y")) }
        XCTAssertEqual(changedKeys(documents), ["a"])
    }

    func testMissingRemovesAndChangesWaitUntilTaken() {
        let documents = WatchedDocuments()
        XCTAssertEqual(changedKeys(documents), [], "a first look that found nothing")
        for id in ["a", "b", "c"] { documents.take(ExactID(id), .unreadable(id)) { snapshot(id, .unreadable(id)) } }
        XCTAssertEqual(changedKeys(documents), ["a", "b", "c"])
        documents.take("a", .missing) { snapshot("a", .missing) }
        documents.remove("z")  // never held: no change
        XCTAssertEqual(changedKeys(documents), ["a"])
        documents.removeAll(except: ["b"])
        documents.take("d", .unreadable("d")) { snapshot("d", .unreadable("d")) }
        // A look that fails here leaves its changes for the next one to send.
        documents.take("b", .unreadable("B")) { snapshot("b", .unreadable("B")) }
        XCTAssertEqual(changedKeys(documents), ["b", "c", "d"])
        XCTAssertEqual(Set(documents.keys), ["b", "d"])
    }

    /// Each change comes with the snapshot the listeners were last told of: the first one
    /// replaced since, however often it changed in between, and none for a new document.
    func testChangesKeepTheSnapshotTheListenersWereToldOf() {
        let documents = WatchedDocuments()
        let a1 = documents.take("a", .unreadable("1")) { snapshot("a", .unreadable("1")) }!
        _ = documents.takeChanged()
        documents.take("a", .unreadable("2")) { snapshot("a", .unreadable("2")) }
        documents.take("a", .unreadable("3")) { snapshot("a", .unreadable("3")) }
        documents.take("n", .unreadable("n")) { snapshot("n", .unreadable("n")) }
        documents.remove("n")
        XCTAssertTrue(documents.hasChanges)
        let changes = documents.takeChanged()
        XCTAssertTrue(changes["a"]! === a1)
        XCTAssertEqual(changes.index(forKey: "n").map { changes[$0].value == nil }, true, "new to the listeners: nothing held")
        XCTAssertFalse(documents.hasChanges)
        let a3 = documents["a"]!
        documents.remove("a")
        XCTAssertTrue(documents.takeChanged()["a"]! === a3)
    }

    /// A query listener's results follow changes by the snapshots held before, with a filter
    /// and a limit, as a rebuild from the documents would have them.
    func testResultsFollowChangesAsARebuildWouldHaveThem() {
        let documents = WatchedDocuments()
        func put(_ id: String, _ n: Int) { documents.take(ExactID(id), .fields(["n": .integer(Int64(n))])) { snapshot(id, .fields(["n": .integer(Int64(n))])) } }
        for index in 0..<30 { put("b\(index)", index % 5) }
        _ = documents.takeChanged()
        let queries = [db.collection("books").whereField("n", isGreaterThan: 1), db.collection("books").order(by: "n").limit(to: 4),
                       db.collection("books").order(by: "n", descending: true)]
        let results = queries.map { LiveQueryResults(evaluator: $0.evaluator, documents: documents.all) }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<40 {
            for _ in 0..<3 {
                let id = "b\(Int.random(in: 0..<35, using: &generator))"
                if Bool.random(using: &generator) { put(id, Int.random(in: 0..<5, using: &generator)) } else { documents.remove(ExactID(id)) }
            }
            let changes = documents.takeChanged()
            for (query, live) in zip(queries, results) {
                _ = live.update(documents: documents, changed: changes)
                XCTAssertEqual(live.view.map(\.documentID), LiveQueryResults(evaluator: query.evaluator, documents: documents.all).view.map(\.documentID))
            }
        }
    }

    func testADocumentListenersDocumentChangesOnlyWithItsContent() {
        let documents = WatchedDocuments()
        let reference = db.document("books/a")
        XCTAssertEqual(changedKeys(documents), [])
        documents.take(document: .missing, at: reference)
        XCTAssertEqual(changedKeys(documents), ["a"], "a missing document is news the first time")
        let held = documents.document
        documents.take(document: .missing, at: reference)
        XCTAssertTrue(documents.document === held)
        XCTAssertEqual(changedKeys(documents), [])
        documents.take(document: .unreadable("x"), at: reference)
        XCTAssertEqual(changedKeys(documents), ["a"])
    }

    /// A first read's documents in id order are kept for the first snapshot (not sorted again)
    /// only while they are every document held, and dropped at the first change.
    func testDocumentsHeldInIDOrderAreDroppedAtTheFirstChange() {
        let documents = WatchedDocuments()
        let read = ["a", "b", "c"].map { id in documents.take(ExactID(id), .unreadable(id)) { snapshot(id, .unreadable(id)) }! }
        documents.holdInIDOrder(Array(read.prefix(2)))
        XCTAssertNil(documents.inIDOrder, "not every document: sorted as any other")
        documents.holdInIDOrder(read)
        XCTAssertEqual(documents.inIDOrder?.map(\.documentID), ["a", "b", "c"])
        documents.take("b", .unreadable("b")) { snapshot("b", .unreadable("b")) }
        XCTAssertNotNil(documents.inIDOrder, "the same content is no change")
        documents.take("b", .unreadable("B")) { snapshot("b", .unreadable("B")) }
        XCTAssertNil(documents.inIDOrder)
        documents.holdInIDOrder(read)
        documents.remove("a")
        XCTAssertNil(documents.inIDOrder)
    }

    /// The first results from documents in id order are those sorted from the table, with a
    /// filter and in any order.
    func testFirstResultsFromDocumentsInIDOrderAreTheSortedOnes() {
        let documents = (0..<50).map { index in
            QueryDocumentSnapshot(reference: db.document(String(format: "books/b%02d", index)), stored: .fields(["n": .integer(Int64(index % 7))]))
        }
        let table = documents.shuffled()
        for query in [db.collection("books"), db.collection("books").whereField("n", isGreaterThan: 2),
                      db.collection("books").order(by: "n", descending: true), db.collection("books").order(by: FieldPath.documentID(), descending: true)] {
            let hinted = LiveQueryResults(evaluator: query.evaluator, documents: table, inIDOrder: documents).view
            let sorted = LiveQueryResults(evaluator: query.evaluator, documents: table).view
            XCTAssertEqual(hinted.map(\.documentID), sorted.map(\.documentID))
        }
    }
}
