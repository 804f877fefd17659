@testable import DocumentStore
import Foundation
import XCTest

/// Issue 51, 3: the Swift API's transactions lock what they read, as Firestore's server
/// transactions (and `shelf serve`) do, so contenders wait for each other instead of failing.
final class TransactionLockingTests: StoreTestCase {
    /// Adds 1 to `counters/c` in a transaction; the attempts it took.
    static func increment(_ db: Firestore) async throws -> Int {
        let attempts = Locked(0)
        let counter = db.document("counters/c")
        _ = try await db.runTransaction { transaction, errorPointer -> Any? in
            attempts.withLock { $0 += 1 }
            do {
                let count = try transaction.getDocument(counter).get("n") as? Int ?? 0
                transaction.setData(["n": count + 1], forDocument: counter)
            } catch {
                errorPointer?.pointee = error as NSError
            }
            return nil
        }
        return attempts.withLock { $0 }
    }

    /// Eight tasks × 100 increments of one counter: every one commits (with five attempts
    /// each, the optimistic transactions lost some), and the counter is exact.
    func testEightTasksIncrementingOneCounterAllCommit() async throws {
        try db.document("counters/c").write(["n": 0])
        let db = self.db
        let attempts = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var attempts = 0
                    for _ in 0..<100 { attempts += try await Self.increment(db) }
                    return attempts
                }
            }
            return try await group.reduce(0, +)
        }
        let count = try await db.document("counters/c").getDocument().get("n") as? Int
        XCTAssertEqual(count, 800)
        print("8 tasks × 100 increments: \(attempts) attempts for 800 commits")
    }

    /// A plain write of a document a transaction read waits for the transaction to commit
    /// (as through `shelf serve`), then goes through; the transaction runs once.
    func testAPlainWriteWaitsForATransactionThatReadItsDocument() async throws {
        try await Self.assertAWriteWaitsForATransaction(in: db, writer: db)
    }

    /// `writer` (`db`, or another client of its database) writes `counters/c` while a
    /// transaction of `db` that read it runs: the write waits for its commit.
    static func assertAWriteWaitsForATransaction(in db: Firestore, writer: Firestore, file: StaticString = #filePath, line: UInt = #line) async throws {
        let counter = db.document("counters/c")
        try counter.write(["n": 1])
        let read = DispatchSemaphore(value: 0)
        let order = Locked<[String]>([])
        let attempts = Locked(0)
        let transaction = Task {
            _ = try await db.runTransaction { transaction, errorPointer -> Any? in
                attempts.withLock { $0 += 1 }
                do {
                    let count = try transaction.getDocument(counter).get("n") as? Int ?? 0
                    read.signal()
                    usleep(300_000)  // the plain write is sent meanwhile
                    transaction.setData(["n": count + 10], forDocument: counter)
                    order.withLock { $0.append("transaction") }
                } catch {
                    errorPointer?.pointee = error as NSError
                }
                return nil
            }
        }
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { read.wait(); continuation.resume() }
        }
        try await writer.document("counters/c").setData(["n": 100])
        order.withLock { $0.append("write") }
        _ = try await transaction.value
        XCTAssertEqual(attempts.withLock { $0 }, 1, "the transaction was not failed by the write", file: file, line: line)
        XCTAssertEqual(order.withLock { $0 }, ["transaction", "write"], "the write waited for the transaction", file: file, line: line)
        let count = try await counter.getDocument().get("n") as? Int
        XCTAssertEqual(count, 100, "the write came after the transaction's", file: file, line: line)
    }

    /// Another program that takes no locks (a script writing the file; a SQL client) still
    /// fails the transaction's commit, which runs the block again on what it wrote.
    func testAWriterWithoutLocksStillMakesTheTransactionRunAgain() async throws {
        let counter = db.document("counters/c")
        try counter.write(["n": 1])
        let attempts = Locked(0)
        _ = try await db.runTransaction { transaction, errorPointer -> Any? in
            let attempt = attempts.withLock { $0 += 1; return $0 }
            do {
                let count = try transaction.getDocument(counter).get("n") as? Int ?? 0
                if attempt == 1 { try self.store.writeFile("counters/c.json", #"{"n": 50}"#) }
                transaction.setData(["n": count + 1], forDocument: counter)
            } catch {
                errorPointer?.pointee = error as NSError
            }
            return nil
        }
        XCTAssertEqual(attempts.withLock { $0 }, 2)
        let count = try await counter.getDocument().get("n") as? Int
        XCTAssertEqual(count, 51)
    }
}
