@testable import DocumentStore
import Foundation
import XCTest

/// The store's error from `body`, as callers see it; nil (with a failure) when nothing or
/// something else was thrown.
func storeError(file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Void) -> FirestoreErrorCode? {
    guard let error = thrownError(file: file, line: line, body) else { return nil }
    guard let storeError = error as? FirestoreErrorCode else {
        XCTFail("expected a FirestoreErrorCode, got \(type(of: error)): \(error)", file: file, line: line)
        return nil
    }
    return storeError
}

extension StoreTestCase {
    /// The document's fields as the store reads them back from its files or its server, typed.
    func storedFields(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws -> Fields {
        let stored = try db.backend.document(at: try ResourcePath.parse(path, expectDocument: true), store: db)
        return try XCTUnwrap(stored.fields, "document \(path) is \(stored)", file: file, line: line)
    }

    /// Every document of the collection, read as `getDocuments()` reads them.
    func documents(in collection: String) async throws -> [QueryDocumentSnapshot] {
        try await db.collection(collection).getDocuments().documents
    }
}

extension DocumentReference {
    /// `setData(_:merge:)` that throws, always with `[String: Any]`: a literal whose values share
    /// one Encodable type would otherwise pick `write(_:)`'s Encodable overload and the encoder.
    func set(_ data: [String: Any], merge: Bool = false) throws {
        try write(data, merge: merge)
    }
}
