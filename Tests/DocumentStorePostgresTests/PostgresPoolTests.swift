@testable import DocumentStore
@testable import DocumentStorePostgres
import Foundation
import XCTest

/// A store's calls run on a pool of connections (`?pool=N`, 4 by default): a call waiting on
/// one thread does not hold up another thread's, the pool never opens more than N, a
/// connection lost is replaced, and a closed store refuses calls.
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

    /// Polls `sql` until it answers "1" or "t" (a state to reach, not a time to wait).
    private func waitUntil(_ what: String, sql query: String) throws {
        let deadline = Date(timeIntervalSinceNow: 20)
        while try !["1", "t"].contains(sql(query)) {
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

    /// The store's connections to the test's database (psql's aside).
    private let connections = "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND application_name <> 'psql' AND backend_type = 'client backend'"

    func testThePoolOpensNoMoreConnectionsThanItsSize() throws {
        // The test case's own store holds two: the one it opened with, and its spare.
        try waitUntil("the test case's store has its spare", sql: "SELECT (\(connections)) = 2")
        let db = try store(pool: 2)
        defer { db.backend.close() }
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            _ = try? db.document("small/d\(index)").write(["n": index])
        }
        XCTAssertEqual(Int(try sql(connections)), 4)
    }

    /// Many more async calls at once than the machine has cores, each blocking a thread of
    /// Dispatch's while it waits for a connection of a pool of two: every one is answered, and
    /// the pool, busy but never broken, is never started afresh.
    func testManyMoreAsyncCallsThanCoresAreAllAnsweredByTheSamePool() async throws {
        let db = try store(pool: 2)
        defer { db.backend.close() }
        let calls = ProcessInfo.processInfo.activeProcessorCount * 8
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<calls {
                group.addTask {
                    try await db.document("many/d\(index)").setData(["n": index])
                    let read = try await db.document("many/d\(index)").getDocument()
                    XCTAssertEqual(read.get("n") as? Int, index)
                }
            }
            try await group.waitForAll()
        }
        let count = try await db.collection("many").count.getAggregation(source: .server).count
        XCTAssertEqual(count.intValue, calls)
        XCTAssertEqual((db.backend as? PostgresServer)?.pool.starts, 1, "the pool was never started afresh")
    }

    /// A store opens with a second connection ready beside the first, the server's first look
    /// at the documents' table done on each (`PostgresServer.warm`), so the first rows of a
    /// list read while the app counts its collections wait for no connection to open.
    func testAStoreOpensASpareConnectionReadyForTheFirstCallMadeBesideAnother() throws {
        try waitUntil("the test case's store has its spare", sql: "SELECT (\(connections)) = 2")
        let db = try store(pool: nil)
        defer { db.backend.close() }
        try waitUntil("the new store has its spare", sql: "SELECT (\(connections)) = 4")
        let warmed = try sql("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND state = 'idle' AND query = 'RESET lock_timeout'")
        XCTAssertGreaterThanOrEqual(Int(warmed) ?? 0, 2, "both of the new store's connections have looked at the table")
        let one = try store(pool: 1)
        defer { one.backend.close() }
        // A pool of one has no room for a spare, however many calls come at once.
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            _ = try? one.document("small/o\(index)").write(["n": index])
        }
        XCTAssertEqual(try sql(connections), "5")
    }

    /// The server processes of the store's connections to the test's database.
    private func processes() throws -> Set<String> {
        Set(try sql("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name <> 'psql' AND backend_type = 'client backend'")
            .split(separator: "\n").map(String.init))
    }

    /// A store of two connections holding `small/one`, whose connections the server has ended
    /// (their processes, for the caller to see that none comes back).
    private func storeWhoseConnectionsWereEnded() throws -> (Firestore, before: Set<String>, ended: Set<String>) {
        let before = try processes()
        let db = try store(pool: 2)
        try db.document("small/one").write(["n": 1])
        let mine = try processes().subtracting(before)
        XCTAssertFalse(mine.isEmpty)
        try sql("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE pid IN (\(mine.joined(separator: ",")))")
        try waitUntil("the ended connections are gone", sql: "SELECT count(*) = 0 FROM pg_stat_activity WHERE pid IN (\(mine.joined(separator: ",")))")
        return (db, before, mine)
    }

    func testConnectionsTheServerEndsAreReplaced() throws {
        let (db, before, mine) = try storeWhoseConnectionsWereEnded()
        defer { db.backend.close() }
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            XCTAssertEqual(try? db.document("small/one").readSnapshot().get("n") as? Int, 1, "read on a new connection")
        }
        XCTAssertTrue(try processes().subtracting(before).isDisjoint(with: mine))
    }

    func testAClosedStoreRefusesLaterCallsByName() throws {
        let db = try store(pool: nil)
        db.backend.close()
        XCTAssertThrowsError(try db.document("small/one").readSnapshot()) { error in
            XCTAssertEqual((error as? FirestoreErrorCode)?.code, FirestoreErrorCode.failedPrecondition.rawValue, "\(error)")
            XCTAssertTrue(error.localizedDescription.hasSuffix("/\(self.database) was closed"), error.localizedDescription)
        }
    }

    /// A server that stops taking connections fails the next call with its reason, not after
    /// PostgresClient's minute of trying; once it takes them again, calls go on.
    func testACallSaysWhyTheServerTakesNoConnectionsAndGoesOnOnceItDoes() throws {
        let (db, _, _) = try storeWhoseConnectionsWereEnded()
        defer { db.backend.close() }
        // From here on, `sql` cannot connect either: the cluster's maintenance database instead.
        let cluster = try cluster, database = database
        try cluster.psql("ALTER DATABASE \(database) WITH ALLOW_CONNECTIONS false")
        var allowed = false
        defer { if !allowed { _ = try? cluster.psql("ALTER DATABASE \(database) WITH ALLOW_CONNECTIONS true") } }
        let started = Date()
        XCTAssertThrowsError(try db.document("small/one").readSnapshot()) { error in
            XCTAssertTrue(error.localizedDescription.contains("is not currently accepting connections"), error.localizedDescription)
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 30, "said long before the pool's minute of trying")
        try cluster.psql("ALTER DATABASE \(database) WITH ALLOW_CONNECTIONS true")
        allowed = true
        XCTAssertEqual(try db.document("small/one").readSnapshot().get("n") as? Int, 1, "the next call connects again")
    }

    /// The look at the table waits for no other session's lock on it (a `LOCK TABLE`, an index
    /// built without `CONCURRENTLY`): opening a store is never held up by it, and the first call
    /// that needs the table waits instead.
    func testAStoreOpensWhileAnotherSessionHoldsTheDocumentsTable() async throws {
        try await db.document("books/dune").setData(["title": "Dune"])
        let holder = try holdTheTable()
        defer { holder.terminate() }
        let db = try store(pool: nil)
        defer { db.backend.close() }
        XCTAssertTrue(holder.isRunning, "the store opened while the table was still held")
        try sql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(60)'")
        let dune = try await db.document("books/dune").getDocument()
        XCTAssertEqual(dune.get("title") as? String, "Dune", "the first call waited for the table instead")
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
