import DocumentStore
import FirestoreProtocol
import FirestoreWire
import Foundation
import GRPCCore

/// The `Write` stream of the mobile SDKs: a handshake (the first request names the database
/// and carries no writes; the answer gives the stream's id and token), then each request's
/// writes committed together and answered with their results and a new token. A write that
/// fails ends the stream with its status, as Firestore's does. Its commits take the
/// transactions' locks as every other commit does (`FirestoreService.commitLocked`).
struct WriteStream {
    let databases: ServedDatabases
    let service: FirestoreService

    func serve(_ requests: RPCAsyncSequence<Google_Firestore_V1_WriteRequest, any Error>,
               response: RPCWriter<Google_Firestore_V1_WriteResponse>) async throws {
        var database: ServedDatabase?
        let streamID = UUID().uuidString
        var sequence: UInt64 = 0
        for try await request in requests {
            var message = Google_Firestore_V1_WriteResponse()
            if let database {
                do {
                    let writes = try request.writes.enumerated().map { index, write throws(WireError) in try FirestoreWrite(write, index: index, in: database) }
                    let committed = try await service.commitLocked(writes, in: database)
                    message.writeResults = committed.writeResults
                    message.commitTime = committed.commitTime
                } catch {
                    throw WireError(error, database: database).rpcError
                }
            } else {
                do { database = try databases.database(request.database, field: "database") } catch { throw error.rpcError }
                guard request.writes.isEmpty else {
                    throw RPCError(code: .invalidArgument, message: "writes: the first request of a Write stream is the handshake and carries no writes")
                }
                message.streamID = streamID
            }
            sequence += 1
            withUnsafeBytes(of: sequence.bigEndian) { message.streamToken = Data($0) }
            try await response.write(message)
        }
    }
}
