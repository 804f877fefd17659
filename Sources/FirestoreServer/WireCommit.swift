import DocumentStore
import FirestoreProtocol
import FirestoreWire
import Foundation

extension ServedDatabase {
    /// Commits the writes together, after the documents a transaction read (`expected`) are
    /// checked unchanged; answers with each write's update time and transform results.
    func commit(_ writes: [FirestoreWrite], expecting expected: [String: DocumentSnapshot], lockedBy owner: LockOwner) async throws
        -> Google_Firestore_V1_CommitResponse {
        try await onIOThread {
            let results = try store.commit(writes, expecting: expected, lockedBy: owner)
            var response = Google_Firestore_V1_CommitResponse()
            let values = self.values
            response.writeResults = results.map { result in
                var wire = Google_Firestore_V1_WriteResult()
                if let time = result.updateTime { wire.updateTime = WireValues.wire(time) }
                wire.transformResults = result.transformResults.map(values.wire)
                return wire
            }
            // Only deletes, or writes that changed nothing (whose update time is the document's
            // earlier one): a time at or after the commit's, before any later commit's, so a
            // read at it (`read_time`) sees the commit and nothing after.
            let changedTimes = results.filter(\.changed).compactMap(\.updateTime)
            response.commitTime = WireValues.wire(changedTimes.max() ?? CommitClock.readTime())
            return response
        }
    }
}

/// Runs blocking store work (file reads, fsync, a PostgreSQL round trip) on a Dispatch thread,
/// so that it never holds one of the few threads Swift's concurrency runs every request on.
func onIOThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
    }
}
