@testable import DocumentStore
import Foundation
import XCTest

/// A store's calls run on a pool of connections (`?pool=N`, 4 by default): a long read on one
/// thread does not hold up a write on another, and the pool never opens more than N.
final class PostgresPoolTests: PostgresTestCase {
    private func store(pool: Int?) throws -> Firestore {
        var url = try cluster.url(database: database).absoluteString
        if let pool { url += "?pool=\(pool)" }
        return try Firestore(url: URL(string: url)!)
    }

    /// When a write started while the whole collection was being read ended, against the read.
    private func writeDuringLongRead(_ db: Firestore) throws -> (readEnded: ContinuousClock.Instant, writeEnded: ContinuousClock.Instant) {
        // A collection whose whole read takes a while: rows as another SQL client writes them.
        try sql("""
            INSERT INTO shelf_documents (path, parent, collection_id, fields)
            SELECT 'big/d' || i, 'big', 'big', jsonb_build_object('n', i, 'text', repeat('x', 200))
            FROM generate_series(1, 150000) AS i
            """)
        let readEnded = Locked<ContinuousClock.Instant?>(nil)
        let done = expectation(description: "read")
        Thread.detachNewThread {
            // Every row of the collection, as a query the server cannot page reads them.
            _ = try? (db.backend as? ServerBackend)?.server.read(ServerSelection(collection: "big", isGroup: false, conditions: []))
            readEnded.withLock { $0 = .now }
            done.fulfill()
        }
        Thread.sleep(forTimeInterval: 0.05)
        try db.document("small/one").write(["n": 1])
        let writeEnded = ContinuousClock.now
        wait(for: [done], timeout: 120)
        return (try XCTUnwrap(readEnded.withLock { $0 }), writeEnded)
    }

    func testAWriteIsNotHeldUpByALongReadOnAnotherThread() throws {
        let db = try store(pool: nil)
        defer { db.backend.close() }
        let (readEnded, writeEnded) = try writeDuringLongRead(db)
        XCTAssertLessThan(writeEnded, readEnded, "the write ran on another connection of the pool")
    }

    func testWithAPoolOfOneTheWriteWaitsForTheRead() throws {
        let db = try store(pool: 1)
        defer { db.backend.close() }
        let (readEnded, writeEnded) = try writeDuringLongRead(db)
        XCTAssertGreaterThanOrEqual(writeEnded, readEnded, "one connection: one call at a time")
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
                XCTAssertEqual((error as? FirestoreErrorCode)?.code, .invalidArgument)
                XCTAssertTrue("\(error.localizedDescription)".contains("pool=\(bad)"), "\(error)")
                XCTAssertTrue("\(error.localizedDescription)".contains("from 1 to 64"), "\(error)")
                XCTAssertFalse("\(error.localizedDescription)".contains(try! self.cluster.password), "never the password")
            }
        }
    }
}
