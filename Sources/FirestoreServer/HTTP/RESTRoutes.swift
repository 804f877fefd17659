import DocumentStore
import FirestoreProtocol
import FirestoreWire
import Foundation
import GRPCCore
import SwiftProtobuf

/// Firestore's REST API (`/v1/projects/{p}/databases/{d}/documents/...`) and the emulator's own
/// endpoints (`/emulator/v1/...`) on the same service as gRPC: each REST method builds the
/// protocol's request from the URL, its query and its body as Google's HTTP transcoding does
/// (the JSON mapping is swift-protobuf's) and calls the gRPC method itself, so both transports
/// answer alike.
struct RESTRoutes: Sendable {
    let service: FirestoreService

    func answer(_ request: HTTPRequest) async -> HTTPAnswer {
        do {
            return try await route(request)
        } catch let error as RPCError {
            return .error(error.code, error.message)
        } catch let error as WireError {
            return .error(error.code, error.message)
        } catch {
            return .error(.internalError, "\(error)")
        }
    }

    /// A request's resource: the database, the path under its documents, and the method named
    /// after a colon (`documents:commit`, `books/dune:listCollectionIds`).
    private struct Resource {
        let database: String
        let path: [String]
        let verb: String?

        /// `projects/p/databases/d/documents[/path]`.
        var name: String { ([database, "documents"] + path).joined(separator: "/") }
        var parentName: String { ([database, "documents"] + path.dropLast()).joined(separator: "/") }
    }

    private func route(_ request: HTTPRequest) async throws -> HTTPAnswer {
        var segments = request.segments[...]
        let isEmulators = segments.first == "emulator"
        if isEmulators { segments = segments.dropFirst() }
        // v1/projects/{p}/databases/{d}/documents[/path…][:verb]
        guard segments.count >= 6, segments.first == "v1" else { return .notFound }
        var parts = Array(segments.dropFirst())
        var verb: String?
        if let last = parts.last, let colon = last.lastIndex(of: ":") {
            verb = String(last[last.index(after: colon)...])
            parts[parts.count - 1] = String(last[..<colon])
        }
        guard parts[0] == "projects", parts[2] == "databases", parts[4] == "documents" else { return .notFound }
        let resource = Resource(database: "projects/\(parts[1])/databases/\(parts[3])", path: Array(parts.dropFirst(5)), verb: verb)
        if isEmulators {
            guard request.method == .DELETE, verb == nil else { return .notFound }
            return try clear(resource)
        }
        let isDocument = !resource.path.isEmpty && resource.path.count % 2 == 0
        switch (request.method, resource.verb) {
        case (.GET, nil) where isDocument:
            let get: Google_Firestore_V1_GetDocumentRequest = try message(request, fields: ["name": resource.name])
            return try await unary(Google_Firestore_V1_Firestore.Method.GetDocument.descriptor) { try await service.getDocument(request: get, context: $0) }
        case (.GET, nil) where !resource.path.isEmpty:
            let list: Google_Firestore_V1_ListDocumentsRequest = try message(request, fields: ["parent": resource.parentName, "collectionId": resource.path.last!])
            return try await unary(Google_Firestore_V1_Firestore.Method.ListDocuments.descriptor) { try await service.listDocuments(request: list, context: $0) }
        case (.POST, nil) where !resource.path.isEmpty && !isDocument:
            let create: Google_Firestore_V1_CreateDocumentRequest = try message(request, fields: ["parent": resource.parentName, "collectionId": resource.path.last!], body: "document")
            return try await unary(Google_Firestore_V1_Firestore.Method.CreateDocument.descriptor) { try await service.createDocument(request: create, context: $0) }
        case (.PATCH, nil) where isDocument:
            var update: Google_Firestore_V1_UpdateDocumentRequest = try message(request, fields: [:], body: "document")
            update.document.name = resource.name
            return try await unary(Google_Firestore_V1_Firestore.Method.UpdateDocument.descriptor) { try await service.updateDocument(request: update, context: $0) }
        case (.DELETE, nil) where isDocument:
            let delete: Google_Firestore_V1_DeleteDocumentRequest = try message(request, fields: ["name": resource.name])
            return try await unary(Google_Firestore_V1_Firestore.Method.DeleteDocument.descriptor) { try await service.deleteDocument(request: delete, context: $0) }
        case (.POST, let verb?):
            return try await call(verb, on: resource, request)
        default:
            return .notFound
        }
    }

    /// The methods named after a colon, each with its whole request as the body.
    private func call(_ verb: String, on resource: Resource, _ request: HTTPRequest) async throws -> HTTPAnswer {
        typealias Method = Google_Firestore_V1_Firestore.Method
        let isDatabase = resource.path.isEmpty
        switch verb {
        case "commit" where isDatabase:
            let commit: Google_Firestore_V1_CommitRequest = try message(request, fields: ["database": resource.database])
            return try await unary(Method.Commit.descriptor) { try await service.commit(request: commit, context: $0) }
        case "batchWrite" where isDatabase:
            let write: Google_Firestore_V1_BatchWriteRequest = try message(request, fields: ["database": resource.database])
            return try await unary(Method.BatchWrite.descriptor) { try await service.batchWrite(request: write, context: $0) }
        case "beginTransaction" where isDatabase:
            let begin: Google_Firestore_V1_BeginTransactionRequest = try message(request, fields: ["database": resource.database])
            return try await unary(Method.BeginTransaction.descriptor) { try await service.beginTransaction(request: begin, context: $0) }
        case "rollback" where isDatabase:
            let rollback: Google_Firestore_V1_RollbackRequest = try message(request, fields: ["database": resource.database])
            return try await unary(Method.Rollback.descriptor) { try await service.rollback(request: rollback, context: $0) }
        case "batchGet" where isDatabase:
            let get: Google_Firestore_V1_BatchGetDocumentsRequest = try message(request, fields: ["database": resource.database])
            return try await streamed(Method.BatchGetDocuments.descriptor) { try await service.batchGetDocuments(request: get, response: $0, context: $1) }
        case "runQuery":
            let query: Google_Firestore_V1_RunQueryRequest = try message(request, fields: ["parent": resource.name])
            return try await streamed(Method.RunQuery.descriptor) { try await service.runQuery(request: query, response: $0, context: $1) }
        case "runAggregationQuery":
            let query: Google_Firestore_V1_RunAggregationQueryRequest = try message(request, fields: ["parent": resource.name])
            return try await streamed(Method.RunAggregationQuery.descriptor) { try await service.runAggregationQuery(request: query, response: $0, context: $1) }
        case "listCollectionIds":
            // The emulator serves this metadata call over REST to its administrator alone.
            guard request.headers["authorization"].contains("Bearer owner") else {
                throw WireError(code: .permissionDenied, message: "Metadata operations require admin authentication.")
            }
            let list: Google_Firestore_V1_ListCollectionIdsRequest = try message(request, fields: ["parent": resource.name])
            return try await unary(Method.ListCollectionIds.descriptor) { try await service.listCollectionIds(request: list, context: $0) }
        case "partitionQuery":
            let partition: Google_Firestore_V1_PartitionQueryRequest = try message(request, fields: ["parent": resource.name])
            return try await unary(Method.PartitionQuery.descriptor) { try await service.partitionQuery(request: partition, context: $0) }
        default:
            return .notFound
        }
    }

    /// `DELETE /emulator/v1/projects/{p}/databases/{d}/documents[/path]`: every document of the
    /// database (or under the path) deleted, answered `{}` as the emulator answers.
    private func clear(_ resource: Resource) throws -> HTTPAnswer {
        let served = try service.databases.database(resource.database, field: "database")
        do {
            _ = try served.deleteEverything(under: resource.path)
        } catch {
            throw WireError(error, database: served)
        }
        return HTTPAnswer(status: .ok, body: "{\n}\n")
    }

    /// The request message as Google's transcoding makes it: `fields` from the path, the query's
    /// parameters by their JSON names (`mask.fieldPaths=a&mask.fieldPaths=b`,
    /// `currentDocument.exists=true`), and the body, the whole request or its `body` field.
    private func message<M: SwiftProtobuf.Message>(_ request: HTTPRequest, fields: [String: String], body field: String? = nil) throws -> M {
        var object: [String: Any] = [:]
        if request.body.readableBytes > 0 {
            let parsed: Any
            do {
                parsed = try JSONSerialization.jsonObject(with: Data(request.body.readableBytesView))
            } catch {
                throw Self.invalidPayload("not JSON")
            }
            guard let body = parsed as? [String: Any] else { throw Self.invalidPayload("not a JSON object") }
            if let field { object[field] = body } else { object = body }
        }
        for (name, value) in fields { object[name] = value }
        for name in Set(request.query.map(\.name)) {
            var keys = name.split(separator: ".").map(String.init)
            let last = keys.removeLast()
            // The requests' only boolean parameters; any other value stays text (an id "true").
            let isFlag = last == "exists" || last == "showMissing"
            let values = request.queryValues(name).map { value -> Any in
                guard isFlag else { return value }
                switch value {
                case "true": return true
                case "false": return false
                default: return value
                }
            }
            object = Self.setting(values.count == 1 && !last.hasSuffix("Paths") ? values[0] : values, at: keys, last, in: object)
        }
        do {
            return try M(jsonUTF8Data: try JSONSerialization.data(withJSONObject: object))
        } catch let error as WireError {
            throw error
        } catch {
            throw Self.invalidPayload("\(error) in \(M.protoMessageName)")
        }
    }

    /// The emulator's words for a body that is not the method's request, then what is wrong.
    private static func invalidPayload(_ reason: String) -> WireError {
        .invalidArgument("Payload isn't valid for request. (\(reason))")
    }

    private static func setting(_ value: Any, at path: [String], _ last: String, in object: [String: Any]) -> [String: Any] {
        var object = object
        guard let first = path.first else {
            object[last] = value
            return object
        }
        object[first] = setting(value, at: Array(path.dropFirst()), last, in: object[first] as? [String: Any] ?? [:])
        return object
    }

    /// Calls a method of the service as the gRPC server would, with a context of its own.
    private func unary(_ method: MethodDescriptor, _ body: (ServerContext) async throws -> some SwiftProtobuf.Message) async throws -> HTTPAnswer {
        let answer = try await withServerContextRPCCancellationHandle { cancellation in
            try await body(ServerContext(descriptor: method, remotePeer: "http", localPeer: "http", cancellation: cancellation))
        }
        return HTTPAnswer(status: .ok, body: try answer.jsonString())
    }

    /// A streaming method's responses, as REST answers them: a JSON array of the messages.
    private func streamed<Response: SwiftProtobuf.Message>(_ method: MethodDescriptor,
                                                           _ body: (RPCWriter<Response>, ServerContext) async throws -> Void) async throws -> HTTPAnswer {
        let collected = CollectingWriter<Response>()
        try await withServerContextRPCCancellationHandle { cancellation in
            try await body(RPCWriter(wrapping: collected), ServerContext(descriptor: method, remotePeer: "http", localPeer: "http", cancellation: cancellation))
        }
        let parts = try collected.messages.withLock { $0 }.map { try $0.jsonString() }
        return HTTPAnswer(status: .ok, body: "[" + parts.joined(separator: ",") + "]")
    }
}

/// Keeps what a streaming method writes, for REST's one answer.
private final class CollectingWriter<Element: Sendable>: RPCWriterProtocol, Sendable {
    let messages = Locked<[Element]>([])

    func write(_ element: Element) async throws { messages.withLock { $0.append(element) } }
    func write(contentsOf elements: some Sequence<Element>) async throws {
        messages.withLock { $0.append(contentsOf: elements) }
    }
}
