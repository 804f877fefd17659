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
    func http(_ method: String, _ path: String) async throws -> (status: Int, body: Data) {
        var request = URLRequest(url: try XCTUnwrap(URL(string: "http://\(address)\(path)")))
        request.httpMethod = method
        let (body, response) = try await URLSession.shared.data(for: request)
        return (try XCTUnwrap(response as? HTTPURLResponse).statusCode, body)
    }
}
