@testable import DocumentStore
import Foundation
import XCTest

/// This store's own write as Firebase's SDK shows it to the store's listeners: first the
/// latency-compensated snapshot (`hasPendingWrites`), then the committed one, which a listener
/// gets without `includeMetadataChanges` only when the data changed (QueryListener's
/// ShouldRaiseEvent; FIRNumericTransformTests waits for both events). Which snapshot follows
/// which is asserted by writing again, never by waiting for silence.
final class PendingWritesTests: StoreTestCase {
    private var counter: DocumentReference { db.document("counters/one") }

    private func listenToCounter(includeMetadataChanges: Bool) -> ListenerRecorder<DocumentSnapshot> {
        let recorder = ListenerRecorder<DocumentSnapshot>()
        track(counter.addSnapshotListener(includeMetadataChanges: includeMetadataChanges, listener: recorder.listener))
        return recorder
    }

    private func listenToCounters(includeMetadataChanges: Bool) -> ListenerRecorder<QuerySnapshot> {
        let recorder = ListenerRecorder<QuerySnapshot>()
        track(db.collection("counters").addSnapshotListener(includeMetadataChanges: includeMetadataChanges, listener: recorder.listener))
        return recorder
    }

    /// FIRNumericTransformTests' `expectLocalAndRemoteValue`: a local event, then a remote one.
    func testADocumentListenerWithMetadataChangesSeesTheLocalWriteThenTheCommittedOne() throws {
        let recorder = listenToCounter(includeMetadataChanges: true)
        let initial = try XCTUnwrap(recorder.snapshot(1))
        XCTAssertFalse(initial.exists)
        XCTAssertFalse(initial.metadata.hasPendingWrites)

        try counter.write(["sum": 1])
        let local = try XCTUnwrap(recorder.snapshot(2))
        XCTAssertEqual(local.get("sum") as? Int, 1)
        XCTAssertTrue(local.metadata.hasPendingWrites, "the local event")
        let remote = try XCTUnwrap(recorder.snapshot(3))
        XCTAssertEqual(remote.get("sum") as? Int, 1)
        XCTAssertFalse(remote.metadata.hasPendingWrites, "the remote event")

        try counter.update(["sum": FieldValue.increment(Int64(1337))])
        XCTAssertEqual(recorder.snapshot(4)?.get("sum") as? Int, 1338)
        XCTAssertEqual(recorder.snapshot(4)?.metadata.hasPendingWrites, true)
        XCTAssertEqual(recorder.snapshot(5)?.get("sum") as? Int, 1338)
        XCTAssertEqual(recorder.snapshot(5)?.metadata.hasPendingWrites, false)
    }

    /// Without metadata changes: the local snapshot, and no committed one when the data is the same.
    func testADocumentListenerWithoutMetadataChangesGetsOnlyTheLocalSnapshot() throws {
        let recorder = listenToCounter(includeMetadataChanges: false)
        XCTAssertEqual(recorder.snapshot(1)?.exists, false)
        try counter.write(["sum": 1])
        XCTAssertEqual(recorder.snapshot(2)?.metadata.hasPendingWrites, true)
        try counter.write(["sum": 2])
        let next = try XCTUnwrap(recorder.snapshot(3))
        XCTAssertEqual(next.get("sum") as? Int, 2, "no snapshot between the two writes' own")
        XCTAssertTrue(next.metadata.hasPendingWrites)
    }

    /// Firebase shows a deleted document pending nowhere: one snapshot, even with metadata changes.
    func testADeleteIsOneSnapshotWithoutPendingWrites() throws {
        try counter.write(["sum": 1])
        let recorder = listenToCounter(includeMetadataChanges: true)
        XCTAssertEqual(recorder.snapshot(1)?.metadata.hasPendingWrites, false)
        try counter.deleteDocument()
        let deleted = try XCTUnwrap(recorder.snapshot(2))
        XCTAssertFalse(deleted.exists)
        XCTAssertFalse(deleted.metadata.hasPendingWrites)
        try counter.write(["sum": 2])
        XCTAssertEqual(recorder.snapshot(3)?.get("sum") as? Int, 2, "nothing more for the delete")
    }

    /// The QuerySnapshot's `hasPendingWrites` says some document shown is pending; each
    /// document says whether it is.
    func testAQueryListenerWithMetadataChangesGetsAMetadataOnlyChangeOnCommit() throws {
        try db.document("counters/zero").write(["sum": 0])
        let recorder = listenToCounters(includeMetadataChanges: true)
        XCTAssertEqual(recorder.snapshot(1)?.metadata.hasPendingWrites, false)

        try counter.write(["sum": 1])
        let local = try XCTUnwrap(recorder.snapshot(2))
        XCTAssertTrue(local.metadata.hasPendingWrites)
        XCTAssertEqual(local.documentChanges.map { "\($0.type) \($0.document.documentID)" }, ["added one"])
        XCTAssertEqual(local.documents.map(\.metadata.hasPendingWrites), [true, false], "one and zero")

        let committed = try XCTUnwrap(recorder.snapshot(3))
        XCTAssertFalse(committed.metadata.hasPendingWrites)
        XCTAssertEqual(committed.documentChanges.count, 0, "no change of the data")
        let metadataChanges = committed.documentChanges(includeMetadataChanges: true)
        XCTAssertEqual(metadataChanges.map { "\($0.type) \($0.document.documentID) \($0.oldIndex) \($0.newIndex)" }, ["modified one 0 0"])
        XCTAssertEqual(committed.documents.map(\.metadata.hasPendingWrites), [false, false])
    }

    func testAQueryListenerWithoutMetadataChangesGetsOnlyTheLocalSnapshot() throws {
        let recorder = listenToCounters(includeMetadataChanges: false)
        XCTAssertEqual(recorder.snapshot(1)?.count, 0)
        try counter.write(["sum": 1])
        let local = try XCTUnwrap(recorder.snapshot(2))
        XCTAssertTrue(local.metadata.hasPendingWrites)
        XCTAssertEqual(local.documentChanges.map(\.type), [.added])
        try db.document("counters/two").write(["sum": 2])
        let next = try XCTUnwrap(recorder.snapshot(3))
        XCTAssertEqual(next.documentChanges.map { "\($0.type) \($0.document.documentID)" }, ["added two"], "no snapshot between the two writes' own")
        XCTAssertTrue(next.metadata.hasPendingWrites)
        XCTAssertEqual(next.documents.map(\.metadata.hasPendingWrites), [false, true], "one committed, two pending")
    }

    /// A write that changes nothing is a metadata change only: nothing for a plain listener.
    func testAWriteOfTheSameDataIsOnlyAMetadataChange() throws {
        try counter.write(["sum": 1])
        let plain = listenToCounter(includeMetadataChanges: false)
        let withMetadata = listenToCounter(includeMetadataChanges: true)
        XCTAssertNotNil(plain.snapshot(1))
        XCTAssertNotNil(withMetadata.snapshot(1))
        try counter.write(["sum": 1])
        XCTAssertEqual(withMetadata.snapshot(2)?.metadata.hasPendingWrites, true)
        XCTAssertEqual(withMetadata.snapshot(3)?.metadata.hasPendingWrites, false)
        try counter.write(["sum": 2])
        XCTAssertEqual(plain.snapshot(2)?.get("sum") as? Int, 2, "the same data gave the plain listener nothing")
    }

    /// Firebase's pending server timestamp: null, the estimate, or the value before, as asked;
    /// the committed snapshot holds the time, a change of the data every listener gets.
    func testAPendingServerTimestampReadsAsServerTimestampBehaviorSays() throws {
        let before = Timestamp(seconds: 1_000, nanoseconds: 0)
        try counter.write(["at": before, "sum": 1])
        let recorder = listenToCounter(includeMetadataChanges: false)
        XCTAssertNotNil(recorder.snapshot(1))
        try counter.update(["at": FieldValue.serverTimestamp()])

        let local = try XCTUnwrap(recorder.snapshot(2))
        XCTAssertTrue(local.metadata.hasPendingWrites)
        XCTAssertTrue(local.get("at") is NSNull, "\(String(describing: local.get("at")))")
        XCTAssertTrue(local.data()?["at"] is NSNull)
        XCTAssertEqual(local.get("at", serverTimestampBehavior: .previous) as? Timestamp, before)
        let estimate = try XCTUnwrap(local.get("at", serverTimestampBehavior: .estimate) as? Timestamp)
        XCTAssertGreaterThan(estimate, before)
        XCTAssertEqual(local.get("sum") as? Int, 1)

        let committed = try XCTUnwrap(recorder.snapshot(3), "the stamp's time is a change of the data")
        XCTAssertFalse(committed.metadata.hasPendingWrites)
        XCTAssertEqual(committed.get("at") as? Timestamp, try db.document("counters/one").readDocument().get("at") as? Timestamp)
    }

    /// A batch's and a transaction's writes are local writes too, each document pending.
    func testABatchAndATransactionAreShownPendingThenCommitted() throws {
        let recorder = listenToCounters(includeMetadataChanges: true)
        XCTAssertNotNil(recorder.snapshot(1))
        let batch = db.batch()
        batch.setData(["sum": 1], forDocument: counter)
        batch.setData(["sum": 2], forDocument: db.document("counters/two"))
        try batch.commitNow()
        XCTAssertEqual(recorder.snapshot(2)?.documents.map(\.metadata.hasPendingWrites), [true, true])
        XCTAssertEqual(recorder.snapshot(3)?.documents.map(\.metadata.hasPendingWrites), [false, false])

        let counter = self.counter
        try db.runTransactionNow { transaction in
            let sum = try transaction.getDocument(counter).get("sum") as? Int ?? 0
            transaction.updateData(["sum": sum + 1], forDocument: counter)
        }
        let local = try XCTUnwrap(recorder.snapshot(4))
        XCTAssertEqual(local.documents.map { "\($0.documentID) \($0.get("sum") ?? "") \($0.metadata.hasPendingWrites)" }, ["one 2 true", "two 2 false"])
        XCTAssertEqual(recorder.snapshot(5)?.metadata.hasPendingWrites, false)
    }

    /// A snapshot's `snapshots(includeMetadataChanges:)` sequence gets both snapshots too.
    func testTheSnapshotsSequenceWithMetadataChangesGetsBoth() async throws {
        var iterator = counter.snapshots(includeMetadataChanges: true).makeAsyncIterator()
        let first = try await iterator.next()
        XCTAssertEqual(first?.exists, false)
        try await counter.setData(["sum": 1])
        let local = try await iterator.next()
        XCTAssertEqual(local?.metadata.hasPendingWrites, true)
        let committed = try await iterator.next()
        XCTAssertEqual(committed?.metadata.hasPendingWrites, false)
    }
}
