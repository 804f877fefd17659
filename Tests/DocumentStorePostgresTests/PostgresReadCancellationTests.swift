@testable import DocumentStore
import Foundation
import XCTest

/// A read given up on (its task cancelled: a list's window replaced by the next key of a
/// filter) has the server stop its query, instead of finishing work whose answer no one reads;
/// a write is not given up on, as Firestore's are not once sent.
final class PostgresReadCancellationTests: PostgresTestCase {
    private let waitingReads = "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'SELECT path, fields::text%'"

    func testCancellingAReadsTaskCancelsItsQueryOnTheServer() async throws {
        try insertBooks(10)
        let holder = try holdTheTable()
        defer { holder.terminate() }
        let firstBooks = db.collection("books").limit(to: 3)
        let read = Task { try await firstBooks.getDocuments() }
        try awaitSQL(waitingReads, "1")
        read.cancel()
        try awaitSQL(waitingReads, "0")  // while the table is still held
        XCTAssertTrue(holder.isRunning)
        do {
            _ = try await read.value
            XCTFail("the read was cancelled")
        } catch {
            XCTAssertTrue("\(error)".contains("cancel"), "\(error)")
        }
        try sql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(60)'")
        let after = try await db.collection("books").limit(to: 3).getDocuments()
        XCTAssertEqual(after.count, 3, "the connection serves the next read")
    }

    func testCancellingAWritesTaskLeavesTheWriteToLand() async throws {
        let holder = try holdTheTable()
        defer { holder.terminate() }
        let dune = db.document("books/dune")
        let write = Task { try await dune.setData(["title": "Dune"]) }
        try awaitSQL("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%shelf_documents%' AND query NOT LIKE '%pg_stat_activity%'", "1")
        write.cancel()
        try sql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(60)'")
        try await write.value
        let written = try await dune.getDocument()
        XCTAssertEqual(written.get("title") as? String, "Dune")
    }
}
