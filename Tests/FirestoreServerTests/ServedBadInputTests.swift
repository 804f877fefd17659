import DocumentStore
import DocumentStorePostgres
import FirestoreProtocol
import GRPCCore
import SwiftProtobuf
import XCTest

/// Requests Firestore refuses get its status and a message naming what is wrong; the server
/// goes on serving.
final class ServedBadInputTests: XCTestCase {
    func testMalformedNamesAndValuesAreRefusedNamingTheField() async throws {
        try await ServedStore.with(.folder) { served in
            var get = Google_Firestore_V1_GetDocumentRequest()
            get.name = "projects/test/databases/(default)/documents/books"
            let collection = await status { try await served.client.getDocument(get) }
            XCTAssertEqual(collection?.0, .invalidArgument)
            XCTAssertTrue(collection?.1.hasPrefix("name:") ?? false, collection?.1 ?? "")
            get.name = "books/dune"
            assertSame(await status { try await served.client.getDocument(get) }?.0, .invalidArgument)
            get.name = "projects/test/databases/Not_Valid/documents/books/dune"
            let database = await status { try await served.client.getDocument(get) }
            XCTAssertEqual(database?.0, .invalidArgument)
            XCTAssertTrue(database?.1.contains("database id") ?? false, database?.1 ?? "")

            let nested = await status { try await served.commit([served.set("books/a", ["list": .array([.array([])])])]) }
            XCTAssertEqual(nested?.0, .invalidArgument)
            XCTAssertTrue(nested?.1.contains("list[0]") ?? false, nested?.1 ?? "")
            var time = Google_Firestore_V1_Value()
            time.timestampValue = Google_Protobuf_Timestamp(seconds: 0, nanos: 1_000_000_000)
            let nanos = await status { try await served.commit([served.set("books/a", ["when": time])]) }
            XCTAssertEqual(nanos?.0, .invalidArgument)
            var query = Google_Firestore_V1_StructuredQuery.collection("books")
            query.where.fieldFilter.field.fieldPath = "a..b"
            query.where.fieldFilter.op = .equal
            let path = await status { try await served.run(query) }
            XCTAssertEqual(path?.0, .invalidArgument)
            XCTAssertTrue(path?.1.contains("a..b") ?? false, path?.1 ?? "")

            try await served.commit([served.set("books/ok", ["n": .integer(1)])])
            assertSame(try await served.get("books/ok").fields["n"], .integer(1), "the server still answers")
        }
    }

    /// Issue 51: the transport reset the stream of a request over 10 MiB (the client saw
    /// `Cancelled … RST_STREAM`, the server said nothing). Firestore answers INVALID_ARGUMENT
    /// naming its limit; so does Shelf, logs it, and goes on.
    func testARequestOverTenMebibytesIsRefusedNamingTheLimitAndTheServerGoesOn() async throws {
        try await ServedStore.with(.folder) { served in
            let part = Data(count: 1_000_000)  // eleven documents of 1 MB, each within a document's limit
            let writes = (0..<11).map { served.set("books/big\($0)", ["b": .bytes(part)]) }
            let refused = await status { try await served.commit(writes) }
            XCTAssertEqual(refused?.0, .invalidArgument)
            XCTAssertTrue(refused?.1.hasPrefix("Request payload size exceeds the limit: 10485760 bytes") ?? false, refused?.1 ?? "")
            assertSame(await status { try await served.get("books/big0") }?.0, .notFound)
            let big = String(repeating: "x", count: 11 * 1024 * 1024)
            let tooLarge = await status { try await served.commit([served.set("books/big", ["text": .string(String(big.prefix(2 * 1024 * 1024)))])]) }
            XCTAssertEqual(tooLarge?.0, .invalidArgument, "a document over Firestore's 1 MiB: \(tooLarge?.1 ?? "")")
            try await served.commit([served.set("books/ok", [:])])
        }
    }

    /// A newer client's field Shelf's protocol leaves out (vector search, query explain) is
    /// refused, never ignored: a query answered without it would be silently wrong.
    func testFieldsShelfDoesNotKnowAreRefusedNotIgnored() async throws {
        try await ServedStore.with(.folder) { served in
            try await served.commit([served.set("books/a", ["n": .integer(1)])])
            var bytes = try Google_Firestore_V1_StructuredQuery.collection("books").serializedData()
            bytes.append(contentsOf: [9 << 3 | 2, 0])  // find_nearest, empty
            let nearest = try Google_Firestore_V1_StructuredQuery(serializedBytes: bytes)
            let refused = await status { try await served.run(nearest) }
            XCTAssertEqual(refused?.0, .unimplemented)
            XCTAssertTrue(refused?.1.contains("find_nearest") ?? false, refused?.1 ?? "")

            var request = Google_Firestore_V1_RunQueryRequest()
            request.parent = ServedStore.database + "/documents"
            request.structuredQuery = .collection("books")
            var explained = try request.serializedData()
            explained.append(contentsOf: [10 << 3 | 2, 0])  // explain_options, empty
            let explain = try Google_Firestore_V1_RunQueryRequest(serializedBytes: explained)
            let answer = await status { try await served.client.runQuery(explain) { try await $0.messages.reduce(0) { n, _ in n + 1 } } }
            XCTAssertEqual(answer?.0, .unimplemented)
            XCTAssertTrue(answer?.1.contains("explain_options") ?? false, answer?.1 ?? "")
            assertSame(try await served.run(.collection("books")), ["a"])
        }
    }

    /// A named database is a store of its own where the README says: a folder under the data
    /// folder's `__databases__`, or a PostgreSQL database beside the served one.
    func testNamedDatabasesAreKeptApartFromTheDefaultWhereTheReadmeSays() async throws {
        try await ServedStore.eachBackend { served in
            var write = served.set("books/dune", ["where": .string("other")])
            write.update.name = "projects/test/databases/other-db/documents/books/dune"
            var request = Google_Firestore_V1_CommitRequest()
            request.database = "projects/test/databases/other-db"
            request.writes = [write]
            _ = try await served.client.commit(request)
            assertSame(await status { try await served.get("books/dune") }?.0, .notFound, "not in (default)")
            var get = Google_Firestore_V1_GetDocumentRequest()
            get.name = write.update.name
            assertSame(try await served.client.getDocument(get).fields["where"], .string("other"))
            var mixed = request
            mixed.database = ServedStore.database
            assertSame(await status { try await served.client.commit(mixed) }?.0, .invalidArgument, "a write naming another database")

            switch served.backend {
            case .folder:
                let file = served.location.appendingPathComponent("__databases__/other-db/books/dune.json")
                XCTAssertTrue(FileManager.default.fileExists(atPath: file.path), file.path)
            case .postgres:
                let database = served.location.lastPathComponent + "__other-db"
                defer { try? PostgresCluster.shared().dropDatabase("\"\(database)\"") }
                let named = try Firestore(url: served.location.deletingLastPathComponent().appendingPathComponent(database))
                let document = try named.document("books/dune").readDocument()
                XCTAssertEqual(document.data()?["where"] as? String, "other", "in the PostgreSQL database \(database)")
            }
        }
    }
}
