@testable import DocumentStore
import Foundation
import XCTest

/// `WriteBatch` as Firebase's: every kind of write, at most 500, once, in the
/// three commit forms, all or nothing, and one snapshot for a listener.
final class BatchTests: StoreTestCase {
    struct Book: Codable, Equatable {
        var title: String
        var numberOfPages: Int
        var published: Timestamp
    }

    private func fields(_ path: String) async throws -> [String: Any]? {
        try await db.document(path).getDocument().data()
    }

    func testABatchAppliesEveryKindOfWrite() async throws {
        try db.document("books/merged").write(["title": "Old", "keep": true])
        try db.document("books/fielded").write(["title": "Old", "keep": true])
        try db.document("books/updated").write(["title": "Old", "count": 1])
        try db.document("books/deleted").write(["title": "Gone"])
        let batch = db.batch()
        batch.setData(["title": "Set"], forDocument: db.document("books/set"))
        batch.setData(["title": "Merged"], forDocument: db.document("books/merged"), merge: true)
        batch.setData(["title": "Fielded", "keep": false, "extra": 1], forDocument: db.document("books/fielded"), mergeFields: ["title", FieldPath(["extra"])])
        batch.updateData(["count": FieldValue.increment(Int64(2)), "nested.flag": true], forDocument: db.document("books/updated"))
        batch.deleteDocument(db.document("books/deleted"))
        try batch.setData(from: Book(title: "Coded", numberOfPages: 42, published: Timestamp(seconds: 100, nanoseconds: 0)),
                          forDocument: db.document("books/coded"))
        try await batch.commit()

        let set = try await fields("books/set")
        XCTAssertEqual(set?["title"] as? String, "Set")
        let merged = try await fields("books/merged")
        XCTAssertEqual(merged?["title"] as? String, "Merged")
        XCTAssertEqual(merged?["keep"] as? Bool, true)
        let fielded = try await fields("books/fielded")
        XCTAssertEqual(fielded?["title"] as? String, "Fielded")
        XCTAssertEqual(fielded?["keep"] as? Bool, true, "mergeFields leaves the fields it does not name")
        XCTAssertEqual(fielded?["extra"] as? Int, 1)
        let updated = try await fields("books/updated")
        XCTAssertEqual(updated?["count"] as? Int, 3)
        XCTAssertEqual((updated?["nested"] as? [String: Any])?["flag"] as? Bool, true)
        let deleted = try await db.document("books/deleted").getDocument()
        XCTAssertFalse(deleted.exists)
        let coded = try await db.document("books/coded").getDocument(as: Book.self)
        XCTAssertEqual(coded, Book(title: "Coded", numberOfPages: 42, published: Timestamp(seconds: 100, nanoseconds: 0)))
        XCTAssertEqual(store.fileNames(in: "books"), ["coded.json", "fielded.json", "merged.json", "set.json", "updated.json"],
                       "no temporary file is left")
        XCTAssertEqual(ownFiles(in: ".shelf"), ["lock"], "the journal is gone once the batch is applied")
    }

    func testWritesToOneDocumentApplyInOrder() async throws {
        let ref = db.document("books/one")
        let batch = db.batch()
        batch.setData(["title": "First", "count": 1], forDocument: ref)
        batch.updateData(["count": FieldValue.increment(Int64(10))], forDocument: ref)
        batch.setData(["author": "A"], forDocument: ref, merge: true)
        try await batch.commit()
        let fields = try await fields("books/one")
        XCTAssertEqual(fields?["title"] as? String, "First")
        XCTAssertEqual(fields?["count"] as? Int, 11)
        XCTAssertEqual(fields?["author"] as? String, "A")
    }

    func testAFailingWriteFailsTheWholeBatchAndWritesNothing() async throws {
        try db.document("books/kept").write(["title": "Kept"])
        let batch = db.batch()
        batch.setData(["title": "New"], forDocument: db.document("books/new"))
        batch.setData(["title": "Changed"], forDocument: db.document("books/kept"))
        batch.updateData(["title": "Missing"], forDocument: db.document("books/missing"))
        let error = await thrownError { try await batch.commit() }
        XCTAssertEqual(error.map { ($0 as NSError).code }, FirestoreErrorCode.notFound.rawValue)
        XCTAssertEqual(error as? FirestoreErrorCode, DocumentStoreError.notFound(path: "books/missing"))
        XCTAssertEqual(store.fileNames(in: "books"), ["kept.json"])
        let kept = try await fields("books/kept")
        XCTAssertEqual(kept?["title"] as? String, "Kept")
    }

    func testAFolderThatCannotBeWrittenFailsTheBatchBeforeAnythingIsWritten() async throws {
        try store.writeFile("blocked", "a file where a collection should be")
        let batch = db.batch()
        batch.setData(["title": "New"], forDocument: db.document("books/new"))
        batch.setData(["title": "Blocked"], forDocument: db.document("blocked/doc"))
        let error = await thrownError { try await batch.commit() }
        XCTAssertNotNil(error)
        XCTAssertEqual(store.fileNames(in: "books"), [], "nothing of the batch was written")
        XCTAssertEqual(ownFiles(in: ".shelf"), ["lock"], "no journal is left")
    }

    func testAtMost500Writes() async throws {
        let books = db.collection("books")
        let full = db.batch()
        for index in 0..<500 { full.setData(["index": index], forDocument: books.document("b\(index)")) }
        try await full.commit()
        let snapshot = try await books.getDocuments()
        XCTAssertEqual(snapshot.count, 500)

        let tooMany = db.batch()
        for index in 0..<501 { tooMany.setData(["index": -1], forDocument: books.document("c\(index)")) }
        let error = await thrownError { try await tooMany.commit() }
        XCTAssertEqual(error.map { ($0 as NSError).code }, FirestoreErrorCode.invalidArgument.rawValue)
        XCTAssertEqual(error as? FirestoreErrorCode,
                       DocumentStoreError.invalidCall("a write batch holds at most 500 writes, this one has 501"))
        let after = try await books.getDocuments()
        XCTAssertEqual(after.count, 500, "nothing of the refused batch was written")
    }

    func testABatchCannotBeUsedAfterItsCommit() async throws {
        let batch = db.batch()
        batch.setData(["title": "T"], forDocument: db.document("books/a"))
        try await batch.commit()
        let again = await thrownError { try await batch.commit() }
        XCTAssertEqual(again as? FirestoreErrorCode, DocumentStoreError.invalidCall("a write batch can be committed only once"))
        batch.setData(["title": "Late"], forDocument: db.document("books/late"))
        let late = thrownError { try batch.commitNow() }
        XCTAssertEqual(late as? FirestoreErrorCode, DocumentStoreError.invalidCall("a write batch cannot be used after commit() has been called"))
        XCTAssertEqual(store.fileNames(in: "books"), ["a.json"])
    }

    func testAnEmptyBatchCommitsNothing() async throws {
        try await db.batch().commit()
        XCTAssertEqual(ownFiles(in: ""), [".shelf"])
    }

    func testTheThreeCommitForms() async throws {
        // Plain: never throws; a failure goes to the store's handler.
        let failures = Locked<[Error]>([])
        let reported = expectation(description: "the handler gets the error")
        db.writeErrorHandler = { error in
            failures.withLock { $0.append(error) }
            reported.fulfill()
        }
        let plain = db.batch()
        plain.setData(["title": "Plain"], forDocument: db.document("books/plain"))
        plain.setData(["title": "Plain 2"], forDocument: db.document("books/plain2"))
        commitPlainly(plain)
        XCTAssertEqual(store.fileNames(in: "books"), ["plain.json", "plain2.json"], "on disk when commit() returns")
        let failing = db.batch()
        failing.updateData(["x": 1], forDocument: db.document("books/missing"))
        commitPlainly(failing)
        await fulfillment(of: [reported], timeout: 10)
        XCTAssertEqual(failures.withLock { $0 }.first as? FirestoreErrorCode, DocumentStoreError.notFound(path: "books/missing"))

        // Completion: called on the callback queue, with nil or the error.
        let completed = expectation(description: "completion")
        let completion = db.batch()
        completion.setData(["title": "Completion"], forDocument: db.document("books/completion"))
        completion.commit { error in
            XCTAssertNil(error)
            dispatchPrecondition(condition: .onQueue(self.store.callbackQueue))
            completed.fulfill()
        }
        await fulfillment(of: [completed], timeout: 10)
        let failedCompletion = expectation(description: "failed completion")
        let failingCompletion = db.batch()
        failingCompletion.updateData(["x": 1], forDocument: db.document("books/missing"))
        failingCompletion.commit { error in
            XCTAssertEqual(error.map { ($0 as NSError).code }, FirestoreErrorCode.notFound.rawValue)
            failedCompletion.fulfill()
        }
        await fulfillment(of: [failedCompletion], timeout: 10)

        // async throws.
        let asynchronous = db.batch()
        asynchronous.setData(["title": "Async"], forDocument: db.document("books/async"))
        try await asynchronous.commit()
        XCTAssertEqual(store.fileNames(in: "books"), ["async.json", "completion.json", "plain.json", "plain2.json"])
    }

    /// The plain `commit()`, as synchronous code calls it (an async context picks `async throws`).
    private func commitPlainly(_ batch: WriteBatch) { batch.commit() }

    func testAListenerSeesABatchInOneSnapshot() async throws {
        let books = db.collection("books")
        for index in 0..<10 { try books.document("old\(index)").write(["index": index]) }
        let recorder = ListenerRecorder<QuerySnapshot>()
        track(books.addSnapshotListener(recorder.listener))
        XCTAssertEqual(recorder.snapshot(1)?.count, 10)
        for round in 1...10 {
            let batch = db.batch()
            for index in 0..<50 { batch.setData(["round": round, "index": index], forDocument: books.document("b\(index)")) }
            batch.deleteDocument(books.document("old\(round - 1)"))
            try await batch.commit()
            let snapshot = try XCTUnwrap(recorder.snapshot(round + 1))
            let changes = snapshot.documentChanges
            XCTAssertEqual(changes.count, 51, "round \(round): the whole batch in one snapshot")
            XCTAssertEqual(changes.filter { $0.type == .removed }.map(\.document.documentID), ["old\(round - 1)"])
            XCTAssertEqual(Set(snapshot.documents.filter { $0.documentID.hasPrefix("b") }.map { $0.get("round") as? Int }), [round])
            XCTAssertEqual(snapshot.count, 50 + 10 - round)
        }
        try recorder.expectNothing("a further snapshot after the last batch", before: {
            try store.writeFile("books/probe.json", "{}")
        }, isProbe: { $0.changes.map(\.id) == ["probe"] })
    }

    /// The acceptance's import: 1,000 books in batches of 500, as a Firestore developer writes it.
    func testImportOf1000BooksInBatchesOf500() async throws {
        let books = (0..<1_000).map { Book(title: "Book \($0)", numberOfPages: 100 + $0, published: Timestamp(seconds: Int64($0) * 86_400, nanoseconds: 0)) }
        let collection = db.collection("books")
        for start in stride(from: 0, to: books.count, by: 500) {
            let batch = db.batch()
            for (offset, book) in books[start..<start + 500].enumerated() {
                try batch.setData(from: book, forDocument: collection.document("book-\(start + offset)"))
            }
            try await batch.commit()
        }
        let snapshot = try await collection.getDocuments()
        XCTAssertEqual(snapshot.count, 1_000)
        let read = try snapshot.documents.map { try $0.data(as: Book.self) }.sorted { $0.numberOfPages < $1.numberOfPages }
        XCTAssertEqual(read, books)
        XCTAssertEqual(store.fileNames(in: "books").filter { $0.hasPrefix(".") }, [])
    }
}

private extension BatchTests {
    /// The store's files but for what a folder served by `shelf serve` keeps beside them when
    /// these tests run through a server: its record of the project (`__projects__`) and the
    /// versions it keeps for reads at a past time (`.shelf/versions`).
    func ownFiles(in folder: String) -> [String] {
        store.fileNames(in: folder).filter { $0 != "__projects__" && !(folder == ".shelf" && $0 == "versions") }
    }
}
