import DocumentStore
import FirestoreProtocol
import FirestoreWire
import Foundation

/// The transactions clients have begun and not yet committed or rolled back: what each read,
/// so that its commit goes through only if those documents are still as read (else `ABORTED`,
/// and the client's library runs the transaction again), and its age, by which it waits for
/// or wounds others (its store's `TransactionLocks`). A client that vanishes leaves an entry that expires.
final class OpenTransactions: Sendable {
    struct Entry {
        let database: String
        let readOnly: Bool
        /// The past time a read-only transaction reads at; nil: it reads now.
        var readTime: Timestamp?
        /// Older transactions (smaller) win their locks; a retry keeps the first one's age.
        let age: UInt64
        var reads: [String: DocumentSnapshot] = [:]
        var lastUsed: Date
        let began: Date

        func hasExpired(at now: Date) -> Bool {
            now.timeIntervalSince(lastUsed) >= OpenTransactions.idleLimit || now.timeIntervalSince(began) >= OpenTransactions.lifetime
        }
    }

    private struct State {
        var open: [Data: Entry] = [:]
        /// The ages of transactions ended lately (a retry names the one it retries), and
        /// whether such an id was ever this server's (a rollback of it is no error).
        var ended: [Data: (age: UInt64, at: Date)] = [:]
    }

    /// Firestore ends a transaction idle for 60 seconds, and any after 270 (its documented
    /// limits, which the emulator keeps too), letting go of its locks.
    static let idleLimit: TimeInterval = 60
    static let lifetime: TimeInterval = 270
    /// How long an ended transaction is remembered, for a rollback of it (no error) and for
    /// a retry that names it (which keeps its age).
    static let memory: TimeInterval = 600
    private let state = Locked(State())

    /// A new transaction's id; `retrying`: the id of the one it runs again, whose age it keeps.
    func begin(database: String, readOnly: Bool, retrying: Data? = nil, readTime: Timestamp? = nil) -> Data {
        let id = LockOwner.randomID()
        let now = Date()
        state.withLock { state in
            state.ended = state.ended.filter { now.timeIntervalSince($0.value.at) < Self.memory }
            let age: UInt64
            if let retrying, let earlier = state.open[retrying]?.age ?? state.ended[retrying]?.age {
                age = earlier
            } else {
                age = TransactionLocks.newAge()
            }
            state.open[id] = Entry(database: database, readOnly: readOnly, readTime: readTime, age: age, lastUsed: now, began: now)
        }
        return id
    }

    /// Ends the transactions that expired (idle, or too old); their ids, whose locks must go,
    /// with their databases' names.
    func expire() -> [(id: Data, database: String)] {
        let now = Date()
        return state.withLock { state in
            let expired = state.open.filter { $0.value.hasExpired(at: now) }
            for (id, entry) in expired {
                state.open[id] = nil
                state.ended[id] = (entry.age, now)
            }
            return expired.map { ($0.key, $0.value.database) }
        }
    }

    /// The open transaction's entry, its use noted.
    func entry(_ id: Data, database: String) throws(WireError) -> Entry {
        let entry = state.withLock { state -> Entry? in
            guard state.open[id]?.database == database else { return nil }
            state.open[id]!.lastUsed = Date()
            return state.open[id]
        }
        guard let entry else { throw Self.unknown(id) }
        return entry
    }

    /// Records what a transaction read (the first read of a document is the one kept).
    func record(_ snapshots: [DocumentSnapshot], in id: Data, database: String) throws(WireError) {
        let found = state.withLock { state -> Bool in
            guard var entry = state.open[id], entry.database == database else { return false }
            for snapshot in snapshots where entry.reads[snapshot.reference.path] == nil {
                entry.reads[snapshot.reference.path] = snapshot
            }
            entry.lastUsed = Date()
            state.open[id] = entry
            return true
        }
        if !found { throw Self.unknown(id) }
    }

    /// Ends a transaction, returning what it read.
    func end(_ id: Data, database: String) throws(WireError) -> Entry {
        let entry = state.withLock { state -> Entry? in
            guard state.open[id]?.database == database, let entry = state.open.removeValue(forKey: id) else { return nil }
            state.ended[id] = (entry.age, Date())
            return entry
        }
        guard let entry else { throw Self.unknown(id) }
        return entry
    }

    /// Ends a transaction a client rolls back: as the emulator, a rollback of one that was
    /// this server's and has ended already (committed, aborted, expired) is no error.
    func rollBack(_ id: Data, database: String) throws(WireError) {
        let known = state.withLock { state -> Bool in
            if state.open[id]?.database == database, let entry = state.open.removeValue(forKey: id) {
                state.ended[id] = (entry.age, Date())
                return true
            }
            return state.ended[id] != nil
        }
        if !known { throw Self.unknown(id) }
    }

    func contains(_ id: Data, database: String) -> Bool {
        state.withLock { $0.open[id]?.database == database }
    }

    private static func unknown(_ id: Data) -> WireError {
        .invalidArgument("transaction \(id.base64EncodedString()) is not open: it was committed, rolled back, expired (after \(Int(idleLimit)) seconds idle or \(Int(lifetime)) in all), or never begun on this server")
    }
}

extension Google_Firestore_V1_TransactionOptions {
    /// The transaction a read-write one runs again, whose age it keeps.
    var retrying: Data? {
        guard case .readWrite(let options)? = mode, !options.retryTransaction.isEmpty else { return nil }
        return options.retryTransaction
    }
}
