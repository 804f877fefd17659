@testable import DocumentStore
import Foundation
import XCTest

/// Point 5: `setData(from:merge: true)` and `updateData` keep the fields a model does not know;
/// dotted paths reach into maps; the FieldValue sentinels; `updateData` needs a document.
final class MergeAndUpdateTests: StoreTestCase {
    struct Book: Codable, Equatable {
        @DocumentID var id: String?
        var title: String
        var numberOfPages: Int
        var author: String
    }

    struct CoverImages: Codable, Equatable {
        var small: URL
        var medium: URL
        var large: URL
    }

    struct BookWithCoverImages: Codable, Equatable {
        var title: String
        var cover: CoverImages?
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try store.writeFile("books/hitchhiker.json", """
            {
              "author": "Douglas Adams",
              "field-doesnt-exist-in-struct": "hello",
              "numberOfPages": 816,
              "title": "The Ultimate Hitchhiker's Guide to the Galaxy"
            }
            """)
    }

    private var hitchhiker: DocumentReference { db.document("books/hitchhiker") }

    func testSetDataFromWithMergeKeepsUnknownFields() async throws {
        var book = try await hitchhiker.getDocument(as: Book.self)
        book.numberOfPages = 42
        try hitchhiker.write(book, merge: true)
        XCTAssertEqual(store.readFile("books/hitchhiker.json"), """
            {
              "author": "Douglas Adams",
              "field-doesnt-exist-in-struct": "hello",
              "numberOfPages": 42,
              "title": "The Ultimate Hitchhiker's Guide to the Galaxy"
            }

            """)
    }

    func testSetDataFromWithoutMergeReplacesTheDocument() async throws {
        var book = try await hitchhiker.getDocument(as: Book.self)
        book.numberOfPages = 42
        try hitchhiker.write(book)
        let snapshot = try await hitchhiker.getDocument()
        XCTAssertEqual(snapshot.data()?.keys.sorted(), ["author", "numberOfPages", "title"])
    }

    func testMergeGoesIntoNestedMapsAndKeepsTheirUnknownFields() async throws {
        try store.writeFile("books/covered.json", """
            {"title": "Old", "cover": {"small": "https://e.com/s", "medium": "https://e.com/m", "large": "https://e.com/l", "thumbnail": "https://e.com/t"}}
            """)
        let ref = db.document("books/covered")
        let model = BookWithCoverImages(title: "New", cover: CoverImages(small: URL(string: "https://e.com/S")!,
                                                                         medium: URL(string: "https://e.com/M")!,
                                                                         large: URL(string: "https://e.com/L")!))
        try ref.write(model, merge: true)
        XCTAssertEqual(store.readFile("books/covered.json"), """
            {
              "cover": {
                "large": "https://e.com/L",
                "medium": "https://e.com/M",
                "small": "https://e.com/S",
                "thumbnail": "https://e.com/t"
              },
              "title": "New"
            }

            """)
    }

    func testSetDataFromWithMergeCreatesAMissingDocument() async throws {
        let ref = db.document("books/new")
        try ref.write(Book(title: "T", numberOfPages: 1, author: "A"), merge: true)
        let read = try await ref.getDocument(as: Book.self)
        XCTAssertEqual(read, Book(id: "new", title: "T", numberOfPages: 1, author: "A"))
    }

    func testSetDataDictionaryWithMergeMergesMapsDeeply() async throws {
        let ref = db.document("maps/deep")
        try await ref.setData(["a": ["x": 1, "y": ["p": 1, "q": 2] as [String: Any]] as [String: Any], "b": 1])
        try await ref.setData(["a": ["y": ["q": 3, "r": 4] as [String: Any], "z": FieldValue.delete()] as [String: Any]], merge: true)
        XCTAssertEqual(store.readFile("maps/deep.json"), """
            {
              "a": {
                "x": 1,
                "y": {
                  "p": 1,
                  "q": 3,
                  "r": 4
                }
              },
              "b": 1
            }

            """)
    }

    func testUpdateDataKeepsOtherFieldsAndFollowsDottedPaths() async throws {
        try await hitchhiker.updateData(["numberOfPages": 815, "cover.small": "https://e.com/s", "meta.stats.reads": 3])
        try await hitchhiker.updateData(["meta.stats.likes": 1, "cover.small": "https://e.com/S"])
        XCTAssertEqual(store.readFile("books/hitchhiker.json"), """
            {
              "author": "Douglas Adams",
              "cover": {
                "small": "https://e.com/S"
              },
              "field-doesnt-exist-in-struct": "hello",
              "meta": {
                "stats": {
                  "likes": 1,
                  "reads": 3
                }
              },
              "numberOfPages": 815,
              "title": "The Ultimate Hitchhiker's Guide to the Galaxy"
            }

            """)
        // A whole map given to updateData replaces that map (only setData merges).
        try await hitchhiker.updateData(["meta": ["new": true]])
        let snapshot = try await hitchhiker.getDocument()
        XCTAssertEqual(snapshot.get("meta") as? [String: Bool], ["new": true])
    }

    func testFieldValueSentinels() async throws {
        let ref = db.document("counters/one")
        try await ref.setData(["count": 1, "ratio": 0.5, "tags": ["a", "b", "a"], "gone": "soon", "nested": ["gone": 1, "kept": 2]])
        let before = Timestamp()
        try await ref.updateData([
            "count": FieldValue.increment(Int64(2)),
            "ratio": FieldValue.increment(0.25),
            "fresh": FieldValue.increment(Int64(5)),
            "tags": FieldValue.arrayRemove(["a"]),
            "more": FieldValue.arrayUnion(["x", "y", "x"]),
            "gone": FieldValue.delete(),
            "nested.gone": FieldValue.delete(),
            "when": FieldValue.serverTimestamp(),
        ])
        let snapshot = try await ref.getDocument()
        XCTAssertEqual(snapshot.get("count") as? Int, 3)
        XCTAssertEqual(snapshot.get("ratio") as? Double, 0.75)
        XCTAssertEqual(snapshot.get("fresh") as? Int, 5)
        XCTAssertEqual(snapshot.get("tags") as? [String], ["b"])
        XCTAssertEqual(snapshot.get("more") as? [String], ["x", "y"])
        XCTAssertNil(snapshot.get("gone"))
        XCTAssertEqual(snapshot.get("nested") as? [String: Int], ["kept": 2])
        let when = try XCTUnwrap(snapshot.get("when") as? Timestamp)
        XCTAssertLessThanOrEqual(Timestamp(seconds: before.seconds, nanoseconds: 0), when)

        try await ref.updateData(["tags": FieldValue.arrayUnion(["b", "c"]), "count": FieldValue.increment(-3.5)])
        let again = try await ref.getDocument()
        XCTAssertEqual(again.get("tags") as? [String], ["b", "c"])
        XCTAssertEqual(again.get("count") as? Double, -0.5)
    }

    func testUpdateDataOnAMissingDocumentFailsClearly() async throws {
        let error = await thrownError { try await self.db.document("books/nope").updateData(["title": "T"]) }
        XCTAssertEqual(error as? FirestoreErrorCode, DocumentStoreError.notFound(path: "books/nope"))
        XCTAssertEqual(error.map { ($0 as NSError).code }, FirestoreErrorCode.notFound.rawValue)
        XCTAssertEqual(error.map { "\($0)" }, "document books/nope does not exist (updateData needs an existing document)")
        XCTAssertNil(store.readFile("books/nope.json"), "nothing was created")

        let done = expectation(description: "completion")
        db.document("books/nope").updateData(["title": "T"]) { error in
            XCTAssertEqual(error as? FirestoreErrorCode, DocumentStoreError.notFound(path: "books/nope"))
            done.fulfill()
        }
        await fulfillment(of: [done], timeout: 10)
    }

    func testUpdateDataRefusesBadFieldPaths() {
        let error = thrownError { try self.hitchhiker.update(["cover..small": 1]) }
        XCTAssertEqual(error.map { "\($0)" }, #"document books/hitchhiker, field cover..small: a field path cannot be empty or have empty parts (as in "a..b" or ".a")"#)
    }

    func testSentinelsInsideArraysAreRefused() {
        let error = thrownError { try self.hitchhiker.update(["list": [1, FieldValue.delete()]]) }
        XCTAssertEqual(error.map { "\($0)" }, "document books/hitchhiker, field list[1]: FieldValue sentinels cannot be used inside arrays")
    }

    func testDeleteRemovesTheDocumentAndDeletingAgainSucceeds() async throws {
        try await hitchhiker.delete()
        XCTAssertNil(store.readFile("books/hitchhiker.json"))
        try await hitchhiker.delete()
        let snapshot = try await hitchhiker.getDocument()
        XCTAssertFalse(snapshot.exists)
    }
}
