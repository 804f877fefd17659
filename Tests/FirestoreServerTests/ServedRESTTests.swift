import FirestoreProtocol
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftProtobuf
import XCTest

/// The server's one port answers HTTP/1.1 beside gRPC, as Google's emulator's does: Firestore's
/// REST API in Google's JSON mapping, and the emulator's own endpoints; the same service
/// behind both transports.
final class ServedRESTTests: XCTestCase {
    private static let documents = "/v1/projects/test/databases/(default)/documents"

    func testADocumentReadOverRESTIsTheOneReadOverGRPC() async throws {
        try await ServedStore.eachBackend { served in
            try await served.commit([served.set("books/dune", ["pages": .integer(412), "title": .string("Dune")])])
            let overGRPC = try await served.get("books/dune")
            let (status, body) = try await served.http("GET", Self.documents + "/books/dune")
            XCTAssertEqual(status, 200, String(decoding: body, as: UTF8.self))
            XCTAssertEqual(try Google_Firestore_V1_Document(jsonUTF8Data: body), overGRPC, "\(served.backend)")

            let (_, masked) = try await served.http("GET", Self.documents + "/books/dune?mask.fieldPaths=pages")
            XCTAssertEqual(Array(try Google_Firestore_V1_Document(jsonUTF8Data: masked).fields.keys), ["pages"])
        }
    }

    func testAMissingDocumentIsNotFoundInGooglesErrorBody() async throws {
        try await ServedStore.with(.folder) { served in
            let (status, body) = try await served.http("GET", Self.documents + "/books/missing")
            XCTAssertEqual(status, 404)
            let error = try XCTUnwrap((try JSONSerialization.jsonObject(with: body) as? [String: Any])?["error"] as? [String: Any])
            XCTAssertEqual(error["code"] as? Int, 404)
            XCTAssertEqual(error["status"] as? String, "NOT_FOUND")
            XCTAssertEqual(error["message"] as? String, "Document (projects/test/databases/(default)/documents/books/missing) not found.", "the emulator's words")

            let (elsewhere, _) = try await served.http("GET", "/no/such/endpoint")
            XCTAssertEqual(elsewhere, 404, "a path with no endpoint, as the emulator answers it")
        }
    }

    /// `DELETE /emulator/v1/projects/{p}/databases/{d}/documents`, which every test set-up
    /// calls (`clearFirestore()`): the database's documents at every depth go, another
    /// project's stay; with a path, only what is under it.
    func testClearingADatabaseDeletesItsDocumentsAtEveryDepthAndNoOtherProjects() async throws {
        try await ServedStore.eachBackend { served in
            try await served.commit([served.set("books/dune", ["pages": .integer(412)]), served.set("books/dune/notes/first", ["text": .string("spice")]),
                                     served.set("shelves/top", ["books": .integer(3)]), served.set("shelves/low", ["books": .integer(1)])])
            try await served.setWhere(in: "projects/other/databases/(default)", where: "other")

            let (subtree, _) = try await served.http("DELETE", "/emulator" + Self.documents + "/shelves")
            XCTAssertEqual(subtree, 200)
            assertSame(try await served.run(Self.all("shelves")), [], "the subtree cleared")
            assertSame(try await served.get("books/dune").fields["pages"], .integer(412), "what is not under the path stays")

            let (status, body) = try await served.http("DELETE", "/emulator" + Self.documents)
            XCTAssertEqual(status, 200, String(decoding: body, as: UTF8.self))
            assertSame(try await served.run(Self.all("books")), [], "\(served.backend)")
            assertSame(try await served.run(Self.all("notes")), [], "a subcollection's documents too")
            assertSame(await served.whereField(in: "projects/other/databases/(default)"), "other", "another project's data")
        }
    }

    /// Each REST method answers what its gRPC method answers: create, update with a mask and a
    /// precondition, list, a query, a batch get, a commit, a delete; and refuses as it does.
    func testTheRESTMethodsAnswerAsTheirGRPCMethods() async throws {
        try await ServedStore.eachBackend { served in
            let (created, _) = try await served.http("POST", Self.documents + "/books?documentId=dune", #"{"fields": {"pages": {"integerValue": "412"}, "title": {"stringValue": "Dune"}}}"#)
            XCTAssertEqual(created, 200)
            let (named, _) = try await served.http("POST", Self.documents + "/books?documentId=true", #"{"fields": {}}"#)
            XCTAssertEqual(named, 200, "an id that reads as a boolean stays an id")
            let (again, _) = try await served.http("POST", Self.documents + "/books?documentId=dune", #"{"fields": {}}"#)
            XCTAssertEqual(again, 409, "ALREADY_EXISTS")
            let (patched, body) = try await served.http("PATCH", Self.documents + "/books/dune?updateMask.fieldPaths=pages", #"{"fields": {"pages": {"integerValue": "500"}, "title": {"stringValue": "not sent"}}}"#)
            XCTAssertEqual(patched, 200, String(decoding: body, as: UTF8.self))
            assertSame(try await served.get("books/dune").fields, ["pages": .integer(500), "title": .string("Dune")], "only the masked field")
            let (missing, _) = try await served.http("PATCH", Self.documents + "/books/emma?currentDocument.exists=true", #"{"fields": {}}"#)
            XCTAssertEqual(missing, 404, "the precondition from the query")

            let (_, listed) = try await served.http("GET", Self.documents + "/books?pageSize=10")
            let list = try Google_Firestore_V1_ListDocumentsResponse(jsonUTF8Data: listed)
            XCTAssertEqual(list.documents.map(\.name), [served.name("books/dune"), served.name("books/true")])

            let (_, queried) = try await served.http("POST", Self.documents + ":runQuery", #"{"structuredQuery": {"from": [{"collectionId": "books"}], "where": {"fieldFilter": {"field": {"fieldPath": "pages"}, "op": "GREATER_THAN", "value": {"integerValue": "100"}}}}}"#)
            let responses = try XCTUnwrap(try JSONSerialization.jsonObject(with: queried) as? [[String: Any]])
            let documents = try responses.compactMap { $0["document"] }.map { try Google_Firestore_V1_Document(jsonUTF8Data: JSONSerialization.data(withJSONObject: $0)) }
            let dune = try await served.get("books/dune")
            XCTAssertEqual(documents, [dune], "a JSON array of the stream's messages")

            let (committed, _) = try await served.http("POST", Self.documents + ":commit", #"{"writes": [{"update": {"name": "\#(served.name("books/war"))", "fields": {"pages": {"integerValue": "1225"}}}}]}"#)
            XCTAssertEqual(committed, 200)
            assertSame(try await served.get("books/war").fields["pages"], .integer(1225))
            let (deleted, _) = try await served.http("DELETE", Self.documents + "/books/war?currentDocument.exists=true")
            XCTAssertEqual(deleted, 200)
            let (gone, _) = try await served.http("DELETE", Self.documents + "/books/war?currentDocument.exists=true")
            XCTAssertEqual(gone, 404, "nothing to delete, with the precondition")

            let (unknown, refusal) = try await served.http("POST", Self.documents + "/books?documentId=x", #"{"nonsense": 1}"#)
            XCTAssertEqual(unknown, 400)
            XCTAssertTrue(String(decoding: refusal, as: UTF8.self).contains("Payload isn't valid for request."), "the emulator's words")
            let (metadata, _) = try await served.http("POST", Self.documents + ":listCollectionIds", "{}")
            XCTAssertEqual(metadata, 403, "the emulator serves it to Bearer owner only")
            let (owner, ids) = try await served.http("POST", Self.documents + ":listCollectionIds", "{}", headers: ["Authorization": "Bearer owner"])
            XCTAssertEqual(owner, 200)
            XCTAssertEqual(try Google_Firestore_V1_ListCollectionIdsResponse(jsonUTF8Data: ids).collectionIds, ["books"])
        }
    }

    /// Every document of a collection group.
    private static func all(_ collection: String) -> Google_Firestore_V1_StructuredQuery {
        var query = Google_Firestore_V1_StructuredQuery()
        var from = Google_Firestore_V1_StructuredQuery.CollectionSelector()
        from.collectionID = collection
        from.allDescendants = true
        query.from = [from]
        return query
    }
}

extension ServedStore {
    /// Sends an HTTP/1.1 request to the server's port: its status and body.
    func http(_ method: String, _ path: String, _ body: String? = nil, headers: [String: String] = [:]) async throws -> (status: Int, body: Data) {
        var request = URLRequest(url: try XCTUnwrap(URL(string: "http://\(address)\(path)")))
        request.httpMethod = method
        request.httpBody = body.map { Data($0.utf8) }
        if body != nil { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (body, response) = try await URLSession.shared.data(for: request)
        return (try XCTUnwrap(response as? HTTPURLResponse).statusCode, body)
    }
}
