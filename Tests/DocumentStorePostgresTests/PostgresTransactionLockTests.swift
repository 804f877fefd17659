@testable import DocumentStore
import Foundation
import XCTest

/// Issue 51, 3: transactions' locks across processes on one database (PostgreSQL's advisory
/// locks): two stores with pools and lock tables of their own stand for two programs.
final class PostgresTransactionLockTests: PostgresTestCase {
    private let document = [(TransactionLocks.Key.document("counters/c"), TransactionLocks.Mode.exclusive)]

    /// A lock one client holds makes another's wait, and past the wait fail with the
    /// emulator's words; once let go, the other takes it.
    func testAClientWaitsForALockAnotherClientHolds() throws {
        let other = try anotherClient()
        let holder = LockOwner.youngest(), waiter = LockOwner.youngest()
        try db.transactionLocks.lock(document, for: holder)
        var waited: Error?
        do { try other.transactionLocks.lock(document, for: waiter, waitingAtMost: .milliseconds(200)) } catch { waited = error }
        XCTAssertEqual((waited as NSError?)?.code, FirestoreErrorCode.aborted.rawValue)
        XCTAssertEqual((waited as NSError?)?.localizedDescription, TransactionLocks.timeoutMessage)
        db.transactionLocks.release(holder.id)
        try other.transactionLocks.lock(document, for: waiter)
        other.transactionLocks.release(waiter.id)
    }

    /// Two clients each holding what the other waits for: PostgreSQL finds the circle and
    /// aborts one, whose locks go, so the other is granted.
    func testADeadlockBetweenClientsAbortsOneAndTheOtherGoesOn() throws {
        let other = try anotherClient()
        let first = LockOwner.youngest(), second = LockOwner.youngest()
        let a = [(TransactionLocks.Key.document("counters/a"), TransactionLocks.Mode.exclusive)]
        let b = [(TransactionLocks.Key.document("counters/b"), TransactionLocks.Mode.exclusive)]
        try db.transactionLocks.lock(a, for: first)
        try other.transactionLocks.lock(b, for: second)
        let outcomes = Locked<[Error?]>([])
        let group = DispatchGroup()
        for (store, keys, owner) in [(db, b, first), (other, a, second)] {
            DispatchQueue.global().async(group: group) {
                var error: Error?
                do { try store.transactionLocks.lock(keys, for: owner, waitingAtMost: .seconds(10)) } catch let failure { error = failure }
                outcomes.withLock { [error] in $0.append(error) }
            }
        }
        XCTAssertEqual(group.wait(timeout: .now() + 15), .success)
        let errors = outcomes.withLock { $0 }.compactMap { $0 as NSError? }
        XCTAssertEqual(errors.map(\.code), [FirestoreErrorCode.aborted.rawValue], "one aborted, the other granted")
        XCTAssertTrue(errors.first?.localizedDescription.contains("waited for each other") ?? false, "PostgreSQL's deadlock check, not the wait's end: \(errors)")
        db.transactionLocks.release(first.id)
        other.transactionLocks.release(second.id)
    }

    /// A holder's locks taken by several calls at once (a client's reads of one transaction
    /// sent together) all go with its release: none is left on a connection of its own.
    func testLocksTakenAtOnceForOneHolderAllGoWithIt() throws {
        let other = try anotherClient()
        let holder = LockOwner.youngest()
        let keys = (0..<8).map { [(TransactionLocks.Key.document("counters/c\($0)"), TransactionLocks.Mode.exclusive)] }
        let locks = db.transactionLocks, failures = Locked(0)
        DispatchQueue.concurrentPerform(iterations: keys.count) { index in
            do { try locks.lock(keys[index], for: holder) } catch { failures.withLock { $0 += 1 } }
        }
        XCTAssertEqual(failures.withLock { $0 }, 0)
        db.transactionLocks.release(holder.id)
        let taker = LockOwner.youngest()
        try other.transactionLocks.lock(keys.flatMap { $0 }, for: taker, waitingAtMost: .seconds(3))
        other.transactionLocks.release(taker.id)
    }

    /// Another client's plain write takes no lock other processes see, so it needs no
    /// connection beside its pool (PostgresPoolTests); a transaction of this client that read
    /// its document is then failed by its commit's check and runs again on what it wrote.
    func testAnotherClientsPlainWriteMakesATransactionThatReadItsDocumentRunAgain() async throws {
        let counter = db.document("counters/c")
        try counter.write(["n": 1])
        let (read, written) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let attempts = Locked(0)
        let transaction = Task { [db] in
            _ = try await db.runTransaction { transaction, errorPointer -> Any? in
                let attempt = attempts.withLock { $0 += 1; return $0 }
                do {
                    let count = try transaction.getDocument(counter).get("n") as? Int ?? 0
                    if attempt == 1 { read.signal(); written.wait() }
                    transaction.setData(["n": count + 10], forDocument: counter)
                } catch {
                    errorPointer?.pointee = error as NSError
                }
                return nil
            }
        }
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { read.wait(); continuation.resume() }
        }
        try anotherClient().document("counters/c").write(["n": 100])
        written.signal()
        try await transaction.value
        XCTAssertEqual(attempts.withLock { $0 }, 2, "the commit's check failed the first attempt")
        XCTAssertEqual(try counter.readSnapshot().get("n") as? Int, 110, "the second attempt read the other client's write")
    }

    /// Two clients, four tasks each, 50 increments a task: every one commits.
    func testTwoClientsIncrementingOneCounterAllCommit() async throws {
        let stores = [db, try anotherClient()]
        try db.document("counters/c").write(["n": 0])
        try await withThrowingTaskGroup(of: Void.self) { group in
            for store in stores {
                for _ in 0..<4 {
                    group.addTask {
                        for _ in 0..<50 { _ = try await TransactionLockingTests.increment(store) }
                    }
                }
            }
            try await group.waitForAll()
        }
        let count = try await db.document("counters/c").getDocument().get("n") as? Int
        XCTAssertEqual(count, 400)
    }
}
