@testable import DocumentStore
import Foundation
import XCTest

/// Point 6: ids and paths Firestore or the file system would not allow are refused with a clear
/// error, by every operation, and nothing is read or written for them.
final class PathValidationTests: StoreTestCase {
    /// Every way of naming `id` as a document must fail with `reason`, touching nothing.
    private func assertRefused(documentID id: String, reason: String, file: StaticString = #filePath, line: UInt = #line) async {
        let books = db.collection("books")
        let viaCollection = books.document(id)
        var expected = DocumentStoreError.invalidPath("books/" + id, reason: reason)
        for (what, body) in [
            ("setData", { try await viaCollection.setData(["title": "T"]) }),
            ("setData(merge:)", { try await viaCollection.setData(["title": "T"], merge: true) }),
            ("setData(mergeFields:)", { try await viaCollection.setData(["title": "T"], mergeFields: ["title"]) }),
            ("updateData", { try await viaCollection.updateData(["title": "T"]) }),
            ("delete", { try await viaCollection.delete() }),
            ("write", { try viaCollection.write(["title": "T"]) }),
            ("update", { try viaCollection.update(["title": "T"]) }),
            ("deleteDocument", { try viaCollection.deleteDocument() }),
        ] as [(String, () async throws -> Void)] {
            let error = await thrownError(file: file, line: line, body)
            XCTAssertEqual(error as? FirestoreErrorCode, expected, "\(what) of \(id.prefix(40))", file: file, line: line)
        }
        let readError = await thrownError(file: file, line: line) { _ = try await viaCollection.getDocument() }
        XCTAssertEqual(readError as? FirestoreErrorCode, expected, "getDocument", file: file, line: line)

        // The same id in a full path gives the same refusal, naming the whole path.
        if !id.contains("/") && !id.isEmpty {
            let viaPath = db.document("books/" + id)
            let error = await thrownError(file: file, line: line) { try await viaPath.setData(["title": "T"]) }
            expected = .invalidPath("books/" + id, reason: reason)
            XCTAssertEqual(error as? FirestoreErrorCode, expected, "db.document(path)", file: file, line: line)
        }
        XCTAssertEqual(store.fileNames(in: "books"), [], "nothing was written", file: file, line: line)
    }

    func testEmptyId() async {
        await assertRefused(documentID: "", reason: "an id cannot be empty")
    }

    /// A slash makes a path below the collection, as in Firebase: "a/b" names a collection.
    func testAnIdWithASlashIsAPathAndTwoSegmentsAreNoDocument() async {
        await assertRefused(documentID: "a/b", reason: "a document path has an even number of segments (collection/document), this one has 3")
    }

    func testDotAndDotDot() async {
        await assertRefused(documentID: ".", reason: "an id cannot be \".\" or \"..\"")
        await assertRefused(documentID: "..", reason: "an id cannot be \".\" or \"..\"")
    }

    func testReservedUnderscoreIds() async {
        let reserved = "ids matching __.*__ are reserved, but for numeric ids (__id<64-bit integer>__)"
        await assertRefused(documentID: "__x__", reason: reserved)
        await assertRefused(documentID: "____", reason: reserved)
        await assertRefused(documentID: "__id__", reason: reserved)
        await assertRefused(documentID: "__id1x__", reason: reserved)
        await assertRefused(documentID: "__id99999999999999999999__", reason: reserved)
        // Not matching __.*__: allowed.
        for id in ["__x", "x__", "___", "_x_"] {
            XCTAssertNoThrow(try db.collection("books").document(id).write(["ok": true]), id)
        }
    }

    func testLeadingDot() async {
        await assertRefused(documentID: ".shelf-123.tmp",
                            reason: "an id cannot start with \".\" in a folder (names starting with a dot are the store's temporary files)")
    }

    func testNulCharacter() async {
        await assertRefused(documentID: "a\u{0}b", reason: "an id cannot contain a NUL character")
    }

    func testIdsOverTheByteLimits() async throws {
        let over1500 = String(repeating: "é", count: 751)  // 1,502 bytes
        await assertRefused(documentID: over1500, reason: "an id is at most 1,500 bytes, this one is 1502")
        let over250 = String(repeating: "a", count: 251)
        await assertRefused(documentID: over250,
                            reason: "an id is at most 250 bytes in a folder (a document is the file <id>.json and file names are limited to 255 bytes), this one is 251")
        // 250 bytes fit: the file name is exactly 255 bytes.
        let longest = String(repeating: "b", count: 250)
        try await db.collection("books").document(longest).setData(["ok": true])
        XCTAssertEqual(store.fileNames(in: "books"), [longest + ".json"])
        let snapshot = try await db.collection("books").getDocuments()
        XCTAssertEqual(snapshot.ids, [longest])
    }

    func testReferencesTakeSlashSeparatedPathsBelowThemAsFirebasesDo() throws {
        let reviews = db.document("books/dune").collection("reviews/r1/replies")
        XCTAssertEqual(reviews.path, "books/dune/reviews/r1/replies")
        XCTAssertEqual(reviews.parent?.path, "books/dune/reviews/r1")
        let reply = db.collection("books").document("dune/reviews/r1")
        XCTAssertEqual(reply.path, "books/dune/reviews/r1")
        XCTAssertEqual(reply.documentID, "r1")
        try reply.write(["stars": 5])
        XCTAssertEqual(try db.document("books/dune/reviews/r1").readDocument().data()?["stars"] as? Int, 5)
    }

    func testCollectionPathsAreCheckedToo() async {
        let cases: [(CollectionReference, DocumentStoreError)] = [
            (db.collection(""), .invalidPath("", reason: "the path is empty")),
            (db.collection("books/hitchhiker"), .invalidPath("books/hitchhiker", reason: "a collection path has an odd number of segments (collection or collection/document/collection), this one has 2")),
            (db.collection("../outside"), .invalidPath("../outside", reason: "an id cannot be \".\" or \"..\"")),
            (db.collection("books//reviews"), .invalidPath("books//reviews", reason: "an id cannot be empty")),
            (db.collection("__books__"), .invalidPath("__books__", reason: "ids matching __.*__ are reserved, but for numeric ids (__id<64-bit integer>__)")),
            (db.document("books/hitchhiker").collection(".."), .invalidPath("books/hitchhiker/..", reason: "an id cannot be \".\" or \"..\"")),
            (db.document("books/hitchhiker").collection("a/b"), .invalidPath("books/hitchhiker/a/b", reason: "a collection path has an odd number of segments (collection or collection/document/collection), this one has 4")),
            (db.document("books/hitchhiker").collection("a/../c"), .invalidPath("books/hitchhiker/a/../c", reason: "an id cannot be \".\" or \"..\"")),
        ]
        for (collection, expected) in cases {
            let error = await thrownError { _ = try await collection.getDocuments() }
            XCTAssertEqual(error as? FirestoreErrorCode, expected)
            let addError = await thrownError { _ = try await collection.addDocument(data: ["x": 1]) }
            XCTAssertEqual(addError as? FirestoreErrorCode, expected)
            let addModelError = thrownError { _ = try collection.add(["x": 1]) }
            XCTAssertEqual(addModelError as? FirestoreErrorCode, expected)
        }
        XCTAssertEqual(store.fileNames(in: ""), [], "nothing was written")
    }

    func testDocumentPathsAreCheckedToo() async {
        let cases: [(DocumentReference, DocumentStoreError)] = [
            (db.document("books"), .invalidPath("books", reason: "a document path has an even number of segments (collection/document), this one has 1")),
            (db.document("books/../../etc/passwd"), .invalidPath("books/../../etc/passwd", reason: "an id cannot be \".\" or \"..\"")),
            (db.document("../x"), .invalidPath("../x", reason: "an id cannot be \".\" or \"..\"")),
            (db.document("books/a/.."), .invalidPath("books/a/..", reason: "an id cannot be \".\" or \"..\"")),
            (db.collection("books").document("a/reviews"), .invalidPath("books/a/reviews", reason: "a document path has an even number of segments (collection/document), this one has 3")),
            (db.collection("books").document("a//r1"), .invalidPath("books/a//r1", reason: "an id cannot be empty")),
            // The parent of an invalid reference stays invalid.
            (db.document("../x").parent.document("y"), .invalidPath("../x", reason: "an id cannot be \".\" or \"..\"")),
        ]
        for (reference, expected) in cases {
            let error = await thrownError { _ = try await reference.getDocument() }
            XCTAssertEqual(error as? FirestoreErrorCode, expected)
            let writeError = await thrownError { try await reference.setData(["x": 1]) }
            XCTAssertEqual(writeError as? FirestoreErrorCode, expected)
        }
        XCTAssertEqual(store.fileNames(in: ""), [])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: store.scratch.path).sorted(), ["data", "outside"])
        XCTAssertEqual(store.fileNames(in: "../outside"), [])
    }

    func testErrorsReadWell() {
        let error = thrownError { try self.db.collection("books").document("..").write([:]) }
        XCTAssertEqual(error.map { "\($0)" }, #"invalid path "books/..": an id cannot be "." or "..""#)
        XCTAssertEqual((error as? LocalizedError)?.errorDescription, #"invalid path "books/..": an id cannot be "." or "..""#)
    }

    func testALeadingOrTrailingSlashIsTolerated() throws {
        try db.document("/books/hitchhiker/").write(["t": 1])
        XCTAssertEqual(db.document("/books/hitchhiker/").path, "books/hitchhiker")
        XCTAssertEqual(store.fileNames(in: "books"), ["hitchhiker.json"])
    }

    func testAutoIdsAreTwentyAlphanumericCharacters() {
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        var ids: Set<String> = []
        for _ in 0..<200 {
            let id = db.collection("colors").document().documentID
            XCTAssertEqual(id.count, 20)
            XCTAssertTrue(id.allSatisfy(allowed.contains), id)
            ids.insert(id)
        }
        XCTAssertEqual(ids.count, 200, "no two ids alike")
    }

    func testReferencesNameTheirPlace() {
        let reviews = db.collection("books").document("hitchhiker").collection("reviews")
        XCTAssertEqual(reviews.path, "books/hitchhiker/reviews")
        XCTAssertEqual(reviews.collectionID, "reviews")
        XCTAssertEqual(reviews.parent?.path, "books/hitchhiker")
        XCTAssertNil(db.collection("books").parent)
        let review = reviews.document("r1")
        XCTAssertEqual(review.documentID, "r1")
        XCTAssertEqual(review.parent.path, "books/hitchhiker/reviews")
        XCTAssertEqual(review, db.document("books/hitchhiker/reviews/r1"))
    }
}
