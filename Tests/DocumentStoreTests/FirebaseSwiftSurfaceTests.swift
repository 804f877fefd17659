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
        await fulfillment(of: [delivered], timeout: 30)
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
        await fulfillment(of: [committed], timeout: 30)
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

extension FirebaseSwiftSurfaceTests {
    func testSnapshotListenOptionsBuildAsFirebasesAndListenersDeliverWithThem() async throws {
        let defaults = SnapshotListenOptions()
        XCTAssertEqual(defaults.source, .default)
        XCTAssertFalse(defaults.includeMetadataChanges)
        let options = SnapshotListenOptions().withSource(ListenSource.cache).withIncludeMetadataChanges(true)
        XCTAssertEqual(options.source, .cache)
        XCTAssertTrue(options.includeMetadataChanges)
        XCTAssertEqual(defaults.source, .default, "the builders make new options")
        XCTAssertEqual([ListenSource.default, .cache].map(\.rawValue), [0, 1] as [UInt])

        try await db.document("books/dune").setData(["pages": 412])
        let documentDelivered = expectation(description: "document snapshot")
        let queryDelivered = expectation(description: "query snapshot")
        let pages = Box<Int>()
        let ids = Box<[String]>()
        track(db.document("books/dune").addSnapshotListener(options: options) { snapshot, _ in
            guard pages.value == nil else { return }
            pages.value = snapshot?.get("pages") as? Int
            documentDelivered.fulfill()
        })
        track(db.collection("books").addSnapshotListener(options: SnapshotListenOptions()) { snapshot, _ in
            guard ids.value == nil else { return }
            ids.value = snapshot?.documents.map(\.documentID)
            queryDelivered.fulfill()
        })
        await fulfillment(of: [documentDelivered, queryDelivered], timeout: 10)
        XCTAssertEqual(pages.value, 412)
        XCTAssertEqual(ids.value, ["dune"])
    }

    func testSnapshotsInSyncFiresWhenAddedAndAfterTheListenersOfAChange() async throws {
        let reference = db.document("books/dune")
        try await reference.setData(["pages": 1])
        let events = Box<[String]>()
        func log(_ event: String) { events.value = (events.value ?? []) + [event] }
        let firstSnapshot = expectation(description: "first snapshot")
        let secondSnapshot = expectation(description: "snapshot of the write")
        let snapshots = Box<Int>()
        track(reference.addSnapshotListener { snapshot, _ in
            log("document \(snapshot?.get("pages") as? Int ?? -1)")
            snapshots.value = (snapshots.value ?? 0) + 1
            if snapshots.value == 1 { firstSnapshot.fulfill() }
            if snapshots.value == 2 { secondSnapshot.fulfill() }
        })
        await fulfillment(of: [firstSnapshot], timeout: 10)
        let added = expectation(description: "in sync when added")
        let afterWrite = expectation(description: "in sync after the write's snapshot")
        let inSync = Box<Int>()
        let afterWriteSeen = Box<Bool>()
        let registration = db.addSnapshotsInSyncListener {
            log("in sync")
            inSync.value = (inSync.value ?? 0) + 1
            if inSync.value == 1 { added.fulfill() }
            // The log is in callback order: an event logged after "document 2" came after it.
            if events.value?.contains("document 2") == true, afterWriteSeen.value == nil {
                afterWriteSeen.value = true
                afterWrite.fulfill()
            }
        }
        await fulfillment(of: [added], timeout: 10)
        try await reference.setData(["pages": 2])
        await fulfillment(of: [secondSnapshot, afterWrite], timeout: 10)
        let log = events.value ?? []
        let write = try XCTUnwrap(log.firstIndex(of: "document 2"))
        XCTAssertEqual(log.last, "in sync", "\(log)")
        XCTAssertLessThan(write, log.count - 1)
        registration.remove()
        let count = inSync.value
        try await reference.setData(["pages": 3])
        await waitForCallbacks()
        XCTAssertEqual(inSync.value, count, "a removed listener is not called")
    }

    func testNamedDatabasesTakeFirebasesNames() async throws {
        let app: FirebaseApp = db.app
        let archive: Firestore = Firestore.firestore(app: app, database: "archive")
        XCTAssertTrue(Firestore.firestore(app: app) === db)
        XCTAssertTrue(archive.app === app)
        try await archive.document("books/dune").setData(["title": "Dune"])
        let inDefault = try await db.document("books/dune").getDocument()
        XCTAssertFalse(inDefault.exists)
        try await archive.terminate()
    }

    func testVectorValueHasFirebasesSwiftNames() {
        let vector: VectorValue = FieldValue.vector([1.0, 2.0])
        XCTAssertEqual(vector.data, [1, 2])
        XCTAssertEqual(FieldValue.vector([Float(0.5)]).data, [0.5])
        XCTAssertEqual(VectorValue(__nsNumbers: [3]).__toNSArray(), [3])
        XCTAssertEqual(FieldValue.__vector(with: [4]), VectorValue([4]))
    }

    func testBundleCallsTakeFirebasesNames() async throws {
        let none = await db.getQuery(named: "foo")
        XCTAssertNil(none)
        do {
            _ = try await db.loadBundle(Data())
            XCTFail("an empty bundle has no metadata; Firebase refuses it too")
        } catch let error as NSError {
            XCTAssertEqual(error.domain, FirestoreErrorDomain)
        }
        let finished = expectation(description: "completion")
        let task: LoadBundleTask = db.loadBundle(InputStream(data: Data())) { (progress: LoadBundleTaskProgress?, error: Error?) in
            XCTAssertEqual(progress?.state, LoadBundleTaskState.error)
            XCTAssertNotNil(error)
            finished.fulfill()
        }
        let handle: LoadBundleObserverHandle = task.addObserver { (progress: LoadBundleTaskProgress) in
            _ = (progress.documentsLoaded, progress.totalDocuments, progress.bytesLoaded, progress.totalBytes)
        }
        task.removeObserverWith(handle: handle)
        task.removeAllObservers()
        await fulfillment(of: [finished], timeout: 10)
        XCTAssertEqual([LoadBundleTaskState.error, .inProgress, .success].map(\.rawValue), [0, 1, 2])
    }

    /// Returns once the store's callback queue has run what was queued before: a document
    /// listener's snapshot of the last write, then one more turn.
    private func waitForCallbacks() async {
        let turned = expectation(description: "callback queue turned")
        let seen = Box<Bool>()
        let registration = db.document("books/dune").addSnapshotListener { snapshot, _ in
            guard seen.value == nil, snapshot?.get("pages") as? Int == 3 else { return }
            seen.value = true
            turned.fulfill()
        }
        await fulfillment(of: [turned], timeout: 10)
        registration.remove()
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
