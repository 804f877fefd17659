@testable import DocumentStore
import Foundation
import XCTest

/// Point 2: `@DocumentID`, `@ServerTimestamp`, `@ExplicitNull`, and plain optionals.
final class PropertyWrapperTests: StoreTestCase {
    struct Book: Codable, Equatable {
        @DocumentID var id: String?
        var title: String
    }

    func testDocumentIDIsFilledFromTheIdAndNeverWritten() async throws {
        let ref = db.collection("books").document("hitchhiker")
        try ref.setData(from: Book(id: "some-other-id", title: "H2G2"))
        XCTAssertEqual(store.readFile("books/hitchhiker.json"), "{\n  \"title\": \"H2G2\"\n}\n")
        let read = try await ref.getDocument(as: Book.self)
        XCTAssertEqual(read.id, "hitchhiker")
        XCTAssertEqual(read, Book(id: "hitchhiker", title: "H2G2"))
    }

    /// As Firebase's SDK since version 10 (see DocumentIDTests).
    func testDocumentIDWinsOverAFieldOfTheSameName() async throws {
        try store.writeFile("books/named.json", #"{"id": "from-the-field", "title": "T"}"#)
        let read = try await db.document("books/named").getDocument(as: Book.self)
        XCTAssertEqual(read.id, "named")
    }

    func testDocumentIDInSubcollectionsAndQueriesAndAddDocument() async throws {
        let reviews = db.collection("books/hitchhiker/reviews")
        let added = try reviews.addDocument(from: Book(title: "review"))
        XCTAssertEqual(added.documentID.count, 20)
        let snapshot = try await reviews.getDocuments()
        let books = try snapshot.documents.map { try $0.data(as: Book.self) }
        XCTAssertEqual(books, [Book(id: added.documentID, title: "review")])
    }

    struct Linked: Codable {
        @DocumentID var reference: DocumentReference?
        var title: String
    }

    func testDocumentIDCanHoldTheReference() async throws {
        try await db.document("books/linked").setData(["title": "T"])
        let read = try await db.document("books/linked").getDocument(as: Linked.self)
        XCTAssertEqual(read.reference?.path, "books/linked")
        XCTAssertEqual(read.reference, db.document("books/linked"))
    }

    func testDocumentIDIsNilWhenDecodingPlainData() throws {
        let book = try Firestore.Decoder().decode(Book.self, from: ["title": "T"])
        XCTAssertNil(book.id)
        let withReference = try Firestore.Decoder().decode(Book.self, from: ["title": "T"], in: db.document("books/x"))
        XCTAssertEqual(withReference.id, "x")
    }

    // MARK: @ServerTimestamp

    struct Stamped: Codable, Equatable {
        var title: String
        @ServerTimestamp var createdAt: Date?
        @ServerTimestamp var updatedAt: Timestamp?
        @ServerTimestamp var keptAt: Date?
    }

    func testServerTimestampNilBecomesTheTimeOfTheWriteSharedByTheWholeWrite() async throws {
        let ref = db.document("stamped/one")
        let kept = Date(timeIntervalSince1970: 1_410_220_800)
        let before = Timestamp()
        try ref.setData(from: Stamped(title: "T", createdAt: nil, updatedAt: nil, keptAt: kept))
        let after = Timestamp()

        // Changed with the value model: `get` gives the Timestamp itself, as Firebase's does,
        // where it used to give the RFC 3339 string stored on disk.
        let snapshot = try await ref.getDocument()
        let written = try XCTUnwrap(snapshot.get("createdAt") as? Timestamp)
        XCTAssertEqual(snapshot.get("updatedAt") as? Timestamp, written, "one write, one instant")
        XCTAssertEqual(snapshot.get("keptAt") as? Timestamp, Timestamp(seconds: 1_410_220_800, nanoseconds: 0), "a set value is kept")
        XCTAssertLessThanOrEqual(Timestamp(seconds: before.seconds, nanoseconds: 0), written)
        XCTAssertLessThanOrEqual(written, after)

        let read = try await ref.getDocument(as: Stamped.self)
        XCTAssertEqual(read.updatedAt, written)
        // A Date is the timestamp's `dateValue()`; `Timestamp(date:)` truncates as Firebase's, so
        // it need not give the same nanoseconds back.
        XCTAssertEqual(read.createdAt, written.dateValue())
        XCTAssertEqual(read.keptAt, kept)

        // Writing the read value back keeps it (the Date field within the microsecond that
        // Firebase's truncating `Timestamp(date:)` may take off): it is set now.
        try ref.setData(from: read)
        let again = try await ref.getDocument()
        assertWithinAMicrosecondBefore(again.get("createdAt") as? Timestamp, written)
        XCTAssertEqual(again.get("updatedAt") as? Timestamp, written)
    }

    func testServerTimestampSetIsKept() async throws {
        let ref = db.document("stamped/two")
        let value = Stamped(title: "T", createdAt: Date(timeIntervalSince1970: 0),
                            updatedAt: Timestamp(seconds: 1_410_265_800, nanoseconds: 5_000), keptAt: nil)
        try ref.setData(from: value)
        let snapshot = try await ref.getDocument()
        XCTAssertEqual((snapshot.get("createdAt") as? Timestamp)?.rfc3339, "1970-01-01T00:00:00Z")
        XCTAssertEqual((snapshot.get("updatedAt") as? Timestamp)?.rfc3339, "2014-09-09T12:30:00.000005Z")
    }

    func testServerTimestampMissingOrNullReadsAsNil() async throws {
        try store.writeFile("stamped/missing.json", #"{"title": "T", "updatedAt": null}"#)
        let read = try await db.document("stamped/missing").getDocument(as: Stamped.self)
        XCTAssertEqual(read, Stamped(title: "T", createdAt: nil, updatedAt: nil, keptAt: nil))
    }

    func testFieldValueServerTimestampsOfOneWriteShareOneInstant() async throws {
        let ref = db.document("stamped/three")
        try await ref.setData(["a": FieldValue.serverTimestamp(), "nested": ["b": FieldValue.serverTimestamp()] as [String: Any]])
        let snapshot = try await ref.getDocument()
        let a = try XCTUnwrap(snapshot.get("a") as? Timestamp)
        XCTAssertEqual(snapshot.get("nested.b") as? Timestamp, a)
    }

    // MARK: @ExplicitNull and plain optionals

    struct Nullable: Codable, Equatable {
        @ExplicitNull var subtitle: String?
        @ExplicitNull var pages: Int?
        var note: String?
        var title: String
    }

    func testExplicitNullIsWrittenAsNullAndPlainOptionalNilIsLeftOut() async throws {
        let ref = db.document("nullable/one")
        try ref.setData(from: Nullable(subtitle: nil, pages: 3, note: nil, title: "T"))
        XCTAssertEqual(store.readFile("nullable/one.json"), """
            {
              "pages": 3,
              "subtitle": null,
              "title": "T"
            }

            """)
        let read = try await ref.getDocument(as: Nullable.self)
        XCTAssertEqual(read, Nullable(subtitle: nil, pages: 3, note: nil, title: "T"))

        try ref.setData(from: Nullable(subtitle: "S", pages: nil, note: "N", title: "T"))
        XCTAssertEqual(store.readFile("nullable/one.json"), """
            {
              "note": "N",
              "pages": null,
              "subtitle": "S",
              "title": "T"
            }

            """)
        let again = try await ref.getDocument(as: Nullable.self)
        XCTAssertEqual(again, Nullable(subtitle: "S", pages: nil, note: "N", title: "T"))
    }

    func testExplicitNullFieldMissingFromTheFileReadsAsNil() async throws {
        try store.writeFile("nullable/missing.json", #"{"title": "T"}"#)
        let read = try await db.document("nullable/missing").getDocument(as: Nullable.self)
        XCTAssertEqual(read, Nullable(subtitle: nil, pages: nil, note: nil, title: "T"))
    }
}
