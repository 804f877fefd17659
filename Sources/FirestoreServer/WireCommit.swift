import DocumentStore
import FirestoreProtocol
import FirestoreWire
import Foundation

extension ServedDatabase {
    /// Commits the writes together, after the documents a transaction read (`expected`) and
    /// those an `update_time` precondition names are checked unchanged; answers with each
    /// write's update time and transform results.
    func commit(_ writes: [WireWrite], expecting expected: [String: DocumentSnapshot]) async throws -> Google_Firestore_V1_CommitResponse {
        try await onIOThread {
            var expected = expected
            for write in writes {
                guard let updateTime = write.updateTime else { continue }
                let snapshot = try store.document(write.write.path).readDocument()
                let times = try store.documentTimes([write.write.path]).first!
                guard let times, times.updated == updateTime else {
                    throw WireError.failedPrecondition("The document \(name(of: write.write.path)) was updated at \(times.map { "\($0.updated)" } ?? "no time (it does not exist)"), not at \(updateTime) as the precondition requires")
                }
                if expected[write.write.path] == nil { expected[write.write.path] = snapshot }
            }
            let results = try store.commit(writes.map(\.write), expecting: expected)
            let times = try store.documentTimes(writes.map(\.write.path))
            var response = Google_Firestore_V1_CommitResponse()
            let values = self.values
            response.writeResults = zip(results, zip(writes, times)).map { result, written in
                var wire = Google_Firestore_V1_WriteResult()
                if case .delete = written.0.write.operation {} else if let times = written.1 {
                    wire.updateTime = WireValues.wire(times.updated)
                }
                wire.transformResults = result.transformResults.map(values.wire)
                return wire
            }
            response.commitTime = WireValues.wire(times.compactMap { $0?.updated }.max() ?? Timestamp())
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
