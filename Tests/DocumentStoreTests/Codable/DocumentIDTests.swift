@testable import DocumentStore
import Foundation
import XCTest

/// `@DocumentID`: filled from the document being decoded (as its id or its reference), never
/// written, and refused by other coders.
final class DocumentIDTests: StoreTestCase {
    struct ByReference: Codable, Equatable {
        var name: String
        @DocumentID var docId: DocumentReference?
    }

    struct ByString: Codable, Equatable {
        var name: String
        @DocumentID var docId: String?
    }

    func testFilledWithTheReference() {
        assertDecodes(["name": "abc"], to: ByReference(name: "abc", docId: db.document("abc/123")), in: db.document("abc/123"))
    }

    func testFilledWithTheID() {
        assertDecodes(["name": "abc"], to: ByString(name: "abc", docId: "123"), in: db.document("abc/123"))
    }

    func testLeftOutWhenEncoding() {
        assertEncodes(ByReference(name: "abc", docId: db.document("abc/123")), to: ["name": "abc"])
        assertEncodes(ByString(name: "abc", docId: "123"), to: ["name": "abc"])
    }

    func testNilWhenDecodedWithoutADocument() {
        assertDecodes(["name": "abc"], to: ByString(name: "abc", docId: nil))
    }

    func testOtherCodersRefuseIt() {
        let encoding = thrownError { _ = try JSONEncoder().encode(DocumentID(wrappedValue: self.db.document("abc/xyz"))) }
        guard case .encodingIsNotSupported(let message)? = encoding as? FirestoreEncodingError else {
            return XCTFail("expected FirestoreEncodingError.encodingIsNotSupported, got \(String(describing: encoding))")
        }
        XCTAssertEqual(message, "DocumentID values can only be encoded with Firestore.Encoder")

        let decoding = thrownError { _ = try JSONDecoder().decode(ByString.self, from: Data(#"{"name": "abc", "docId": "x"}"#.utf8)) }
        guard case .decodingIsNotSupported(let reason)? = decoding as? FirestoreDecodingError else {
            return XCTFail("expected FirestoreDecodingError.decodingIsNotSupported, got \(String(describing: decoding))")
        }
        XCTAssertEqual(reason, "DocumentID values can only be decoded with Firestore.Decoder")
    }

    /// As Firebase's SDK since version 10: a field named as the property does not conflict;
    /// the property holds the document's id. (Versions before threw `fieldNameConflict`.)
    func testAFieldOfTheSameNameIsIgnored() throws {
        let model = try Firestore.Decoder().decode(ByReference.self, from: ["name": "abc", "docId": "Does not cause conflict"],
                                                   in: db.document("abc/123"))
        XCTAssertEqual(model, ByReference(name: "abc", docId: db.document("abc/123")))
        let byString = try Firestore.Decoder().decode(ByString.self, from: ["name": "abc", "docId": 5], in: db.document("abc/123"))
        XCTAssertEqual(byString.docId, "123")
    }

    /// Code that names Firebase's cases compiles here.
    func testFirebasesErrorCasesExist() {
        func describe(_ error: FirestoreDecodingError) -> String {
            switch error {
            case .decodingIsNotSupported(let message): return "decodingIsNotSupported: \(message)"
            case .fieldNameConflict(let message): return "fieldNameConflict: \(message)"
            }
        }
        XCTAssertEqual(describe(.fieldNameConflict("x")), "fieldNameConflict: x")
        switch FirestoreEncodingError.encodingIsNotSupported("y") {
        case .encodingIsNotSupported(let message): XCTAssertEqual(message, "y")
        }
    }

    /// A model with its own coding decodes the wrapper by its key.
    func testAModelWithItsOwnCoding() {
        struct Model: Codable, Equatable {
            var name: String
            @DocumentID var docId: DocumentReference?

            enum CodingKeys: String, CodingKey { case name, docId }

            init(name: String, docId: DocumentReference?) {
                self.name = name
                self.docId = docId
            }

            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                name = try container.decode(String.self, forKey: .name)
                docId = try container.decode(DocumentID<DocumentReference>.self, forKey: .docId).wrappedValue
            }

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(name, forKey: .name)
            }
        }
        assertEncodes(Model(name: "n", docId: nil), to: ["name": "n"])
        assertDecodes(["name": "n"], to: Model(name: "n", docId: db.document("things/t1")), in: db.document("things/t1"))
    }

    /// A nested model's `@DocumentID` is the document's too, as Firebase passes the reference down.
    func testANestedModelGetsTheDocumentsID() {
        struct Inner: Codable, Equatable {
            @DocumentID var owner: String?
            var label: String
        }
        struct Outer: Codable, Equatable {
            var inner: Inner
        }
        assertDecodes(["inner": ["label": "l"]], to: Outer(inner: Inner(owner: "o1", label: "l")), in: db.document("outers/o1"))
    }

    // MARK: Through the store

    func testWrittenWithoutTheIDAndReadWithIt() async throws {
        let ref = db.collection("books").document("hitchhiker")
        try ref.write(ByString(name: "H2G2", docId: "some-other-id"))
        XCTAssertEqual(store.readFile("books/hitchhiker.json"), "{\n  \"name\": \"H2G2\"\n}\n")
        let byString = try await ref.getDocument(as: ByString.self)
        XCTAssertEqual(byString, ByString(name: "H2G2", docId: "hitchhiker"))
        let byReference = try await ref.getDocument(as: ByReference.self)
        XCTAssertEqual(byReference, ByReference(name: "H2G2", docId: ref))
    }

    func testInSubcollectionsQueriesAndAddedDocuments() async throws {
        let reviews = db.collection("books/hitchhiker/reviews")
        let added = try reviews.add(ByString(name: "review"))
        XCTAssertEqual(added.documentID.count, 20)
        let snapshot = try await reviews.getDocuments()
        XCTAssertEqual(try snapshot.documents.map { try $0.data(as: ByString.self) }, [ByString(name: "review", docId: added.documentID)])
        XCTAssertEqual(try snapshot.documents.map { try $0.data(as: ByReference.self).docId?.path },
                       ["books/hitchhiker/reviews/\(added.documentID)"])
    }
}
