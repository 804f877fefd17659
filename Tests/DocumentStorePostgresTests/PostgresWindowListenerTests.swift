@testable import DocumentStore
import Foundation
import XCTest

/// A listened query with a limit (a window of a list) on PostgreSQL reads the window, never the
/// whole collection: it is run again when its collection changes, and its listeners are told
/// what entered and left it.
final class PostgresWindowListenerTests: PostgresTestCase {
    private let count = 5_000

    override func setUpWithError() throws {
        try super.setUpWithError()
        try insertBooks(count)
    }

    private var window: Query { db.collection("books").order(by: "n").limit(to: 20) }

    func testTheWindowsWatcherHoldsTheWindowAndNoCollectionWatcherRuns() throws {
        let recorder = ListenerRecorder<QuerySnapshot>()
        track(window.addSnapshotListener(recorder.listener))
        let first = try XCTUnwrap(recorder.snapshot(1))
        XCTAssertEqual(first.documents.map { $0.data()["n"] as? Int }, Array(0..<20))
        let watcher = try XCTUnwrap(db.activeWatcher(.query(window.definition)), "the query is watched on its own")
        XCTAssertEqual(watcher.currentDocuments.count, 20, "it holds the window, not the \(count) documents")
        XCTAssertNil(db.activeWatcher(.collection(ResourcePath(segments: ["books"]))), "no watcher reads the whole collection")
    }

    func testAWriteThatEntersTheWindowPushesTheLastOneOut() throws {
        let recorder = ListenerRecorder<QuerySnapshot>()
        track(window.addSnapshotListener(recorder.listener))
        XCTAssertNotNil(recorder.snapshot(1))
        try anotherClient().document("books/first").write(["n": -1])
        let changed = try XCTUnwrap(recorder.snapshot(2))
        XCTAssertEqual(changed.documents.first?.documentID, "first")
        XCTAssertEqual(changed.count, 20)
        let changes = changed.documentChanges.map { "\($0.type) \($0.document.documentID) \($0.oldIndex) \($0.newIndex)" }
        XCTAssertEqual(Set(changes), ["removed b00019 19 \(DocumentChange.notFound)", "added first \(DocumentChange.notFound) 0"])
    }

    func testAWriteOutsideTheWindowChangesNothingInIt() throws {
        let recorder = ListenerRecorder<QuerySnapshot>()
        track(window.addSnapshotListener(recorder.listener))
        XCTAssertNotNil(recorder.snapshot(1))
        try anotherClient().document("books/b04000").update(["n": 40_000])
        try anotherClient().document("books/b00005").update(["n": 5.5])
        let changed = try XCTUnwrap(recorder.snapshot(2))
        XCTAssertEqual(changed.documentChanges.map(\.document.documentID), ["b00005"], "only the window's own document is told")
        XCTAssertEqual(changed.documentChanges.first?.type, .modified)
    }
}
