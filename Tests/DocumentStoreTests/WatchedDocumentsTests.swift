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
}
