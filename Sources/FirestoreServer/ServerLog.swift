import DocumentStore
import FirestoreProtocol
import Foundation
import GRPCCore

/// What `shelf serve` tells its operator on standard error, one line a call: every call that
/// failed, always (a client sees only its own status; whoever runs the server needs to see
/// them too), and with `verbose` every call. A line reads
/// `2026-01-02T03:04:05.678Z Commit projects/p/databases/(default) 1.2 ms NOT_FOUND: message`:
/// the time, the method, the resource the request names, how long it took, the status.
public struct ServerLog: Sendable {
    public let verbose: Bool
    private let write: @Sendable (String) -> Void

    /// `write` takes each line (without its newline); standard error unless a test listens.
    public init(verbose: Bool = false, write: (@Sendable (String) -> Void)? = nil) {
        self.verbose = verbose
        self.write = write ?? { line in FileHandle.standardError.write(Data((line + "\n").utf8)) }
    }

    /// One call's line: always when it failed (`error`), else only when verbose.
    func call(_ method: String, resource: String?, took duration: Duration?, error: RPCError?) {
        guard error != nil || verbose else { return }
        var line = Date().formatted(Self.time) + " " + method + " " + (resource.map { $0.isEmpty ? "-" : $0 } ?? "-")
        if let duration {
            let milliseconds = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
            line += " " + milliseconds.formatted(.number.precision(.fractionLength(1)).grouping(.never)) + " ms"
        }
        if let error {
            line += " " + (FirestoreErrorCode.Code(rawValue: error.code.rawValue)?.statusName ?? "STATUS_\(error.code.rawValue)") + ": " + error.message
        } else {
            line += " OK"
        }
        // One line each, whatever a request's names or a message hold.
        write(String(line.map { $0.isNewline ? " " : $0 }))
    }

    private static let time = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

}

/// Logs each call as it ends (`ServerLog`): its status and how long it took, and the resource
/// its first request names, seen as the request passes through.
struct CallLogInterceptor: ServerInterceptor {
    let log: ServerLog

    func intercept<Input: Sendable, Output: Sendable>(
        request: StreamingServerRequest<Input>, context: ServerContext,
        next: @Sendable (StreamingServerRequest<Input>, ServerContext) async throws -> StreamingServerResponse<Output>
    ) async throws -> StreamingServerResponse<Output> {
        let start = ContinuousClock.now
        let method = context.descriptor.method
        let resource = Locked<String?>(nil)
        var request = request
        request.messages = RPCAsyncSequence(wrapping: FirstMessageSeen(base: request.messages) { message in
            resource.withLock { $0 = (message as? NamesResource)?.resourceName }
        })
        let log = self.log
        let ended: @Sendable (RPCError?) -> Void = { error in
            log.call(method, resource: resource.withLock { $0 }, took: ContinuousClock.now - start, error: error)
        }
        let response: StreamingServerResponse<Output>
        do {
            response = try await next(request, context)
        } catch {
            ended(Self.rpcError(error))
            throw error
        }
        switch response.accepted {
        case .failure(let error):
            ended(error)
            return response
        case .success(var contents):
            let produce = contents.producer
            contents.producer = { writer in
                do {
                    let trailers = try await produce(writer)
                    ended(nil)
                    return trailers
                } catch {
                    ended(Self.rpcError(error))
                    throw error
                }
            }
            return StreamingServerResponse(accepted: .success(contents))
        }
    }

    /// What the client hears for `error`: gRPC sends any other error as UNKNOWN.
    private static func rpcError(_ error: any Error) -> RPCError {
        if let error = error as? RPCError { return error }
        if let convertible = error as? any RPCErrorConvertible { return RPCError(convertible) }
        return RPCError(code: .unknown, message: "\(error)")
    }
}

/// A request stream that calls `seen` with its first message, as it passes.
private struct FirstMessageSeen<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element: Sendable {
    typealias Element = Base.Element
    let base: Base
    let seen: @Sendable (Base.Element) -> Void

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        let seen: @Sendable (Base.Element) -> Void
        var first = true

        mutating func next() async throws -> Base.Element? {
            let element = try await base.next()
            if first, let element {
                first = false
                seen(element)
            }
            return element
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: base.makeAsyncIterator(), seen: seen) }
}

/// A request that names a resource (a document, a parent, a database), for the log.
protocol NamesResource {
    var resourceName: String { get }
}

extension Google_Firestore_V1_GetDocumentRequest: NamesResource { var resourceName: String { name } }
extension Google_Firestore_V1_ListDocumentsRequest: NamesResource { var resourceName: String { parent } }
extension Google_Firestore_V1_CreateDocumentRequest: NamesResource { var resourceName: String { parent } }
extension Google_Firestore_V1_UpdateDocumentRequest: NamesResource { var resourceName: String { document.name } }
extension Google_Firestore_V1_DeleteDocumentRequest: NamesResource { var resourceName: String { name } }
extension Google_Firestore_V1_BatchGetDocumentsRequest: NamesResource { var resourceName: String { database } }
extension Google_Firestore_V1_BeginTransactionRequest: NamesResource { var resourceName: String { database } }
extension Google_Firestore_V1_CommitRequest: NamesResource { var resourceName: String { database } }
extension Google_Firestore_V1_RollbackRequest: NamesResource { var resourceName: String { database } }
extension Google_Firestore_V1_RunQueryRequest: NamesResource { var resourceName: String { parent } }
extension Google_Firestore_V1_RunAggregationQueryRequest: NamesResource { var resourceName: String { parent } }
extension Google_Firestore_V1_PartitionQueryRequest: NamesResource { var resourceName: String { parent } }
extension Google_Firestore_V1_WriteRequest: NamesResource { var resourceName: String { database } }
extension Google_Firestore_V1_ListenRequest: NamesResource { var resourceName: String { database } }
extension Google_Firestore_V1_ListCollectionIdsRequest: NamesResource { var resourceName: String { parent } }
extension Google_Firestore_V1_BatchWriteRequest: NamesResource { var resourceName: String { database } }
