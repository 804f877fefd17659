@testable import DocumentStore
import Foundation
import XCTest

/// The lock table itself: waiting by blocking and by suspending on one table, wound-wait by
/// age, and the wait's end.
final class TransactionLocksTests: XCTestCase {
    private let document = [(TransactionLocks.Key.document("counters/c"), TransactionLocks.Mode.exclusive)]

    private func message(_ error: Error?) -> String? {
        error.map { ($0 as NSError).localizedDescription }
    }

    /// Returns once `until` holds, polled: a state to reach, not a time to wait.
    private func wait(_ what: String, until condition: () -> Bool, file: StaticString = #filePath, line: UInt = #line) {
        let deadline = Date(timeIntervalSinceNow: 30)
        while !condition() {
            guard Date() < deadline else { return XCTFail("never: \(what)", file: file, line: line) }
            usleep(1_000)
        }
    }

    /// A suspended waiter is granted when a thread that blocked for the lock lets go, and the
    /// other way round: one table for the server's requests and the Swift API's calls.
    func testABlockingHolderAndASuspendedWaiterShareOneTable() async throws {
        let locks = TransactionLocks(), document = self.document
        let older = LockOwner.youngest(), younger = LockOwner.youngest()
        try await locks.lock(document, for: older)
        let granted = Locked(false)
        let waiter = Task {
            try await locks.lock(document, for: younger)
            granted.withLock { $0 = true }
        }
        wait("the younger waits, or is granted") { locks.waiting == 1 || granted.withLock { $0 } }
        XCTAssertFalse(granted.withLock { $0 }, "the younger waits for the older")
        locks.release(older.id)
        try await waiter.value
        XCTAssertTrue(granted.withLock { $0 })

        let blocked = DispatchSemaphore(value: 0)
        let third = LockOwner.youngest()
        DispatchQueue.global().async {
            try? locks.lock(document, for: third)
            blocked.signal()
        }
        wait("the third waits") { locks.waiting == 1 }
        XCTAssertEqual(blocked.wait(timeout: .now()), .timedOut, "a blocking caller waits too")
        locks.release(younger.id)
        XCTAssertEqual(blocked.wait(timeout: .now() + 30), .success)
        locks.release(third.id)
    }

    /// An older holder takes the lock from a younger one, whose next call is aborted; a
    /// younger one waits, then gives up with the emulator's words.
    func testAnOlderHolderWoundsAYoungerOneAndAYoungerOneTimesOut() throws {
        let locks = TransactionLocks()
        let older = LockOwner.youngest(), younger = LockOwner.youngest()
        try locks.lock(document, for: younger)
        try locks.lock(document, for: older)  // at once: the younger is wounded
        var wounded: Error?
        do { try locks.lock([(.document("other/d"), .exclusive)], for: younger) } catch { wounded = error }
        XCTAssertEqual((wounded as NSError?)?.code, FirestoreErrorCode.aborted.rawValue)
        XCTAssertEqual(message(wounded), TransactionLocks.woundedMessage)
        locks.release(younger.id)

        let later = LockOwner.youngest()
        var timedOut: Error?
        do { try locks.lock(document, for: later, waitingAtMost: .milliseconds(100)) } catch { timedOut = error }
        XCTAssertEqual((timedOut as NSError?)?.code, FirestoreErrorCode.aborted.rawValue)
        XCTAssertEqual(message(timedOut), TransactionLocks.timeoutMessage)

        // A committing holder is never wounded: the older one waits for it.
        locks.release(older.id)
        try locks.lock(document, for: later, committing: true)
        let oldest = LockOwner(id: LockOwner.randomID(), age: 0)
        var waited: Error?
        do { try locks.lock(document, for: oldest, waitingAtMost: .milliseconds(100)) } catch { waited = error }
        XCTAssertEqual(message(waited), TransactionLocks.timeoutMessage)
        locks.release(later.id)
        try locks.lock(document, for: oldest)
        locks.release(oldest.id)
    }

    /// A lock let go goes to the oldest waiter, even when a younger one looks first: the
    /// younger would only be wounded by the older.
    func testALockLetGoGoesToTheOldestWaiter() async throws {
        let locks = TransactionLocks(), document = self.document
        let holder = LockOwner(id: LockOwner.randomID(), age: 1)
        let older = LockOwner(id: LockOwner.randomID(), age: 2), younger = LockOwner(id: LockOwner.randomID(), age: 3)
        try await locks.lock(document, for: holder)
        let granted = Locked<[UInt64]>([])
        let waiters = [older, younger].map { owner in
            Task {
                try await locks.lock(document, for: owner)
                granted.withLock { $0.append(owner.age) }
            }
        }
        wait("both wait") { locks.waiting == 2 }
        locks.release(holder.id)
        try await waiters[0].value
        // Both were woken: the younger is waiting again, or was wrongly granted.
        wait("the younger waits again, or is granted") { locks.waiting == 1 || granted.withLock { $0.count } == 2 }
        XCTAssertEqual(granted.withLock { $0 }, [2], "the younger still waits, unwounded")
        locks.release(older.id)
        try await waiters[1].value
        XCTAssertEqual(granted.withLock { $0 }, [2, 3])
        locks.release(younger.id)
    }

    /// Writes share their collections' locks with each other, and wait for a query's.
    func testWritesShareTheirCollectionAndWaitForAQueryOfIt() throws {
        let locks = TransactionLocks()
        let first = LockOwner.youngest(), second = LockOwner.youngest(), query = LockOwner.youngest()
        try locks.lock(TransactionLocks.keys(writing: ["books/a"]), for: first)
        try locks.lock(TransactionLocks.keys(writing: ["books/b"]), for: second)
        var waited: Error?
        do { try locks.lock([(.collection("books"), .exclusive)], for: query, waitingAtMost: .milliseconds(50)) } catch { waited = error }
        XCTAssertEqual(message(waited), TransactionLocks.timeoutMessage)
        locks.release(first.id)
        locks.release(second.id)
        try locks.lock([(.collection("books"), .exclusive)], for: query)
        locks.release(query.id)
    }
}
