import DocumentStore
import FirestoreProtocol
import FirestoreWire
import Foundation

extension FirestoreService {
    /// Commits writes holding their locks (the store's `TransactionLocks`, which the Swift API
    /// shares): in `transaction`, after checking it may write, with what it read checked
    /// unchanged; then its locks go. A write outside a transaction is the youngest: it waits
    /// for transactions holding its documents. The wait suspends here, so the store's commit,
    /// on an I/O thread, finds the locks held and does not wait again.
    func commitLocked(_ writes: [FirestoreWrite], in database: ServedDatabase, transaction: Data? = nil) async throws
        -> Google_Firestore_V1_CommitResponse {
        expireTransactions()
        let locks = database.store.transactionLocks
        let owner: LockOwner
        var expected: [String: DocumentSnapshot] = [:]
        if let transaction {
            let entry = try transactions.end(transaction, database: database.name)
            if entry.readOnly && !writes.isEmpty {
                locks.release(transaction)
                throw WireError.invalidArgument("Cannot modify entities in a read-only transaction.")
            }
            (owner, expected) = (LockOwner(id: transaction, age: entry.age), entry.reads)
        } else {
            owner = .youngest()
        }
        defer { locks.release(owner.id) }
        try await locks.lock(TransactionLocks.keys(writing: writes.map(\.path)), for: owner, committing: true, inStorage: transaction != nil,
                             waitingAtMost: lockWait)
        return try await database.commit(writes, expecting: expected, lockedBy: owner)
    }

    /// Ends the transactions that expired and lets go of their locks: done before taking locks,
    /// so a client that vanished holds up the others for a minute at most.
    func expireTransactions() {
        for (id, name) in transactions.expire() {
            (try? databases.database(name, field: "database"))?.store.transactionLocks.release(id)
        }
    }
}
