import DocumentStore
import FirestoreProtocol
import FirestoreWire
import Foundation

extension FirestoreService {
    /// Commits writes holding their locks (`TransactionLocks`): in `transaction`, after checking
    /// it may write, with what it read checked unchanged; then its locks go. A write outside
    /// a transaction is the youngest: it waits for transactions holding its documents.
    func commitLocked(_ writes: [FirestoreWrite], in database: ServedDatabase, transaction: Data? = nil) async throws
        -> Google_Firestore_V1_CommitResponse {
        await expireTransactions()
        let owner: Data, age: UInt64
        var expected: [String: DocumentSnapshot] = [:]
        if let transaction {
            let entry = try transactions.end(transaction, database: database.name)
            if entry.readOnly && !writes.isEmpty {
                await locks.release(transaction)
                throw WireError.invalidArgument("Cannot modify entities in a read-only transaction.")
            }
            (owner, age, expected) = (transaction, entry.age, entry.reads)
        } else {
            owner = Data((0..<16).map { _ in UInt8.random(in: 0...255) })
            age = transactions.newestAge()
        }
        do {
            try await locks.lock(Self.lockKeys(of: writes), database: database.name, for: owner, age: age, committing: true)
            let response = try await database.commit(writes, expecting: expected)
            await locks.release(owner)
            return response
        } catch {
            await locks.release(owner)
            throw error
        }
    }

    /// Ends the transactions that expired and lets go of their locks: done before taking locks,
    /// so a client that vanished holds up the others for a minute at most.
    func expireTransactions() async {
        for id in transactions.expire() { await locks.release(id) }
    }

    /// A write holds its document, and shares its collection and collection group with other
    /// writes, against a transaction's query of them.
    static func lockKeys(of writes: [FirestoreWrite]) -> [(TransactionLocks.Key, TransactionLocks.Mode)] {
        var keys: [TransactionLocks.Key: TransactionLocks.Mode] = [:]
        for write in writes {
            let collection = write.path.split(separator: "/", omittingEmptySubsequences: false).dropLast().map(String.init)
            keys[.document(write.path)] = .exclusive
            for key in [TransactionLocks.Key.collection(collection.joined(separator: "/")), .group(collection.last ?? ""), .group("")] where keys[key] == nil {
                keys[key] = .shared
            }
        }
        return keys.map { ($0.key, $0.value) }
    }
}
