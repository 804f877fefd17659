import DocumentStore
import FirestoreProtocol
import GRPCCore
import XCTest

/// Vectors and named databases as the server and the Swift API share them: a vector is
/// Firestore's tagged map on the wire and a `VectorValue` in the API, and a named database
/// opened through the API is the one the server serves.
final class ServedVectorsTests: XCTestCase {
    private static func vector(_ numbers: [Double]) -> Google_Firestore_V1_Value {
        .map(["__type__": .string("__vector__"), "value": .array(numbers.map { .double($0) })])
    }

    func testAVectorCrossesBetweenAClientAndTheSwiftAPIUnchanged() async throws {
        try await ServedStore.eachBackend { served in
            try await served.commit([served.set("books/dune", ["embedding": Self.vector([0.5, 1.5])])])
            let read = try await served.store.document("books/dune").getDocument()
            XCTAssertEqual(read.get("embedding") as? VectorValue, VectorValue([0.5, 1.5]), "\(served.backend)")

            try await served.store.document("books/emma").setData(["embedding": FieldValue.vector([2.0])])
            let document = try await served.get("books/emma")
            XCTAssertEqual(document.fields["embedding"], Self.vector([2.0]), "\(served.backend)")
        }
    }

    func testAQueryOverTheWireOrdersVectorsBetweenArraysAndMaps() async throws {
        try await ServedStore.eachBackend { served in
            try await served.commit([
                served.set("things/map", ["v": .map(["a": .integer(1)])]),
                served.set("things/long", ["v": Self.vector([1, 1])]),
                served.set("things/short", ["v": Self.vector([9])]),
                served.set("things/array", ["v": .array([.integer(9), .integer(9), .integer(9)])]),
            ])
            let ordered = try await served.run(Google_Firestore_V1_StructuredQuery.collection("things").ordered("v"))
            XCTAssertEqual(ordered, ["array", "short", "long", "map"], "\(served.backend)")
        }
    }

    func testANamedDatabaseOfTheSwiftAPIIsTheOneTheServerServes() async throws {
        try await ServedStore.eachBackend { served in
            let named = Firestore.firestore(app: served.store.app, database: "other-db")
            try await named.document("books/dune").setData(["where": "other"])
            var get = Google_Firestore_V1_GetDocumentRequest()
            get.name = "projects/test/databases/other-db/documents/books/dune"
            let document = try await served.client.getDocument(get)
            XCTAssertEqual(document.fields["where"], .string("other"), "\(served.backend)")
            try await named.terminate()
            if served.backend == .postgres {
                try? PostgresCluster.shared().dropDatabase("\"\(served.location.lastPathComponent)__other-db\"")
            }
        }
    }
}
