@testable import DocumentStore
import Foundation
import XCTest

/// Through a Firestore server, `serverTimestamp()` is the server's time (`REQUEST_TIME`), taken
/// when the server commits, not the client's clock when it sent the write.
final class ServerStampsTimeTests: StoreTestCase {
    /// The served folder's write lock is held while the client writes, so the server commits
    /// only after it is let go: a stamp from the client would be older than that moment.
    private func stampedAfterTheServerCouldCommit(_ write: @escaping @Sendable () throws -> Void) throws -> (stamped: Timestamp, released: Timestamp) {
        let lockFolder = store.root.appendingPathComponent(".shelf")
        try FileManager.default.createDirectory(at: lockFolder, withIntermediateDirectories: true)
        let fd = open(lockFolder.appendingPathComponent("lock").path, O_RDWR | O_CREAT, 0o644)
        XCTAssertGreaterThanOrEqual(fd, 0)
        XCTAssertEqual(flock(fd, LOCK_EX), 0)
        let done = DispatchSemaphore(value: 0)
        let failure = Locked<Error?>(nil)
        DispatchQueue.global().async {
            do { try write() } catch { failure.withLock { $0 = error } }
            done.signal()
        }
        Thread.sleep(forTimeInterval: 0.3)  // the write is sent and waits on the lock
        let released = Timestamp()
        flock(fd, LOCK_UN)
        close(fd)
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        if let error = failure.withLock({ $0 }) { throw error }
        let stamped = try XCTUnwrap(db.document("books/dune").readDocument().get("at") as? Timestamp)
        return (stamped, released)
    }

    func testASetsServerTimestampIsTheServersTimeOfCommit() throws {
        let db = self.db
        let (stamped, released) = try stampedAfterTheServerCouldCommit {
            try db.document("books/dune").write(["title": "Dune", "at": FieldValue.serverTimestamp()])
        }
        XCTAssertGreaterThanOrEqual(stamped, released.truncatedToMicroseconds)
    }

    func testAnUpdatesNestedServerTimestampIsTheServersTimeOfCommit() throws {
        try db.document("books/dune").write(["title": "Dune"])
        let db = self.db
        let (stamped, released) = try stampedAfterTheServerCouldCommit {
            try db.document("books/dune").update(["at": FieldValue.serverTimestamp(), "title": "Dune Messiah"])
        }
        XCTAssertGreaterThanOrEqual(stamped, released.truncatedToMicroseconds)
        XCTAssertEqual(try db.document("books/dune").readDocument().get("title") as? String, "Dune Messiah")
    }

    func testAStampOverwrittenLaterInTheSameBatchKeepsTheLaterValue() throws {
        let batch = db.batch()
        batch.setData(["at": FieldValue.serverTimestamp()], forDocument: db.document("books/dune"))
        batch.updateData(["at": "later"], forDocument: db.document("books/dune"))
        try batch.commitNow()
        XCTAssertEqual(try db.document("books/dune").readDocument().get("at") as? String, "later")
    }
}
