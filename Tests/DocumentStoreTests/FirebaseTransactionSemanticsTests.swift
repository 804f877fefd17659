@testable import DocumentStore
import Foundation
import XCTest

/// Transactions fail, succeed and run again as Firestore's SDK's do (its FSTTransactionTests):
/// every sequence of get, set, update and delete on an existing or missing document ends as
/// Firestore's, with its error codes; a document read twice must not change in between; a
/// document read must not change before the commit (`failedPrecondition`, run again up to
/// `maxAttempts`, 5 by default); permanent errors and errors of the app's own domain are not retried.
/// What changes a document read is another program (`writeFile`): a write through the store
/// itself waits for the transaction's lock, as with Firestore's server libraries.
final class FirebaseTransactionSemanticsTests: StoreTestCase {
    private enum Stage {
        case get, delete, update1, update2, set1, set2

        func run(_ transaction: Transaction, _ document: DocumentReference) {
            switch self {
            case .get: _ = try? transaction.getDocument(document)
            case .delete: transaction.deleteDocument(document)
            case .update1: transaction.updateData(["foo": "bar1"], forDocument: document)
            case .update2: transaction.updateData(["foo": "bar2"], forDocument: document)
            case .set1: transaction.setData(["foo": "bar1"], forDocument: document)
            case .set2: transaction.setData(["foo": "bar2"], forDocument: document)
            }
        }
    }

    private enum Outcome: Equatable {
        case document([String: String])
        case noDocument
        case error(FirestoreErrorCode.Code)
    }

    private var documentNumber = 0

    /// Runs the stages in one transaction on a fresh document (existing with `foo: bar` or
    /// missing) and returns what it left or the transaction's error.
    private func outcome(existing: Bool, _ stages: [Stage]) async throws -> Outcome {
        documentNumber += 1
        let document = db.document("nonexistent/doc\(documentNumber)")
        if existing { try await document.setData(["foo": "bar"]) }
        do {
            try await db.runTransaction { transaction, _ -> Any? in
                for stage in stages { stage.run(transaction, document) }
                return true
            }
        } catch {
            let code = try XCTUnwrap(FirestoreErrorCode.Code(rawValue: (error as NSError).code), "\(error)")
            return .error(code)
        }
        let snapshot = try await document.getDocument()
        guard let data = snapshot.data() else { return .noDocument }
        return .document(data.compactMapValues { $0 as? String })
    }

    private func assertOutcomes(existing: Bool, _ cases: [([Stage], Outcome)], file: StaticString = #filePath, line: UInt = #line) async throws {
        for (stages, expected) in cases {
            let actual = try await outcome(existing: existing, stages)
            XCTAssertEqual(actual, expected, "\(existing ? "existing" : "missing") document, stages \(stages.map { "\($0)" })", file: file, line: line)
        }
    }

    private let bar2 = Outcome.document(["foo": "bar2"])

    func testSequencesAfterGettingAnExistingDocument() async throws {
        try await assertOutcomes(existing: true, [
            ([.get, .delete, .delete], .noDocument),
            ([.get, .delete, .update2], .error(.invalidArgument)),
            ([.get, .delete, .set2], bar2),
            ([.get, .update1, .delete], .noDocument),
            ([.get, .update1, .update2], bar2),
            ([.get, .update1, .set2], bar2),
            ([.get, .set1, .delete], .noDocument),
            ([.get, .set1, .update2], bar2),
            ([.get, .set1, .set2], bar2),
        ])
    }

    func testSequencesAfterGettingAMissingDocument() async throws {
        try await assertOutcomes(existing: false, [
            ([.get, .delete, .delete], .noDocument),
            ([.get, .delete, .update2], .error(.invalidArgument)),
            ([.get, .delete, .set2], bar2),
            ([.get, .update1, .delete], .error(.invalidArgument)),
            ([.get, .update1, .update2], .error(.invalidArgument)),
            ([.get, .update1, .set2], .error(.invalidArgument)),
            ([.get, .set1, .delete], .noDocument),
            ([.get, .set1, .update2], bar2),
            ([.get, .set1, .set2], bar2),
        ])
    }

    func testSequencesOnAnExistingDocumentUnread() async throws {
        try await assertOutcomes(existing: true, [
            ([.delete, .delete], .noDocument),
            ([.delete, .update2], .error(.invalidArgument)),
            ([.delete, .set2], bar2),
            ([.update1, .delete], .noDocument),
            ([.update1, .update2], bar2),
            ([.update1, .set2], bar2),
            ([.set1, .delete], .noDocument),
            ([.set1, .update2], bar2),
            ([.set1, .set2], bar2),
        ])
    }

    func testSequencesOnAMissingDocumentUnread() async throws {
        try await assertOutcomes(existing: false, [
            ([.delete, .delete], .noDocument),
            ([.delete, .update2], .error(.invalidArgument)),
            ([.delete, .set2], bar2),
            ([.update1, .delete], .error(.notFound)),
            ([.update1, .update2], .error(.notFound)),
            ([.update1, .set2], .error(.notFound)),
            ([.set1, .delete], .noDocument),
            ([.set1, .update2], bar2),
            ([.set1, .set2], bar2),
        ])
    }

    func testADocumentReadTwiceWithDifferentVersionsFailsTheReadAndEndsAborted() async throws {
        let document = db.document("counters/c")
        try await document.setData(["count": 15])
        let attempts = Locked(0)
        let secondReads = Locked<[Error?]>([])
        let error = await thrownError {
            try await self.db.runTransaction { transaction, errorPointer -> Any? in
                let attempt = attempts.withLock { $0 += 1; return $0 }
                do {
                    _ = try transaction.getDocument(document)
                    try self.store.writeFile("counters/c.json", #"{"count": \#(1234 + attempt)}"#)
                    _ = try transaction.getDocument(document)
                    secondReads.withLock { $0.append(nil) }
                } catch let readError as NSError {
                    secondReads.withLock { $0.append(readError) }
                    errorPointer?.pointee = readError
                }
                return nil
            }
        }
        XCTAssertEqual((error as NSError?)?.code, FirestoreErrorCode.aborted.rawValue, "\(String(describing: error))")
        XCTAssertEqual(attempts.withLock { $0 }, 5, "aborted is Firestore's domain and retryable: every attempt ran")
        XCTAssertEqual(secondReads.withLock { $0.map { ($0 as NSError?)?.code } }, Array(repeating: FirestoreErrorCode.aborted.rawValue, count: 5))
        let count = try await document.getDocument().get("count") as? Int
        XCTAssertEqual(count, 1239)
    }

    func testADocumentReadButNotWrittenThatChangesRunsTheBlockAgain() async throws {
        let read = db.document("counters/read")
        let written = db.document("counters/written")
        try await read.setData(["count": 15])
        let attempts = Locked(0)
        try await db.runTransaction { transaction, errorPointer -> Any? in
            attempts.withLock { $0 += 1 }
            do {
                _ = try transaction.getDocument(read)
                try self.store.writeFile("counters/read.json", #"{"count": 1234}"#)   // the same value again on the second attempt
            } catch let error as NSError {
                errorPointer?.pointee = error
                return nil
            }
            transaction.setData(["count": 16], forDocument: written)
            return nil
        }
        XCTAssertEqual(attempts.withLock { $0 }, 2)
        let count = try await written.getDocument().get("count") as? Int
        XCTAssertEqual(count, 16)
    }

    func testTheDefaultIsFiveAttemptsThenFailedPrecondition() async throws {
        let document = db.document("counters/c")
        try await document.setData(["count": 15])
        let attempts = Locked(0)
        let error = await thrownError {
            try await self.db.runTransaction { transaction, errorPointer -> Any? in
                let attempt = attempts.withLock { $0 += 1; return $0 }
                do {
                    _ = try transaction.getDocument(document)
                    try self.store.writeFile("counters/c.json", #"{"count": \#(1234 + attempt)}"#)
                } catch let error as NSError {
                    errorPointer?.pointee = error
                }
                return nil
            }
        }
        XCTAssertEqual((error as NSError?)?.code, FirestoreErrorCode.failedPrecondition.rawValue, "\(String(describing: error))")
        XCTAssertEqual(attempts.withLock { $0 }, 5)
        XCTAssertEqual(TransactionOptions().maxAttempts, 5)
    }

    func testAPermanentErrorIsNotRetried() async throws {
        let attempts = Locked(0)
        let error = await thrownError {
            try await self.db.runTransaction { transaction, _ -> Any? in
                attempts.withLock { $0 += 1 }
                let document = self.db.collection("nonexistent").document()
                _ = try? transaction.getDocument(document)
                transaction.updateData(["count": 16], forDocument: document)
                return nil
            }
        }
        XCTAssertEqual((error as NSError?)?.code, FirestoreErrorCode.invalidArgument.rawValue, "\(String(describing: error))")
        XCTAssertEqual(attempts.withLock { $0 }, 1)
    }

    func testUpdatingADocumentReadAsMissingFailsEvenIfItWasCreatedSince() async throws {
        let document = db.collection("nonexistent").document()
        let error = await thrownError {
            try await self.db.runTransaction { transaction, _ -> Any? in
                _ = try? transaction.getDocument(document)
                try? self.store.writeFile("nonexistent/\(document.documentID).json", #"{"count": 1234}"#)
                transaction.updateData(["count": 16], forDocument: document)
                return nil
            }
        }
        XCTAssertEqual((error as NSError?)?.code, FirestoreErrorCode.invalidArgument.rawValue)
        let count = try await document.getDocument().get("count") as? Int
        XCTAssertEqual(count, 1234)
    }

    func testAnErrorInTheAppsOwnDomainStopsTheTransactionAtOnce() async throws {
        let document = db.collection("towns").document()
        let attempts = Locked(0)
        let error = await thrownError {
            try await self.db.runTransaction { transaction, errorPointer -> Any? in
                attempts.withLock { $0 += 1 }
                transaction.setData(["foo": "bar"], forDocument: document)
                errorPointer?.pointee = NSError(domain: "NSCocoaErrorDomain", code: 35)
                return nil
            }
        }
        XCTAssertEqual((error as NSError?)?.code, 35)
        XCTAssertEqual(attempts.withLock { $0 }, 1)
        let exists = try await document.getDocument().exists
        XCTAssertFalse(exists)
    }

    func testReadsWithoutWritesSucceed() async throws {
        let document = db.collection("foo").document()
        try await document.setData(["foo": "bar"])
        let result = try await db.runTransaction { transaction, errorPointer -> Any? in
            do {
                _ = try transaction.getDocument(self.db.collection("foo").document())
                return try transaction.getDocument(document).get("foo")
            } catch let error as NSError {
                errorPointer?.pointee = error
                return nil
            }
        }
        XCTAssertEqual(result as? String, "bar")
    }
}
