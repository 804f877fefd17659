@testable import DocumentStore
import Foundation
import XCTest

/// Firebase's ways of handling errors work unchanged: every error the store throws or hands to a
/// completion is an `NSError` instance in `FirestoreErrorDomain` (so `catch let error as NSError`,
/// which on Linux matches only real instances, catches it), and `as? FirestoreErrorCode`,
/// `.code == .x`, `catch FirestoreErrorCode.x` and `FirestoreErrorCode.Code` still match.
final class FirebaseErrorHandlingTests: StoreTestCase {
    /// A document whose collection folder is a symbolic link: every read of it fails
    /// (`.unavailable`, the store refuses to follow the link).
    private func unreadableDocument() throws -> DocumentReference {
        try FileManager.default.createSymbolicLink(atPath: store.path("linked"), withDestinationPath: store.outside.path)
        return db.document("linked/x")
    }

    func testTheDocsTransactionBlockHandsAReadErrorToErrorPointerAndToTheCompletion() throws {
        let reference = try unreadableDocument()
        let pointed = Locked<[NSError]>([])
        let finished = expectation(description: "completion")
        let outcome = Locked<(Any?, Error?)>((nil, nil))
        db.runTransaction({ transaction, errorPointer -> Any? in
            let document: DocumentSnapshot
            do {
                try document = transaction.getDocument(reference)
            } catch let fetchError as NSError {
                errorPointer?.pointee = fetchError
                pointed.withLock { $0.append(fetchError) }
                return nil
            }
            return document.exists
        }, completion: { value, error in
            outcome.withLock { $0 = (value, error) }
            finished.fulfill()
        })
        wait(for: [finished], timeout: 30)
        let (value, error) = outcome.withLock { $0 }
        XCTAssertNil(value)
        let caught = try XCTUnwrap(pointed.withLock { $0.last }, "the block's catch let … as NSError did not run")
        XCTAssertEqual(caught.domain, FirestoreErrorDomain)
        XCTAssertEqual(caught.code, FirestoreErrorCode.unavailable.rawValue)
        XCTAssertTrue(caught.localizedDescription.contains("linked"), caught.localizedDescription)
        let completed = try XCTUnwrap(error) as NSError
        XCTAssertTrue(completed === caught, "the completion gets the error the block set: \(completed)")
    }

    func testStoreErrorsAreCaughtAsNSErrorInFirestoreErrorDomain() async throws {
        let reference = try unreadableDocument()
        let failures: [(String, () async throws -> Void)] = [
            ("getDocument", { _ = try await reference.getDocument() }),
            ("setData", { try await reference.setData(["a": 1]) }),
            ("getDocuments", { _ = try await self.db.collection("linked").getDocuments() }),
            ("updateData of a missing document", { try await self.db.document("books/missing").updateData(["a": 1]) }),
            ("an invalid query", { _ = try await self.db.collection("books").limit(to: 0).getDocuments() }),
            ("a batch", {
                let batch = self.db.batch()
                batch.updateData(["a": 1], forDocument: self.db.document("books/missing"))
                try await batch.commit()
            }),
        ]
        for (name, failure) in failures {
            do {
                try await failure()
                XCTFail("\(name) succeeded")
            } catch let error as NSError {
                XCTAssertEqual(error.domain, FirestoreErrorDomain, name)
                XCTAssertNotNil(FirestoreErrorCode.Code(rawValue: error.code), name)
                XCTAssertNotNil(error as? FirestoreErrorCode, name)
            }
        }
    }

    func testCompletionHandlersGetNSErrorInstances() throws {
        let reference = try unreadableDocument()
        let finished = expectation(description: "completion")
        let received = Locked<Error?>(nil)
        reference.getDocument { _, error in
            received.withLock { $0 = error }
            finished.fulfill()
        }
        wait(for: [finished], timeout: 30)
        let error = try XCTUnwrap(received.withLock { $0 })
        XCTAssertTrue(type(of: error) is NSError.Type, "\(type(of: error))")
        XCTAssertEqual((error as NSError).domain, FirestoreErrorDomain)
    }

    func testFirebasesWaysOfMatchingACodeStillMatch() async throws {
        let reference = db.document("books/missing")
        do {
            try await reference.updateData(["a": 1])
            XCTFail("updateData of a missing document succeeded")
        } catch FirestoreErrorCode.notFound {
            // Firebase's `catch FirestoreErrorCode.notFound`.
        }
        let thrown = await thrownError { try await reference.updateData(["a": 1]) }
        let error = try XCTUnwrap(thrown)
        switch error {
        case FirestoreErrorCode.notFound: break
        default: XCTFail("switch error { case FirestoreErrorCode.notFound: } did not match \(error)")
        }
        let firestoreError = try XCTUnwrap(error as? FirestoreErrorCode)
        XCTAssertTrue(firestoreError.code == .notFound)
        XCTAssertFalse(firestoreError.code == .aborted)
        XCTAssertTrue((error as? FirestoreErrorCode)?.code == .notFound)
        switch firestoreError.code {
        case .notFound: break
        default: XCTFail("switch error.code { case .notFound: } did not match \(firestoreError.code)")
        }
        XCTAssertEqual(FirestoreErrorCode.Code(rawValue: (error as NSError).code), .notFound)
        XCTAssertEqual((error as NSError).code, FirestoreErrorCode.notFound.rawValue)
        XCTAssertEqual(firestoreError.errorCode, 5)
        XCTAssertEqual(FirestoreErrorCode.errorDomain, FirestoreErrorDomain)
        XCTAssertEqual("\(error)", "document books/missing does not exist (updateData needs an existing document)",
                       "printing the error says what went wrong")
    }

    func testErrorsOfOneCodeAndMessageAreEqual() {
        let message = [NSLocalizedDescriptionKey: "no such book"]
        XCTAssertEqual(FirestoreErrorCode(.notFound, userInfo: message), FirestoreErrorCode(.notFound, userInfo: message))
        XCTAssertNotEqual(FirestoreErrorCode(.notFound, userInfo: message), FirestoreErrorCode(.aborted, userInfo: message))
        XCTAssertNotEqual(FirestoreErrorCode(.notFound, userInfo: message), FirestoreErrorCode(.notFound))
        XCTAssertEqual(Set([FirestoreErrorCode(.notFound, userInfo: message), FirestoreErrorCode(.notFound, userInfo: message)]).count, 1)
    }
}
