import DocumentStore
import Foundation
import XCTest

/// Members of Firebase's Swift API with Firebase's exact names and labels, written as apps and
/// Firebase's docs call them, behind a plain `import DocumentStore` (so a missing `public`
/// fails to compile) in Swift 6 language mode.
final class FirebaseSwiftSurfaceTests: StoreTestCase {
    struct Book: Codable, Equatable {
        var title: String
        var pages: Int
    }

    /// An app's generic loader: compiles with `T` only `Decodable` (not `Sendable`).
    private func load<T: Decodable>(_ reference: DocumentReference) async throws -> T {
        try await reference.getDocument(as: T.self)
    }

    func testAGenericLoaderDecodesTheDocument() async throws {
        let reference = db.document("books/dune")
        try await reference.setData(["title": "Dune", "pages": 412])
        let book: Book = try await load(reference)
        XCTAssertEqual(book, Book(title: "Dune", pages: 412))
    }

    func testGetDocumentAsTakesFirebasesLabelsInBothForms() async throws {
        let reference = db.document("books/dune")
        try await reference.setData(["title": "Dune", "pages": 412])
        let awaited = try await reference.getDocument(as: Book.self, with: .estimate, decoder: Firestore.Decoder(), source: .server)
        XCTAssertEqual(awaited, Book(title: "Dune", pages: 412))

        let delivered = expectation(description: "completion")
        let result = Box<Result<Book, Error>>()
        reference.getDocument(as: Book.self, with: .previous, decoder: Firestore.Decoder(), source: .cache) { outcome in
            result.value = outcome
            delivered.fulfill()
        }
        await fulfillment(of: [delivered], timeout: 5)
        XCTAssertEqual(try result.value?.get(), Book(title: "Dune", pages: 412))

        let missing = await thrownError { _ = try await self.db.document("books/none").getDocument(as: Book.self, source: .default) }
        guard case DecodingError.valueNotFound? = missing else { return XCTFail("expected valueNotFound, got \(String(describing: missing))") }
    }

    func testFilterTakesFIRFiltersNames() async throws {
        for (id, pages) in [("a", 100), ("b", 200), ("c", 300)] {
            try await db.document("books/\(id)").setData(["pages": pages])
        }
        let books = db.collection("books")
        let filters: [(Filter, [String])] = [
            (Filter.whereField("pages", isGreaterOrEqualTo: 200), ["b", "c"]),
            (Filter.whereField(FieldPath(["pages"]), isGreaterOrEqualTo: 300), ["c"]),
            (Filter.whereField("pages", isLessThanOrEqualTo: 200), ["a", "b"]),
            (Filter.orFilter([Filter.whereField("pages", isLessThan: 150), Filter.whereField("pages", isGreaterOrEqualTo: 300)]), ["a", "c"]),
        ]
        for (filter, expected) in filters {
            let ids = try await books.whereFilter(filter).getDocuments().documents.map(\.documentID)
            XCTAssertEqual(ids, expected)
        }
    }

    func testRunTransactionWithOptionsTakesTheBlockLabel() async throws {
        let reference = db.document("counters/one")
        try await reference.setData(["count": 1])
        let options = TransactionOptions()
        options.maxAttempts = 2
        let value = try await db.runTransaction(with: options, block: { transaction, _ -> Any? in
            let count = (try? transaction.getDocument(reference))?.get("count") as? Int ?? 0
            transaction.updateData(["count": count + 1], forDocument: reference)
            return count + 1
        })
        XCTAssertEqual(value as? Int, 2)

        let committed = expectation(description: "completion")
        let outcome = Box<Any>()
        db.runTransaction(with: nil, block: { transaction, _ -> Any? in
            transaction.updateData(["count": FieldValue.increment(Int64(1))], forDocument: reference)
            return "done"
        }, completion: { value, error in
            XCTAssertNil(error)
            outcome.value = value
            committed.fulfill()
        })
        await fulfillment(of: [committed], timeout: 5)
        XCTAssertEqual(outcome.value as? String, "done")
        // Firebase's async forms are discardable, as its BasicCompileTests call them.
        try await db.runTransaction { _, _ in 0 }
        try await db.runTransaction(with: nil) { _, _ in 0 }
        let count = try await reference.getDocument().get("count") as? Int
        XCTAssertEqual(count, 3)
    }
}

extension FirebaseSwiftSurfaceTests {
    func testTimestampComparesAndCopiesAsFirebases() {
        let early = Timestamp(seconds: 100, nanoseconds: 5)
        let late = Timestamp(seconds: 100, nanoseconds: 6)
        XCTAssertEqual(early.compare(late), .orderedAscending)
        XCTAssertEqual(late.compare(early), .orderedDescending)
        XCTAssertEqual(early.compare(Timestamp(seconds: 100, nanoseconds: 5)), .orderedSame)
        XCTAssertEqual(early.copy() as? Timestamp, early)
    }

    func testDictionariesOfFieldValuesCompareEqualAsNSDictionary() {
        let update: [String: Any] = ["at": FieldValue.serverTimestamp(), "n": FieldValue.increment(Int64(1)),
                                     "tags": FieldValue.arrayUnion(["a"]), "gone": FieldValue.delete()]
        let same: [String: Any] = ["at": FieldValue.serverTimestamp(), "n": FieldValue.increment(Int64(1)),
                                   "tags": FieldValue.arrayUnion(["a"]), "gone": FieldValue.delete()]
        XCTAssertEqual(update as NSDictionary, same as NSDictionary)
        XCTAssertNotEqual(["n": FieldValue.increment(Int64(1))] as NSDictionary, ["n": FieldValue.increment(Int64(2))] as NSDictionary)
        XCTAssertNotEqual(["x": FieldValue.delete()] as NSDictionary, ["x": FieldValue.serverTimestamp()] as NSDictionary)
    }

    func testEnumsHaveFirebasesRawValues() {
        XCTAssertEqual([DocumentChangeType.added, .modified, .removed].map(\.rawValue), [0, 1, 2])
        XCTAssertEqual([ServerTimestampBehavior.none, .estimate, .previous].map(\.rawValue), [0, 1, 2])
        XCTAssertEqual([FirestoreSource.default, .server, .cache].map(\.rawValue), [0, 1, 2] as [UInt])
        XCTAssertEqual(DocumentChangeType(rawValue: 2), .removed)
    }

    func testLoggingCacheAndIndexCallsAreAcceptedAndChangeNothing() async throws {
        Firestore.enableLogging(true)
        let settings = db.settings
        settings.cacheSettings = MemoryCacheSettings(garbageCollectorSettings: MemoryEagerGCSetting())
        settings.cacheSettings = MemoryCacheSettings(garbageCollectorSettings: MemoryLRUGCSettings(sizeBytes: 1_000_000))
        db.settings = settings
        let manager = try XCTUnwrap(db.persistentCacheIndexManager)
        manager.enableIndexAutoCreation()
        manager.disableIndexAutoCreation()
        manager.deleteAllIndexes()
        Firestore.enableLogging(false)
        try await db.document("books/dune").setData(["pages": 412])
        let pages = try await db.collection("books").whereField("pages", isGreaterThan: 400).getDocuments().documents.map(\.documentID)
        XCTAssertEqual(pages, ["dune"])
    }

    /// Never run: compiles without an unused-result warning (the build has none) because these
    /// results are discardable, as Firebase's Objective-C methods' are in Swift.
    private func discardsResultsAsFirebase(_ db: Firestore) {
        db.document("books/dune").addSnapshotListener { _, _ in }
        db.collection("books").addSnapshotListener { _, _ in }
        db.collection("books").addSnapshotListener(includeMetadataChanges: true) { _, _ in }
        db.collection("books").addDocument(data: ["title": "Dune"])
    }
}

/// A value set on one thread and read on another, behind a lock.
private final class Box<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value?
    var value: Value? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
