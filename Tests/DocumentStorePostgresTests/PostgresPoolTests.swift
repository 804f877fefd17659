@testable import DocumentStore
import Foundation
import XCTest

/// A store's calls run on a pool of connections (`?pool=N`, 4 by default): a call waiting on
/// one thread does not hold up another thread's, and the pool never opens more than N.
final class PostgresPoolTests: PostgresTestCase {
    private func store(pool: Int?) throws -> Firestore {
        var url = try cluster.url(database: database).absoluteString
        if let pool { url += "?pool=\(pool)" }
        return try Firestore(url: URL(string: url)!)
    }

    /// Whether a read made while another thread's write waits for a lock sees that write. The
    /// lock is the write's own (an advisory lock on the document's path), held for two seconds
    /// by another client: a read on a connection of its own comes first and sees nothing; with
    /// one connection the read can only run once the write has committed and given it back.
    private func readWhileAWriteWaitsForALock(_ db: Firestore) throws -> Bool {
        let cluster = try cluster, database = database
        let lock = "pg_advisory_lock(hashtextextended('small/one', 0))"
        let released = expectation(description: "the other client's lock released")
        Thread.detachNewThread {
            _ = try? cluster.psql("SELECT \(lock), pg_sleep(2)", database: database)
            released.fulfill()
        }
        let advisory = "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
        try waitUntil("the other client holds the lock", sql: advisory + " AND granted")
        let written = expectation(description: "the write")
        Thread.detachNewThread {
            try? db.document("small/one").write(["n": 1])
            written.fulfill()
        }
        try waitUntil("the write waits for the lock", sql: advisory + " AND NOT granted")
        let seen = try db.backend.document(at: ResourcePath.parse("small/one", expectDocument: true), store: db) != .missing
        wait(for: [written, released], timeout: 30)
        return seen
    }

    /// Polls `sql` until it answers "1" (a state to reach, not a time to wait).
    private func waitUntil(_ what: String, sql query: String) throws {
        let deadline = Date(timeIntervalSinceNow: 20)
        while try sql(query) != "1" {
            guard Date() < deadline else { return XCTFail("never: \(what)") }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    func testAReadIsNotHeldUpByAWriteWaitingOnAnotherThread() throws {
        let db = try store(pool: nil)
        defer { db.backend.close() }
        XCTAssertFalse(try readWhileAWriteWaitsForALock(db), "the read ran on another connection of the pool, before the write")
    }

    func testWithAPoolOfOneTheReadWaitsForTheWrite() throws {
        let db = try store(pool: 1)
        defer { db.backend.close() }
        XCTAssertTrue(try readWhileAWriteWaitsForALock(db), "one connection: one call at a time")
    }

    func testThePoolOpensNoMoreConnectionsThanItsSize() throws {
        let db = try store(pool: 2)
        defer { db.backend.close() }
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            _ = try? db.document("small/d\(index)").write(["n": index])
        }
        let count = try sql("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND application_name <> 'psql' AND backend_type = 'client backend'")
        // The test case's own store holds one connection (it only ran the setup), this one two.
        XCTAssertEqual(Int(count), 3)
    }

    func testAPoolSizeOutOfRangeIsRefusedByName() throws {
        for bad in ["0", "65", "many"] {
            let url = URL(string: try cluster.url(database: database).absoluteString + "?pool=\(bad)")!
            XCTAssertThrowsError(try Firestore(url: url)) { error in
                XCTAssertEqual((error as? FirestoreErrorCode)?.code, FirestoreErrorCode.invalidArgument.rawValue)
                XCTAssertTrue("\(error.localizedDescription)".contains("pool=\(bad)"), "\(error)")
                XCTAssertTrue("\(error.localizedDescription)".contains("from 1 to 64"), "\(error)")
                XCTAssertFalse("\(error.localizedDescription)".contains(try! self.cluster.password), "never the password")
            }
        }
    }
}
