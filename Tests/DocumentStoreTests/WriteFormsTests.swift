@testable import DocumentStore
import Foundation
import XCTest

/// Firebase's three forms of every write: plain (never throws; its error goes to the store's
/// `writeErrorHandler`, or to standard error), with a completion, and `async throws`; errors as
/// Firebase's (`FirestoreErrorDomain`, `FirestoreErrorCode` codes); `mergeFields:` with dotted
/// strings and `FieldPath`s; `FieldPath.documentID()` in `get`.
final class WriteFormsTests: StoreTestCase {
    private let queueKey = DispatchSpecificKey<String>()
    private let reported = Locked<[(error: Error, onCallbackQueue: Bool)]>([])
    private var hitchhiker: DocumentReference { db.document("books/hitchhiker") }

    override func setUpWithError() throws {
        try super.setUpWithError()
        store.callbackQueue.setSpecific(key: queueKey, value: "callbacks")
        try store.writeFile("books/hitchhiker.json", #"{"title": "H2G2", "numberOfPages": 816, "cover": {"small": "s", "large": "l"}}"#)
    }

    /// Sends the plain forms' errors to `reported`, noting the queue they arrive on.
    private func collectWriteErrors() {
        let key = queueKey
        db.writeErrorHandler = { [reported] error in
            reported.withLock { $0.append((error, DispatchQueue.getSpecific(key: key) == "callbacks")) }
        }
    }

    private func reportedErrors(count: Int, file: StaticString = #filePath, line: UInt = #line) -> [FirestoreErrorCode?] {
        store.drainCallbacks()
        let all = reported.withLock { $0 }
        XCTAssertEqual(all.count, count, "errors reported: \(all.map(\.error))", file: file, line: line)
        XCTAssertTrue(all.allSatisfy(\.onCallbackQueue), "the handler runs on the callback queue", file: file, line: line)
        return all.map { $0.error as? FirestoreErrorCode }
    }

    // MARK: Plain forms

    /// Written as Firebase's docs write them: no `try`, no `await`, no completion.
    private func writeWithThePlainForms() -> DocumentReference {
        hitchhiker.setData(["title": "Replaced", "numberOfPages": 1])
        hitchhiker.setData(["numberOfPages": 2], merge: true)
        hitchhiker.setData(["title": "Fields", "ignored": true], mergeFields: ["title"])
        hitchhiker.updateData(["numberOfPages": FieldValue.increment(Int64(40))])
        db.document("books/gone").setData(["x": 1])
        db.document("books/gone").delete()
        let batch = db.batch()
        batch.setData(["title": "Batched"], forDocument: db.document("books/batched"))
        batch.commit()
        return db.collection("books").addDocument(data: ["title": "Added"])
    }

    func testThePlainFormsWriteWithoutTryAndReportNothingWhenTheyWork() async throws {
        collectWriteErrors()
        let added = writeWithThePlainForms()
        _ = reportedErrors(count: 0)
        XCTAssertEqual(store.readFile("books/hitchhiker.json"), "{\n  \"numberOfPages\": 42,\n  \"title\": \"Fields\"\n}\n")
        XCTAssertNil(store.readFile("books/gone.json"))
        XCTAssertEqual(store.readFile("books/batched.json"), "{\n  \"title\": \"Batched\"\n}\n")
        let snapshot = try await added.getDocument()
        XCTAssertEqual(snapshot.get("title") as? String, "Added")
    }

    private func failWithThePlainForms() {
        db.document("books/nope").updateData(["title": "T"])
        db.document("books/..").setData(["title": "T"])
        hitchhiker.setData(["when": Date.distantFuture.addingTimeInterval(1e12)], merge: true)
        hitchhiker.setData(["title": "T"], mergeFields: ["subtitle"])
        db.collection("books").addDocument(data: ["bad": [[1]]])
        let batch = db.batch()
        batch.setData(["title": "never"], forDocument: db.document("books/in-batch"))
        batch.updateData(["title": "T"], forDocument: db.document("books/nope"))
        batch.commit()
    }

    func testThePlainFormsReportTheirErrorsToTheHandlerOnTheCallbackQueue() throws {
        collectWriteErrors()
        let before = store.fileNames(in: "books")
        failWithThePlainForms()
        let errors = reportedErrors(count: 6)
        XCTAssertEqual(errors[0], DocumentStoreError.notFound(path: "books/nope"))
        XCTAssertEqual(errors[1], DocumentStoreError.invalidPath("books/..", reason: "an id cannot be \".\" or \"..\""))
        XCTAssertEqual(errors.map { $0.flatMap { FirestoreErrorCode.Code(rawValue: $0.code) } }, [.notFound, .invalidArgument, .invalidArgument, .invalidArgument, .invalidArgument, .notFound])
        XCTAssertEqual(errors[3]?.description, "document books/hitchhiker, field subtitle: the field is named in mergeFields but missing from the data")
        XCTAssertEqual(errors[5], DocumentStoreError.notFound(path: "books/nope"), "the batch's failing write")
        XCTAssertEqual(store.fileNames(in: "books"), before, "nothing was written, not even the batch's other document")
    }

    func testWithoutAHandlerThePlainFormsPrintTheirErrorsToStandardError() throws {
        let printed = try capturingStandardError {
            db.document("books/nope").updateData(["title": "T"])
        }
        XCTAssertEqual(printed, "DocumentStore: a write to books/nope failed: document books/nope does not exist (updateData needs an existing document)\n")
        XCTAssertNil(store.readFile("books/nope.json"))
    }

    /// What `body` writes to file descriptor 2.
    private func capturingStandardError(_ body: () -> Void) throws -> String {
        let file = store.scratch.appendingPathComponent("stderr.txt")
        let fd = open(file.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { throw POSIXFailure(call: "open", path: file.path, code: errno) }
        let saved = dup(2)
        dup2(fd, 2)
        body()
        dup2(saved, 2)
        close(saved)
        close(fd)
        return try String(contentsOf: file, encoding: .utf8)
    }

    // MARK: Completion forms

    func testCompletionFormsGetTheOutcomeOnTheCallbackQueueAndNotTheHandler() throws {
        struct Book: Codable { var title: String }
        collectWriteErrors()
        let outcomes = Locked<[String: Error?]>([:])
        let done = expectation(description: "every completion")
        done.expectedFulfillmentCount = 10
        func record(_ name: String) -> (Error?) -> Void {
            { error in
                XCTAssertEqual(DispatchQueue.getSpecific(key: self.queueKey), "callbacks", name)
                outcomes.withLock { $0[name] = error }
                done.fulfill()
            }
        }
        hitchhiker.setData(["title": "T", "numberOfPages": 1, "cover": ["small": "s"]], completion: record("setData"))
        hitchhiker.setData(["numberOfPages": 2], merge: true, completion: record("merge"))
        hitchhiker.setData(["title": "F"], mergeFields: [FieldPath(["title"])], completion: record("mergeFields"))
        hitchhiker.updateData(["cover.large": "L"], completion: record("updateData"))
        db.document("books/nope").updateData(["title": "T"], completion: record("updateData missing"))
        db.document("books/gone").delete(completion: record("delete"))
        db.collection("books").addDocument(data: ["title": "A"], completion: record("addDocument"))
        try db.document("books/coded").setData(from: Book(title: "C"), completion: record("setData(from:)"))
        try db.document("books/coded").setData(from: Book(title: "M"), merge: true, completion: record("setData(from:merge:)"))
        let batch = db.batch()
        batch.deleteDocument(db.document("books/coded"))
        batch.commit(completion: record("batch"))
        wait(for: [done], timeout: 10)

        let results = outcomes.withLock { $0 }
        for (name, error) in results where name != "updateData missing" { XCTAssertNil(error, name) }
        XCTAssertEqual(results["updateData missing"]! as? FirestoreErrorCode, DocumentStoreError.notFound(path: "books/nope"))
        XCTAssertEqual(store.readFile("books/hitchhiker.json"), """
            {
              "cover": {
                "large": "L",
                "small": "s"
              },
              "numberOfPages": 2,
              "title": "F"
            }

            """)
        XCTAssertNil(store.readFile("books/coded.json"))
        _ = reportedErrors(count: 0)
    }

    // MARK: Async forms

    func testAsyncFormsThrowWhatFails() async throws {
        try await hitchhiker.setData(["title": "T", "list": [1, 2]])
        try await hitchhiker.setData(["numberOfPages": 3], merge: true)
        try await hitchhiker.setData(["title": "U", "numberOfPages": 99], mergeFields: ["title"])
        try await hitchhiker.updateData(["list": FieldValue.arrayUnion([3])])
        let added = try await db.collection("books").addDocument(data: ["title": "Added"])
        try await db.batch().setData(["n": 1], forDocument: db.document("books/b1")).commit()
        XCTAssertEqual(store.readFile("books/hitchhiker.json"), """
            {
              "list": [
                1,
                2,
                3
              ],
              "numberOfPages": 3,
              "title": "U"
            }

            """)
        XCTAssertNotNil(store.readFile("books/\(added.documentID).json"))
        try await added.delete()
        XCTAssertNil(store.readFile("books/\(added.documentID).json"))

        let nested = await thrownError { try await self.hitchhiker.setData(["bad": [[1]]]) }
        XCTAssertEqual((nested as? FirestoreErrorCode)?.code, FirestoreErrorCode.invalidArgument.rawValue)
        let batch = await thrownError { try await self.db.batch().updateData(["x": 1], forDocument: self.db.document("books/nope")).commit() }
        XCTAssertEqual(batch as? FirestoreErrorCode, DocumentStoreError.notFound(path: "books/nope"))
    }

    // MARK: Errors as Firebase's

    func testUpdateDataOfAMissingDocumentIsNotFoundAsInFirebase() async throws {
        do {
            try await db.document("books/nope").updateData(["title": "T"])
            XCTFail("updateData of a missing document succeeded")
        } catch {
            let nsError = error as NSError
            XCTAssertEqual(nsError.domain, FirestoreErrorDomain)
            XCTAssertEqual(nsError.code, FirestoreErrorCode.notFound.rawValue)
            XCTAssertEqual(nsError.localizedDescription, "document books/nope does not exist (updateData needs an existing document)")
            let firestoreError = try XCTUnwrap(error as? FirestoreErrorCode)
            XCTAssertEqual(firestoreError.code, FirestoreErrorCode.notFound.rawValue)
            XCTAssertEqual(firestoreError.errorCode, 5)
            XCTAssertEqual(FirestoreErrorCode.errorDomain, "FIRFirestoreErrorDomain")
        }
        // Ours, the throwing synchronous form, says the same.
        let ours = thrownError { try self.db.document("books/nope").update(["title": "T"]) }
        XCTAssertEqual(ours.map { ($0 as NSError).code }, FirestoreErrorCode.notFound.rawValue)
        XCTAssertNil(store.readFile("books/nope.json"))
    }

    // MARK: mergeFields

    func testMergeFieldsWritesOnlyTheNamedFieldsGivenAsStringsOrFieldPaths() async throws {
        try store.writeFile("books/m.json", #"{"a": 1, "b": {"x": 1, "y": 2}, "c": 3}"#)
        let ref = db.document("books/m")
        try await ref.setData(["a": 10, "b": ["x": 10, "z": 5], "c": 30, "d": 40] as [String: Any], mergeFields: ["a", "b.x"])
        XCTAssertEqual(store.readFile("books/m.json"), """
            {
              "a": 10,
              "b": {
                "x": 10,
                "y": 2
              },
              "c": 3
            }

            """, "only a and b.x: the rest of b is kept, c and d are not written")

        // A FieldPath names a field whose name holds a dot; a map named whole replaces the map.
        try await ref.setData(["dotted.name": "v", "b": ["z": 5], "c": FieldValue.delete()] as [String: Any],
                              mergeFields: [FieldPath(["dotted.name"]), FieldPath(["b"]), "c"])
        XCTAssertEqual(store.readFile("books/m.json"), """
            {
              "a": 10,
              "b": {
                "z": 5
              },
              "dotted.name": "v"
            }

            """)

        let missing = await thrownError { try await ref.setData(["a": 1], mergeFields: ["a", "nowhere"]) }
        XCTAssertEqual(missing as? FirestoreErrorCode, DocumentStoreError.invalidValue(
            path: "books/m", field: "nowhere", reason: "the field is named in mergeFields but missing from the data"))
        let notAPath = await thrownError { try await ref.setData(["a": 1], mergeFields: [42]) }
        XCTAssertEqual(notAPath as? FirestoreErrorCode, DocumentStoreError.invalidValue(
            path: "books/m", field: "42", reason: "a field path must be a String or a FieldPath"))
        XCTAssertEqual(store.readFile("books/m.json")?.contains("nowhere"), false)
    }

    func testMergeFieldsCreatesAMissingDocumentAndWorksInBatchesAndWithModels() async throws {
        struct Book: Codable { var title: String; var numberOfPages: Int }
        try await db.document("books/new").setData(["title": "T", "skip": 1], mergeFields: ["title"])
        XCTAssertEqual(store.readFile("books/new.json"), "{\n  \"title\": \"T\"\n}\n")

        let batch = db.batch()
        batch.setData(["numberOfPages": 5, "title": "no"], forDocument: db.document("books/new"), mergeFields: [FieldPath(["numberOfPages"])])
        try batch.setData(from: Book(title: "Coded", numberOfPages: 7), forDocument: db.document("books/coded"), mergeFields: ["title"])
        try await batch.commit()
        XCTAssertEqual(store.readFile("books/new.json"), "{\n  \"numberOfPages\": 5,\n  \"title\": \"T\"\n}\n")
        XCTAssertEqual(store.readFile("books/coded.json"), "{\n  \"title\": \"Coded\"\n}\n")
    }

    // MARK: FieldPath in reads

    func testFieldPathsInGet() async throws {
        try await hitchhiker.updateData([FieldPath(["a.b"]): "top-level", "a.b": "nested"])
        let snapshot = try await hitchhiker.getDocument()
        XCTAssertEqual(snapshot.get(FieldPath.documentID()) as? String, "hitchhiker")
        XCTAssertEqual(snapshot[FieldPath.documentID()] as? String, "hitchhiker")
        XCTAssertEqual(snapshot.get(FieldPath(["a.b"])) as? String, "top-level")
        XCTAssertEqual(snapshot.get("a.b") as? String, "nested")
        XCTAssertEqual(snapshot.get(FieldPath(["a", "b"])) as? String, "nested")
        XCTAssertEqual(snapshot.get(FieldPath(["cover", "small"])) as? String, "s")
        XCTAssertNil(snapshot.get(FieldPath(["cover", "missing"])))
        XCTAssertNil(snapshot.get(42), "not a field path")
        let missing = try await db.document("books/nope").getDocument()
        XCTAssertNil(missing.get("title"))
    }
}
