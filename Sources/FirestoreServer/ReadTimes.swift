import DocumentStore
import FirestoreProtocol
import FirestoreWire
import Foundation
import SwiftProtobuf

/// Reads at a past time (a request's `read_time`, or a read-only transaction begun with one):
/// the store as it was then (`Firestore.asOf`, from the versions the backend keeps), within
/// Firestore's window of an hour and refused beyond it as Firestore refuses; and the read time
/// every read's response carries: the time asked, else now (`CommitClock.readTime`).
extension FirestoreService {
    /// The database as `consistency` reads it, and the read time its responses carry.
    func view(_ consistency: ReadConsistency?, of database: ServedDatabase) throws -> (database: ServedDatabase, readTime: Timestamp) {
        var time: Timestamp?
        switch consistency {
        case .readTime(let wire)?:
            time = try Self.pastTime(wire, values: database.values)
        case .newTransaction(let options)?:
            time = try Self.readTime(of: options, values: database.values)
        case .transaction(let id)?:
            if transactions.contains(id, database: database.name) { time = try transactions.entry(id, database: database.name).readTime }
        case nil:
            break
        }
        guard let time else { return (database, CommitClock.readTime()) }
        return (ServedDatabase(name: database.name, store: database.store.asOf(time)), time)
    }

    /// The read time a read-only transaction is begun with, checked; nil for one that reads now.
    static func readTime(of options: Google_Firestore_V1_TransactionOptions, values: WireValues) throws(WireError) -> Timestamp? {
        guard case .readOnly(let readOnly)? = options.mode, case .readTime(let wire)? = readOnly.consistencySelector else { return nil }
        return try pastTime(wire, values: values)
    }

    /// A time to read at, refused as Firestore refuses it (the emulator's words): before 1970,
    /// finer than a microsecond, in the future, or older than the versions kept
    /// (`PastVersion.window`, an hour, Firestore's without point-in-time recovery; the emulator
    /// reads back seven days).
    static func pastTime(_ wire: Google_Protobuf_Timestamp, values: WireValues) throws(WireError) -> Timestamp {
        let time = try values.timestamp(wire, field: "read_time")
        guard time > Timestamp(seconds: 0, nanoseconds: 0) else { throw .invalidArgument("Only timestamps past epoch are supported.") }
        guard time.nanoseconds % 1000 == 0 else { throw .invalidArgument("timestamp cannot have more than microseconds precision") }
        guard time <= CommitClock.readTime() else { throw .invalidArgument("The requested 'read_time' cannot be in the future.") }
        let now = Timestamp()
        guard time >= Timestamp(seconds: now.seconds - PastVersion.window, nanoseconds: now.nanoseconds) else {
            throw .failedPrecondition("The requested 'read_time' is too old.")
        }
        return time
    }
}
