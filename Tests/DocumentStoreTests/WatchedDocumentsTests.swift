@testable import DocumentStore
import Foundation
import XCTest

/// What every backend's listeners rely on: a document counts as changed only when what is
/// stored differs, an unchanged one keeps its snapshot, and changes wait until taken. What the
/// first look took is not kept as changes (the first delivery sends every document).
final class WatchedDocumentsTests: StoreTestCase {
    private func snapshot(_ id: String, _ stored: StoredDocument) -> QueryDocumentSnapshot {
        QueryDocumentSnapshot(reference: db.document("books/\(id)"), stored: stored)
    }

    func testTheSameContentKeepsItsSnapshotAndIsNoChange() {
        let documents = WatchedDocuments()
        let first = documents.take("a", .unreadable("x")) { snapshot("a", .unreadable("x")) }
        XCTAssertEqual(documents.takeChanged(), [], "the first look: everything is new, no set kept")
        var madeAgain = false
        let second = documents.take("a", .unreadable("x")) {
            madeAgain = true
            return snapshot("a", .unreadable("x"))
        }
        XCTAssertTrue(first === second, "the snapshot held")
        XCTAssertFalse(madeAgain, "no snapshot is made for what did not change")
        XCTAssertEqual(documents.takeChanged(), [])
        documents.take("a", .unreadable("y")) { snapshot("a", .unreadable("y")) }
        XCTAssertEqual(documents.takeChanged(), ["a"])
    }

    func testMissingRemovesAndChangesWaitUntilTaken() {
        let documents = WatchedDocuments()
        XCTAssertEqual(documents.takeChanged(), [], "a first look that found nothing")
        for id in ["a", "b", "c"] { documents.take(ExactID(id), .unreadable(id)) { snapshot(id, .unreadable(id)) } }
        XCTAssertEqual(documents.takeChanged(), ["a", "b", "c"])
        documents.take("a", .missing) { snapshot("a", .missing) }
        documents.remove("z")  // never held: no change
        XCTAssertEqual(documents.takeChanged(), ["a"])
        documents.removeAll(except: ["b"])
        documents.take("d", .unreadable("d")) { snapshot("d", .unreadable("d")) }
        // A look that fails here leaves its changes for the next one to send.
        documents.take("b", .unreadable("B")) { snapshot("b", .unreadable("B")) }
        XCTAssertEqual(documents.takeChanged(), ["b", "c", "d"])
        XCTAssertEqual(Set(documents.keys), ["b", "d"])
    }

    func testADocumentListenersDocumentChangesOnlyWithItsContent() {
        let documents = WatchedDocuments()
        let reference = db.document("books/a")
        XCTAssertEqual(documents.takeChanged(), [])
        documents.take(document: .missing, at: reference)
        XCTAssertEqual(documents.takeChanged(), ["a"], "a missing document is news the first time")
        let held = documents.document
        documents.take(document: .missing, at: reference)
        XCTAssertTrue(documents.document === held)
        XCTAssertEqual(documents.takeChanged(), [])
        documents.take(document: .unreadable("x"), at: reference)
        XCTAssertEqual(documents.takeChanged(), ["a"])
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
        let table = Dictionary(uniqueKeysWithValues: documents.map { ($0.key, $0) })
        for query in [db.collection("books"), db.collection("books").whereField("n", isGreaterThan: 2),
                      db.collection("books").order(by: "n", descending: true), db.collection("books").order(by: FieldPath.documentID(), descending: true)] {
            let hinted = LiveQueryResults(evaluator: query.evaluator, documents: table, inIDOrder: documents).view
            let sorted = LiveQueryResults(evaluator: query.evaluator, documents: table).view
            XCTAssertEqual(hinted.map(\.documentID), sorted.map(\.documentID))
        }
    }
}
