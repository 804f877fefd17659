import DocumentStore
import FirestoreWire
import Foundation

/// The transactions clients have begun and not yet committed or rolled back: what each read,
/// so that its commit goes through only if those documents are still as read (else `ABORTED`,
/// and the client's library runs the transaction again). Optimistic, as the store's own
/// transactions: reads take no locks. A client that vanishes leaves an entry that expires.
final class OpenTransactions: Sendable {
    struct Entry {
        let database: String
        let readOnly: Bool
        var reads: [String: DocumentSnapshot] = [:]
        var lastUsed: Date
    }

    /// Firestore lets an idle transaction expire after 270 seconds.
    static let idleLimit: TimeInterval = 270
    private let entries = Locked<[Data: Entry]>([:])

    func begin(database: String, readOnly: Bool) -> Data {
        let id = Data((0..<16).map { _ in UInt8.random(in: 0...255) })
        let now = Date()
        entries.withLock { entries in
            entries = entries.filter { now.timeIntervalSince($0.value.lastUsed) < Self.idleLimit }
            entries[id] = Entry(database: database, readOnly: readOnly, lastUsed: now)
        }
        return id
    }

    /// Records what a transaction read (the first read of a document is the one kept).
    func record(_ snapshots: [DocumentSnapshot], in id: Data, database: String) throws(WireError) {
        let found = entries.withLock { entries -> Bool in
            guard var entry = entries[id], entry.database == database else { return false }
            for snapshot in snapshots where entry.reads[snapshot.reference.path] == nil {
                entry.reads[snapshot.reference.path] = snapshot
            }
            entry.lastUsed = Date()
            entries[id] = entry
            return true
        }
        if !found { throw Self.unknown(id) }
    }

    /// Ends a transaction, returning what it read.
    func end(_ id: Data, database: String) throws(WireError) -> Entry {
        let entry = entries.withLock { entries -> Entry? in
            guard entries[id]?.database == database else { return nil }
            return entries.removeValue(forKey: id)
        }
        guard let entry else { throw Self.unknown(id) }
        return entry
    }

    func contains(_ id: Data, database: String) -> Bool {
        entries.withLock { $0[id]?.database == database }
    }

    private static func unknown(_ id: Data) -> WireError {
        .invalidArgument("transaction \(id.base64EncodedString()) is not open: it was committed, rolled back, expired after \(Int(idleLimit)) seconds idle, or never begun on this server")
    }
}
