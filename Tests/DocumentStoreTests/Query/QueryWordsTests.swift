@testable import DocumentStore
import Foundation
import XCTest

/// `Query.containing(words:)` (ours): documents holding each word within one of their strings,
/// at any depth, ASCII letters in either case; the same matches whichever store answers, the
/// count and the listener too. A store served over Firestore's protocol refuses it, saying why
/// (the protocol has no text search).
final class QueryWordsTests: StoreTestCase {
    private var books: CollectionReference { db.collection("books") }

    override func setUpWithError() throws {
        try super.setUpWithError()
        let batch = db.batch()
        batch.setData(["title": "Moby-Dick", "author": "Herman MELVILLE", "pages": 635], forDocument: books.document("moby"))
        batch.setData(["title": "Billy Budd", "author": "Herman Melville", "tags": ["sea", "Navy"]], forDocument: books.document("budd"))
        batch.setData(["title": "Émile", "author": "Rousseau", "notes": ["summary": "On education, 100% of it"]], forDocument: books.document("emile"))
        batch.setData(["title": "Ref", "$ref": "melville", "when": Timestamp(seconds: 0, nanoseconds: 0), "link": db.document("melville/x")],
                      forDocument: books.document("ref"))
        batch.setData(["title": "Pierre", "author": "Herman Melville", "pages": 500], forDocument: books.document("pierre"))
        try batch.commitNow()
    }

    private func ids(_ query: Query) async throws -> [String] {
        try await query.getDocuments().documents.map(\.documentID)
    }

    func testEachWordIsFoundInSomeStringOfTheDocumentInEitherCase() async throws {
        #if SHELF_REMOTE_TESTS
        XCTAssertTrue(books.containing(words: ["melville"]).refusal?.contains("no text search") == true,
                      "refused before anything is sent, for a list to say so at once")
        XCTAssertNil(books.whereField("pages", isGreaterThan: 1).refusal)
        do {
            _ = try await books.containing(words: ["melville"]).getDocuments()
            XCTFail("words were sent over Firestore's protocol")
        } catch {
            XCTAssertTrue("\(error)".contains("Firestore's protocol has no text search"), "\(error)")
        }
        #else
        XCTAssertNil(books.containing(words: ["melville"]).refusal)
        let melville = try await ids(books.containing(words: ["melville"]).order(by: "title"))
        XCTAssertEqual(melville, ["budd", "moby", "pierre", "ref"], "a field named $ref is a string field like any other")
        let two = try await ids(books.containing(words: ["HERMAN", "navy"]))
        XCTAssertEqual(two, ["budd"], "each word, in any of the strings, arrays and maps included")
        let cases: [(words: [String], found: [String], why: String)] = [
            (["100%"], ["emile"], "% is itself"), (["0%"], ["emile"], "within a string"), (["_"], [], "_ is itself"),
            (["émile"], [], "only ASCII letters are folded"), (["Émile"], ["emile"], "other letters as they are"),
            (["1970"], [], "a timestamp holds no string"), (["melville/x"], [], "nor does a reference"),
        ]
        for (words, expected, why) in cases {
            let found = try await ids(books.containing(words: words))
            XCTAssertEqual(found, expected, why)
        }
        let paged = try await ids(books.containing(words: ["herman"]).order(by: "pages", descending: true).limit(to: 1))
        XCTAssertEqual(paged, ["moby"])
        let counted = try await books.containing(words: ["herman", "melville"]).count.getAggregation(source: .server).count.intValue
        XCTAssertEqual(counted, 3)
        #endif
    }

    func testAListenerToWordsSeesADocumentComeAndGo() async throws {
        #if SHELF_REMOTE_TESTS
        let refused = expectation(description: "the listener is told why")
        let registration = books.containing(words: ["typee"]).addSnapshotListener { snapshot, error in
            XCTAssertNil(snapshot)
            XCTAssertTrue("\(error.map { "\($0)" } ?? "")".contains("no text search"))
            refused.fulfill()
        }
        await fulfillment(of: [refused], timeout: 30)
        registration.remove()
        #else
        let seen = AsyncStream<[String]>.makeStream()
        let registration = books.containing(words: ["typee"]).addSnapshotListener { snapshot, _ in
            if let snapshot { seen.continuation.yield(snapshot.documents.map(\.documentID)) }
        }
        defer { registration.remove() }
        var updates = seen.stream.makeAsyncIterator()
        let first = await updates.next()
        XCTAssertEqual(first, [])
        try await books.document("typee").setData(["title": "Typee", "author": "Herman Melville"])
        let added = await updates.next()
        XCTAssertEqual(added, ["typee"])
        try await books.document("typee").updateData(["title": "Omoo"])
        let gone = await updates.next()
        XCTAssertEqual(gone, [])
        #endif
    }
}
