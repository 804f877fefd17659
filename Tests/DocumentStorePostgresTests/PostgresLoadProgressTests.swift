@testable import DocumentStore
@testable import DocumentStorePostgres
import Foundation
import XCTest

/// A listener's first read of a large collection on PostgreSQL comes in slices by path, each
/// reported with its documents (`LoadProgress`), as a folder's does; a commit announced while
/// the slices are read is in the first snapshot, whole.
final class PostgresLoadProgressTests: PostgresTestCase {
    private let count = 20_000

    override func setUpWithError() throws {
        try super.setUpWithError()
        try insertBooks(count)
    }

    override func tearDown() {
        ServerChangeFeed.afterSlice = nil
        super.tearDown()
    }

    func testTheFirstReadIsReportedSliceBySliceWithEachDocumentOnce() throws {
        let reports = Locked<[LoadProgress]>([])
        let slices = Locked(0)
        ServerChangeFeed.afterSlice = { _, _ in slices.withLock { $0 += 1 } }
        let recorder = ListenerRecorder<QuerySnapshot>()
        track(db.collection("books").addSnapshotListener(progress: { progress in
            reports.withLock { $0.append(progress) }
        }, recorder.listener))
        let snapshot = try XCTUnwrap(recorder.snapshot(1))
        XCTAssertEqual(snapshot.count, count)
        let told = reports.withLock { $0 }
        XCTAssertEqual(told.map(\.read), [1_024, 17_408, 20_000], "a small first slice, then large ones")
        XCTAssertNil(told.first?.total, "the first slice is reported before the collection is counted")
        XCTAssertEqual(told.dropFirst().map(\.total), [count, count])
        let reported = told.flatMap(\.documents)
        XCTAssertEqual(reported.count, count, "each document reported once")
        let first = Dictionary(uniqueKeysWithValues: snapshot.documents.map { ($0.documentID, $0) })
        XCTAssertTrue(reported.allSatisfy { first[$0.documentID] === $0 }, "the same snapshots as the first snapshot's")
        // The changes were observed before the read began, so no later look reads it again.
        try store.waitForLooks(at: "books")
        XCTAssertEqual(slices.withLock { $0 }, 3, "the collection is read once")
    }

    func testACommitAnnouncedWhileReadingIsInTheFirstSnapshotWhole() throws {
        let other = try anotherClient()
        let wrote = Locked(false)
        ServerChangeFeed.afterSlice = { watcher, read in
            guard read == 1_024, !wrote.withLock({ $0 }) else { return }
            wrote.withLock { $0 = true }
            // One batch: a document of the slice already read, and one of a slice to come.
            let batch = other.batch()
            batch.updateData(["n": -1], forDocument: other.document("books/b00000"))
            batch.updateData(["n": -2], forDocument: other.document("books/b19999"))
            try? batch.commitNow()
            // Its notification arrives meanwhile, on the change feed's connection.
            let deadline = Date(timeIntervalSinceNow: 20)
            while !watcher.announcedPaths.contains("books/b00000") && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        }
        let recorder = ListenerRecorder<QuerySnapshot>()
        track(db.collection("books").addSnapshotListener(recorder.listener))
        let snapshot = try XCTUnwrap(recorder.snapshot(1))
        XCTAssertTrue(wrote.withLock { $0 })
        let values = Dictionary(uniqueKeysWithValues: snapshot.documents.map { ($0.documentID, $0.get("n") as? Int) })
        XCTAssertEqual(values["b00000"], -1, "read again: it was announced after its slice was read")
        XCTAssertEqual(values["b19999"], -2)
        XCTAssertEqual(values.count, count)
        try store.waitForLooks(at: "books")
        XCTAssertEqual(recorder.events.count, 1, "nothing left over for a second snapshot")
    }
}
