@testable import DocumentStore
import Foundation
import XCTest

/// Listeners on every query form, with `DocumentChange` indices right as documents enter,
/// move within and leave the results, also through limits, `limit(toLast:)` and cursors; and
/// `snapshots` as an AsyncSequence.
final class QueryListenerTests: QueryTestCase {
    private var scores: CollectionReference { db.collection("scores") }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try seed("scores", ["a": ["score": 10], "b": ["score": 20], "c": ["score": 30], "d": ["score": 40], "e": ["score": 50]])
    }

    private func listen(_ query: Query) -> ListenerRecorder<QuerySnapshot> {
        let recorder = ListenerRecorder<QuerySnapshot>()
        track(query.addSnapshotListener(recorder.listener))
        return recorder
    }

    func testALimitedDescendingListener() throws {
        let recorder = listen(scores.whereField("score", isGreaterThan: 15).order(by: "score", descending: true).limit(to: 2))
        XCTAssertEqual(recorder.snapshot(1)?.ids, ["e", "d"])
        try scores.document("b").update(["score": 45])  // enters between e and d, pushes d out
        let entered = try XCTUnwrap(recorder.snapshot(2))
        XCTAssertEqual(entered.changes, [Change(.removed, "d", 1, nil), Change(.added, "b", nil, 1)])
        try scores.document("e").update(["score": 5])  // leaves (fails the filter); d comes back
        let left = try XCTUnwrap(recorder.snapshot(3))
        XCTAssertEqual(left.changes, [Change(.removed, "e", 0, nil), Change(.added, "d", nil, 1)])
        XCTAssertEqual(left.ids, ["b", "d"])
        try scores.document("d").update(["score": 46])  // moves within the page
        XCTAssertEqual(recorder.snapshot(4)?.changes, [Change(.modified, "d", 1, 0)])
        try scores.document("a").update(["score": 11])  // outside: nothing
        try recorder.expectNothing("a change below the page", before: {
            try scores.document("b").update(["probe": true])
        }, isProbe: { $0.changes.map(\.id) == ["b"] })
    }

    func testLimitToLastListenerAndAWindowItSkipsOver() throws {
        let last = listen(scores.order(by: "score").limit(toLast: 2))
        let window = listen(scores.order(by: "score").start(after: [10]).end(at: [30]))
        XCTAssertEqual(last.snapshot(1)?.ids, ["d", "e"])
        XCTAssertEqual(window.snapshot(1)?.ids, ["b", "c"])
        try scores.document("a").update(["score": 45])  // into the last two, pushing d out
        let pushed = try XCTUnwrap(last.snapshot(2))
        XCTAssertEqual(pushed.changes, [Change(.removed, "d", 0, nil), Change(.added, "a", nil, 0)])
        XCTAssertEqual(pushed.ids, ["a", "e"])
        try window.expectNothing("a moved from before the window to after it", before: {
            try scores.document("c").update(["probe": true])
        }, isProbe: { $0.changes.map(\.id) == ["c"] })
    }

    func testACursorListenerSeesDocumentsCrossTheBound() throws {
        let window = listen(scores.order(by: "score").start(after: [10]).end(at: [30]))
        XCTAssertEqual(window.snapshot(1)?.ids, ["b", "c"])
        try scores.document("a").update(["score": 25])
        XCTAssertEqual(window.snapshot(2)?.changes, [Change(.added, "a", nil, 1)])
        try scores.document("c").update(["score": 31])
        XCTAssertEqual(window.snapshot(3)?.changes, [Change(.removed, "c", 2, nil)])
        XCTAssertEqual(window.snapshots.last?.ids, ["b", "a"])
    }

    func testAnOrQueryListener() throws {
        let recorder = listen(scores.whereFilter(Filter.orFilter([Filter.whereField("score", isEqualTo: 10), Filter.whereField("score", isEqualTo: 50)])))
        XCTAssertEqual(recorder.snapshot(1)?.ids, ["a", "e"])
        try scores.document("c").update(["score": 50])
        XCTAssertEqual(recorder.snapshot(2)?.changes, [Change(.added, "c", nil, 1)])
    }

    func testSnapshotsAsAnAsyncSequence() async throws {
        var seen: [[String]] = []
        for try await snapshot in scores.order(by: "score").limit(to: 1).snapshots {
            seen.append(snapshot.documents.map(\.documentID))
            if seen.count == 1 { try scores.document("z").write(["score": 1]) } else { break }
        }
        XCTAssertEqual(seen, [["a"], ["z"]])
        var documents: [Bool] = []
        for try await snapshot in scores.document("a").snapshots(includeMetadataChanges: true) {
            documents.append(snapshot.exists)
            break
        }
        XCTAssertEqual(documents, [true])
        XCTAssertEqual(db.activeWatcherCount, 0, "leaving the loop removes the listener")
    }

    /// Firebase's metadata forms on queries: the store's own write comes pending (and then
    /// committed, which `PendingWritesTests` follows).
    func testQueryMetadataForms() async throws {
        var seen: [[String]] = []
        for try await snapshot in scores.whereField("score", isGreaterThan: 40).snapshots(includeMetadataChanges: true) {
            seen.append(snapshot.documents.map(\.documentID))
            XCTAssertEqual(snapshot.documentChanges(includeMetadataChanges: true).count, snapshot.documentChanges.count)
            XCTAssertEqual(snapshot.metadata.hasPendingWrites, seen.count == 2, "the write of z, pending")
            XCTAssertFalse(snapshot.metadata.isFromCache)
            if seen.count == 1 { try scores.document("z").write(["score": 99]) } else { break }
        }
        XCTAssertEqual(seen, [["e"], ["e", "z"]])
        let recorder = ListenerRecorder<QuerySnapshot>()
        let registration = scores.order(by: "score", descending: true).limit(to: 2)
            .addSnapshotListener(includeMetadataChanges: true, listener: recorder.listener)
        defer { registration.remove() }
        XCTAssertEqual(recorder.snapshot(1)?.ids, ["z", "e"])
        XCTAssertEqual(recorder.snapshot(1)?.documentChanges(includeMetadataChanges: false).map(\.type), [.added, .added])
    }

    func testAnErrorEndsTheSequence() async {
        let error = await thrownError { for try await _ in self.scores.limit(toLast: 1).snapshots {} }
        XCTAssertEqual((error as? FirestoreErrorCode)?.code, FirestoreErrorCode.invalidArgument.rawValue)
    }

    func testAOneOffReadWhileListeningSeesTheLatestWrite() async throws {
        let recorder = listen(scores)
        _ = recorder.snapshot(1)
        try scores.document("f").write(["score": 60])
        let top = try await scores.order(by: "score", descending: true).limit(to: 1).getDocuments()
        XCTAssertEqual(top.documents.map(\.documentID), ["f"])
    }
}
