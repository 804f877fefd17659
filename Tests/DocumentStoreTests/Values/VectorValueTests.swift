@testable import DocumentStore
import Foundation
import XCTest

/// `VectorValue` and `FieldValue.vector(_:)`: stored as Firestore's vector type (the map
/// `{"__type__": "__vector__", "value": [numbers]}`), read back as a `VectorValue`, ordered
/// between arrays and maps by length and then numbers, and Codable as Firebase's.
final class VectorValueTests: StoreTestCase {
    private var ref: DocumentReference { db.collection("books").document("dune") }

    func testAVectorIsReadBackAsAVectorValueOfTheSameNumbers() async throws {
        try await ref.setData(["embedding": FieldValue.vector([1.0, 2.5, -3.0])])
        let read = try await ref.getDocument()
        let vector = try XCTUnwrap(read.get("embedding") as? VectorValue, "\(type(of: read.get("embedding")))")
        XCTAssertEqual(vector.data, [1.0, 2.5, -3])
        XCTAssertEqual(vector, VectorValue([1.0, 2.5, -3]))
    }

    func testAFloatVectorIsStoredAsDoubles() async throws {
        try await ref.setData(["embedding": FieldValue.vector([Float(0.5), 1.25])])
        let read = try await ref.getDocument()
        XCTAssertEqual((read.get("embedding") as? VectorValue)?.data, [0.5, 1.25])
    }

    func testAVectorIsStoredAsFirestoresTaggedMap() async throws {
        try await ref.setData(["embedding": FieldValue.vector([1.0, 2.0])])
        let stored = try XCTUnwrap(try storedFields(ref.path)["embedding"]?.mapValue)
        XCTAssertEqual(stored.names, ["__type__", "value"])
        XCTAssertEqual(stored["__type__"], .string("__vector__"))
        XCTAssertEqual(stored["value"], .array([.double(1), .double(2)]))
    }

    func testVectorsSortAfterArraysAndBeforeMapsByLengthThenNumbers() async throws {
        let books = db.collection("books")
        try await books.document("a").setData(["v": [9, 9, 9]])
        try await books.document("b").setData(["v": FieldValue.vector([5.0])])
        try await books.document("c").setData(["v": FieldValue.vector([1.0, 2.0])])
        try await books.document("d").setData(["v": FieldValue.vector([1.0, 3.0])])
        try await books.document("e").setData(["v": ["a": 1]])
        let ascending = try await books.order(by: "v").getDocuments().documents.map(\.documentID)
        XCTAssertEqual(ascending, ["a", "b", "c", "d", "e"])
        let longer = try await books.whereField("v", isGreaterThan: FieldValue.vector([9.0])).getDocuments().documents.map(\.documentID)
        XCTAssertEqual(longer, ["c", "d"], "a range on a vector matches only vectors, the longer ones after")
    }

    /// The order Firebase's own vector tests expect of the backend: arrays, then vectors by
    /// length (infinities in place), then by numbers, then maps.
    func testVectorsOfEveryLengthAndInfinitiesOrderAsFirestoresBackend() async throws {
        let inOrder: [Any] = [
            [3, 1], [50],
            FieldValue.vector([-Double.infinity]), FieldValue.vector([-7.5]), FieldValue.vector([7.5]), FieldValue.vector([Double.infinity]),
            FieldValue.vector([1, 8.0]), FieldValue.vector([3, 0.5]), FieldValue.vector([1, 1, 1.0]),
            FieldValue.vector([9, 0, 0, 0.5]), FieldValue.vector([9, 0, 0, 1.0]),
            ["A": "z"], ["a": "z"],
        ]
        let things = db.collection("things")
        for (index, value) in inOrder.enumerated() {
            try await things.document(String(format: "d%02d", inOrder.count - index)).setData(["v": value])
        }
        let expected = inOrder.indices.map { String(format: "d%02d", inOrder.count - $0) }
        let ordered = try await things.order(by: "v").getDocuments().documents.map(\.documentID)
        XCTAssertEqual(ordered, expected)
        let below = try await things.whereField("v", isLessThan: FieldValue.vector([1, 1, 1.0])).order(by: "v").getDocuments()
        XCTAssertEqual(below.documents.map(\.documentID), Array(expected[2...7]), "only vectors, and only the smaller")
    }

    func testAddDocumentAndUpdateDataTakeVectors() async throws {
        let added = try await db.collection("books").addDocument(data: ["v": FieldValue.vector([0.0])])
        try await added.updateData(["w": FieldValue.vector([-1, -200, -999.5])])
        let read = try await added.getDocument()
        XCTAssertEqual(read.get("v") as? VectorValue, FieldValue.vector([0.0]))
        XCTAssertEqual(read.get("w") as? VectorValue, VectorValue([-1, -200, -999.5]))
    }

    func testAQueryForAVectorFindsTheDocumentHoldingIt() async throws {
        try await ref.setData(["v": FieldValue.vector([1.0, 2.0])])
        try await db.document("books/emma").setData(["v": FieldValue.vector([2.0, 1.0])])
        let found = try await db.collection("books").whereField("v", isEqualTo: FieldValue.vector([1.0, 2.0])).getDocuments()
        XCTAssertEqual(found.documents.map(\.documentID), ["dune"])
    }

    func testAModelHoldingAVectorRoundTripsThroughTheStoreAsAVector() async throws {
        struct Book: Codable, Equatable {
            var title: String
            var embedding: VectorValue
        }
        let book = Book(title: "Dune", embedding: VectorValue([0.25, 0.75]))
        try ref.setData(from: book)
        let read = try await ref.getDocument(as: Book.self)
        XCTAssertEqual(read, book)
        XCTAssertEqual(try storedFields(ref.path)["embedding"]?.vectorElements, [.double(0.25), .double(0.75)])
    }

    func testDecodingAVectorAsAnotherTypeSaysItFoundAVector() async throws {
        struct Titled: Decodable { var embedding: String }
        try await ref.setData(["embedding": FieldValue.vector([1.0, 2.0])])
        let error = await thrownError { _ = try await self.ref.getDocument(as: Titled.self) }
        let message = contextDescription(error) ?? ""
        XCTAssertTrue(message.contains("found a vector of 2 numbers"), message)
    }

    func testAVectorIsCodableAsFirebasesKeyedNumbers() throws {
        let json = try JSONEncoder().encode(VectorValue([1, 2.5]))
        XCTAssertEqual(String(decoding: json, as: UTF8.self), #"{"data":[1,2.5]}"#)
        XCTAssertEqual(try JSONDecoder().decode(VectorValue.self, from: json), VectorValue([1, 2.5]))
    }

    func testEqualVectorsAreEqualInsideDictionaries() {
        XCTAssertEqual(["v": FieldValue.vector([1.0, 2.0])] as NSDictionary, ["v": VectorValue([1, 2])] as NSDictionary)
        XCTAssertNotEqual(["v": FieldValue.vector([1.0, 2.0])] as NSDictionary, ["v": VectorValue([2, 1])] as NSDictionary)
        XCTAssertEqual(VectorValue([1, 2]).hash, VectorValue([1, 2]).hash)
        XCTAssertEqual(VectorValue(__nsNumbers: [1, 2]).__toNSArray(), [1, 2])
    }

    func testAMapThatOnlyLooksLikeAVectorStillHasAReservedName() async throws {
        let error = await thrownError { try await self.ref.setData(["v": ["__type__": "__vector__", "value": "many"]]) } as NSError?
        XCTAssertEqual(error?.code, FirestoreErrorCode.invalidArgument.rawValue)
        XCTAssertTrue(error?.localizedDescription.contains("reserved") == true, error?.localizedDescription ?? "")
    }
}
