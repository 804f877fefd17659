@testable import DocumentStore
import Foundation
import XCTest

/// A store with helpers for query tests: seed documents, read a query's ids, read its error.
class QueryTestCase: StoreTestCase {
    func seed(_ collection: String, _ documents: [String: [String: Any]]) throws {
        let batch = db.batch()
        for (id, data) in documents { batch.setData(data, forDocument: db.collection(collection).document(id)) }
        try batch.commitNow()
    }

    func ids(_ query: Query, file: StaticString = #filePath, line: UInt = #line) -> [String] {
        do { return try query.readSnapshot().documents.map(\.documentID) } catch {
            XCTFail("the query failed: \(error)", file: file, line: line)
            return []
        }
    }

    func paths(_ query: Query) throws -> [String] {
        try query.readSnapshot().documents.map(\.reference.path)
    }

    /// The message of the `invalidArgument` the query reports on a read.
    func invalidArgument(_ query: Query, file: StaticString = #filePath, line: UInt = #line) -> String? {
        do {
            _ = try query.readSnapshot()
            XCTFail("expected invalidArgument, the query ran", file: file, line: line)
            return nil
        } catch let error as FirestoreErrorCode {
            XCTAssertEqual(error.code, FirestoreErrorCode.invalidArgument.rawValue, file: file, line: line)
            return error.description
        } catch {
            XCTFail("expected a FirestoreErrorCode, got \(error)", file: file, line: line)
            return nil
        }
    }
}
