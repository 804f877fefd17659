import DocumentStore
import FirestoreProtocol
import FirestoreWire
import Foundation
import GRPCCore
import SwiftProtobuf

/// Firestore's REST API (`/v1/projects/{p}/databases/{d}/documents/...`) and the emulator's own
/// endpoints (`/emulator/v1/...`) on the same service as gRPC: each REST method builds the
/// protocol's request from the URL and body (Google's JSON mapping, swift-protobuf's) and
/// calls what the gRPC method calls, so both transports answer alike.
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

    private func route(_ request: HTTPRequest) async throws -> HTTPAnswer {
        var segments = request.segments[...]
        let isEmulators = segments.first == "emulator"
        if isEmulators { segments = segments.dropFirst() }
        // v1/projects/{p}/databases/{d}/documents[/path…]
        guard segments.count >= 6, segments.first == "v1" else { return .notFound }
        let parts = Array(segments.dropFirst())
        guard parts[0] == "projects", parts[2] == "databases", parts[4] == "documents" else { return .notFound }
        let database = "projects/\(parts[1])/databases/\(parts[3])"
        let path = Array(parts.dropFirst(5))
        switch (isEmulators, request.method) {
        case (true, .DELETE):
            return try clear(database, under: path)
        case (false, .GET) where !path.isEmpty && path.count % 2 == 0:
            var get = Google_Firestore_V1_GetDocumentRequest()
            get.name = ResourceName.name(of: [path.joined(separator: "/")], inDatabase: database)
            let mask = request.queryValues("mask.fieldPaths")
            if !mask.isEmpty { get.mask.fieldPaths = mask }
            let document = try await call(Google_Firestore_V1_Firestore.Method.GetDocument.descriptor) { context in
                try await service.getDocument(request: get, context: context)
            }
            return try json(document)
        default:
            return .notFound
        }
    }

    /// `DELETE /emulator/v1/projects/{p}/databases/{d}/documents[/path]`: every document of the
    /// database (or under the path) deleted, answered `{}` as the emulator answers.
    private func clear(_ database: String, under path: [String]) throws -> HTTPAnswer {
        let served = try service.databases.database(database, field: "database")
        do {
            _ = try served.deleteEverything(under: path)
        } catch {
            throw WireError(error, database: served)
        }
        return HTTPAnswer(status: .ok, body: "{\n}\n")
    }

    /// Calls a method of the service as the gRPC server would, with a context of its own.
    private func call<T>(_ method: MethodDescriptor, _ body: (ServerContext) async throws -> T) async throws -> T {
        try await withServerContextRPCCancellationHandle { cancellation in
            try await body(ServerContext(descriptor: method, remotePeer: "http", localPeer: "http", cancellation: cancellation))
        }
    }

    private func json(_ message: some SwiftProtobuf.Message) throws -> HTTPAnswer {
        HTTPAnswer(status: .ok, body: try message.jsonString())
    }
}
