import DocumentStore
import FirestoreProtocol

/// Changed documents converted for `Listen` streams once, however many streams carry them. A
/// store's watcher hands the same snapshot object to every listener of a query, so a change
/// that 100 streams follow costs one read of its times (on PostgreSQL, a query) and one
/// conversion, not 100. Each entry holds its snapshot, so the object identity it is found by
/// cannot be reused while it is kept; the oldest half is let go as the table fills.
final class SharedWireDocuments: Sendable {
    /// Conversions kept, at most twice this many.
    static let generation = 4_096

    private struct Key: Hashable {
        let snapshot: ObjectIdentifier
        /// The same store may be served under many project names, which responses carry.
        let database: String
    }

    private struct Entry {
        let snapshot: DocumentSnapshot
        let document: Google_Firestore_V1_Document?
    }

    private struct Table {
        var current: [Key: Entry] = [:]
        var previous: [Key: Entry] = [:]
        /// Conversions made (each read times from the store), for tests.
        var made = 0

        func entry(_ key: Key) -> Entry? { current[key] ?? previous[key] }

        mutating func keep(_ entry: Entry, at key: Key) {
            if current.count >= SharedWireDocuments.generation {
                previous = current
                current = [:]
            }
            current[key] = entry
        }
    }

    /// Held while the missing ones are converted, so streams that receive the same change at
    /// the same moment wait for one conversion rather than each making its own.
    private let table = Locked(Table())

    /// `database.wireDocuments(snapshots)`, converting only those not converted before.
    func documents(_ snapshots: [DocumentSnapshot], in database: ServedDatabase, query: Query? = nil) throws -> [Google_Firestore_V1_Document?] {
        try table.withLock { table in
            let keys = snapshots.map { Key(snapshot: ObjectIdentifier($0), database: database.name) }
            var documents = keys.map { table.entry($0)?.document }
            let missing = keys.indices.filter { table.entry(keys[$0]) == nil }
            guard !missing.isEmpty else { return documents }
            let converted = try database.pairedDocuments(missing.map { snapshots[$0] }, query: query)
            table.made += 1
            for (index, pair) in zip(missing, converted) {
                documents[index] = pair.document
                // What a document is now depends on the query: kept only as the snapshot holds it.
                if pair.isSnapshot { table.keep(Entry(snapshot: snapshots[index], document: pair.document), at: keys[index]) }
            }
            return documents
        }
    }

    /// How many times documents were converted (and their times read), for tests.
    var conversions: Int { table.withLock { $0.made } }
}
