@testable import DocumentStore
import Foundation
import XCTest

/// Firestore's checks on aggregate queries: at least one aggregation, at most five different
/// ones, field paths it takes, and the snapshot's refusal of results that were not requested.
final class AggregationValidationTests: StoreTestCase {
    private var books: CollectionReference { db.collection("books") }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try books.document("a").write(["pages": 100, "weight": 24.1, "foo": 1])
    }

    /// The error `aggregations` fail with, through the `async` call.
    private func failure(_ aggregations: [AggregateField], on query: Query? = nil) async -> FirestoreErrorCode? {
        let error = await thrownError { _ = try await (query ?? self.books).aggregate(aggregations).getAggregation(source: .server) }
        return error as? FirestoreErrorCode
    }

    func testAnEmptyListIsRefused() async throws {
        let error = await failure([])
        XCTAssertEqual(error?.code, FirestoreErrorCode.invalidArgument.rawValue)
        XCTAssertTrue(error?.description.contains("Aggregations can not be empty") ?? false, "\(String(describing: error))")
    }

    func testAnEmptyListIsRefusedThroughTheCompletion() throws {
        let done = expectation(description: "aggregation")
        books.aggregate([]).getAggregation(source: .server) { snapshot, error in
            XCTAssertNil(snapshot)
            XCTAssertEqual((error as? FirestoreErrorCode)?.code, FirestoreErrorCode.invalidArgument.rawValue)
            XCTAssertEqual((error as NSError?)?.domain, FirestoreErrorDomain)
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
    }

    func testAtMostFiveAggregations() async throws {
        let six: [AggregateField] = [.count(), .sum("pages"), .sum("weight"), .average("pages"), .average("weight"), .average("foo")]
        let error = await failure(six)
        XCTAssertEqual(error, DocumentStoreError.invalidCall("an aggregation query has 6 different aggregations; the maximum number of aggregations is 5"))
        let five = try await books.aggregate(Array(six.prefix(5))).getAggregation(source: .server)
        XCTAssertEqual(five.count, 1)
        let sixWithADuplicate = try await books.aggregate(Array(six.prefix(5)) + [.sum(FieldPath(["pages"]))]).getAggregation(source: .server)
        XCTAssertEqual(try sixWithADuplicate.result(for: .sum("pages")), .integer(100), "duplicates are merged before counting")
    }

    func testDottedFieldPathsFirestoreRefuses() async throws {
        for (text, reason) in [("a..b", "a field path cannot be empty or have empty parts (as in \"a..b\" or \".a\")"),
                               (".a", "a field path cannot be empty or have empty parts (as in \"a..b\" or \".a\")"),
                               ("", "a field path cannot be empty or have empty parts (as in \"a..b\" or \".a\")")] {
            let error = await failure([.count(), .sum(text)])
            XCTAssertEqual(error, DocumentStoreError.invalidCall("AggregateField.sum: invalid field path \"\(text)\": \(reason)"))
        }
        for (text, character) in [("a/b", "/"), ("a~b", "~"), ("a*", "*"), ("a[0]", "[")] {
            let error = await failure([.average(text)])
            XCTAssertEqual(error, DocumentStoreError.invalidCall(
                "AggregateField.average: invalid field path \"\(text)\": a dotted field path cannot contain '\(character)' (none of '~', '*', '/', '[', ']'); use FieldPath([...]) for such names"))
        }
        let emptyName = await failure([.sum(FieldPath(["a", ""]))])
        XCTAssertEqual(emptyName?.code, FirestoreErrorCode.invalidArgument.rawValue)
        let noNames = await failure([.average(FieldPath([]))])
        XCTAssertEqual(noNames?.code, FirestoreErrorCode.invalidArgument.rawValue)
    }

    func testAFieldPathMayHoldAnyCharacterInAFieldPath() async throws {
        try books.document("a").write(["a/b": 7, "pages": 1])
        let snapshot = try await books.aggregate([.sum(FieldPath(["a/b"]))]).getAggregation(source: .server)
        XCTAssertEqual(try snapshot.result(for: .sum(FieldPath(["a/b"]))), .integer(7))
    }

    func testAFieldPathIsAtMost1500Bytes() async throws {
        let longest = String(repeating: "0123456789", count: 150).dropLast()
        XCTAssertEqual(longest.utf8.count, 1499)
        try db.collection("long").document("a").write([String(longest): 1])
        try db.collection("long").document("b").write([String(longest): 2])
        let snapshot = try await db.collection("long").aggregate([.sum(String(longest))]).getAggregation(source: .server)
        XCTAssertEqual(snapshot.get(.sum(String(longest))) as? NSNumber, 3)
        let tooLong = await failure([.sum(FieldPath([String(longest), "xy"]))])
        XCTAssertEqual(tooLong?.code, FirestoreErrorCode.invalidArgument.rawValue, "1499 + 1 + 2 bytes")
        XCTAssertTrue(tooLong?.description.contains("is 1502 bytes; Firestore takes at most 1500") ?? false, "\(String(describing: tooLong))")
    }

    func testTheQuerysOwnErrorIsReported() async throws {
        let error = await failure([.count()], on: books.limit(to: 0))
        XCTAssertEqual(error?.code, FirestoreErrorCode.invalidArgument.rawValue)
        XCTAssertEqual(error?.description, "Invalid query. Query limit (0) is invalid. Limit must be positive.")
    }

    func testResultsThatWereNotRequestedAreRefusedWithFirebasesMessage() async throws {
        let snapshot = try await books.aggregate([.sum("pages")]).getAggregation(source: .server)
        XCTAssertThrowsError(try snapshot.result(for: .count())) { error in
            XCTAssertEqual(error as? DocumentStoreError, .invalidCall("'count()' was not requested in the aggregation query."))
        }
        XCTAssertThrowsError(try snapshot.result(for: .sum("foo"))) { error in
            XCTAssertEqual(error as? DocumentStoreError, .invalidCall("'sum(foo)' was not requested in the aggregation query."))
        }
        XCTAssertThrowsError(try snapshot.result(for: .average("pages"))) { error in
            XCTAssertEqual(error as? DocumentStoreError, .invalidCall("'avg(pages)' was not requested in the aggregation query."))
        }
        XCTAssertEqual(try snapshot.result(for: .sum(FieldPath(["pages"]))), .integer(100))
    }
}
