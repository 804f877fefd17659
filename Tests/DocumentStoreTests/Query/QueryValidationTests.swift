@testable import DocumentStore
import Foundation
import XCTest

/// Firestore's checks at the call: a refused argument makes a query that reports
/// `invalidArgument` with the reason on every read and listener; and `==` on queries.
final class QueryValidationTests: QueryTestCase {
    private var books: CollectionReference { db.collection("books") }

    func testRefusedArguments() {
        let thirtyOne = Array(0..<31)
        XCTAssertEqual(invalidArgument(books.whereField("a", in: thirtyOne)),
                       "Invalid query. 'in' filters support at most 30 values, this one has 31.")
        XCTAssertEqual(invalidArgument(books.whereField("a", notIn: Array(0..<11))),
                       "Invalid query. 'notIn' filters support at most 10 values, this one has 11.")
        XCTAssertEqual(invalidArgument(books.whereField("a", in: [])), "Invalid query. A non-empty array is required for 'in' filters.")
        XCTAssertNotNil(invalidArgument(books.whereField("a", in: Array(0..<6)).whereField("b", in: Array(0..<6)))?.contains("36 disjunctions"))
        XCTAssertEqual(invalidArgument(books.limit(toLast: 2)), "limit(toLast:) queries require specifying at least one order(by:) clause.")
        XCTAssertEqual(invalidArgument(books.order(by: "a").start(at: [1, 2])),
                       "Invalid query. You are trying to start or end a query using more values (2) than were specified in the order by (1).")
        XCTAssertEqual(invalidArgument(books.start(at: []).order(by: "a")),
                       "Invalid query. You must not specify a starting point before specifying the order by.")
        XCTAssertEqual(invalidArgument(books.limit(to: -1)), "Invalid query. Query limit (-1) is invalid. Limit must be positive.")
        XCTAssertEqual(invalidArgument(books.whereField("a", isNotEqualTo: 1).whereField("b", isNotEqualTo: 2)),
                       "Invalid query. You cannot use more than one 'isNotEqualTo' filter.")
        XCTAssertEqual(invalidArgument(books.whereField("a", in: [1]).whereField("b", notIn: [2])),
                       "Invalid query. You cannot use 'notIn' filters with 'in' filters.")
        XCTAssertEqual(invalidArgument(books.whereField("a", isLessThan: NSNull())),
                       "Invalid query. Null supports only 'isEqualTo' and 'isNotEqualTo' comparisons (field 'a').")
        XCTAssertEqual(invalidArgument(books.whereField(FieldPath.documentID(), arrayContains: "x")),
                       "Invalid query. You can't perform 'arrayContains' queries on document ID since document IDs are not arrays.")
        XCTAssertEqual(invalidArgument(books.whereField(FieldPath.documentID(), isEqualTo: "a/b")),
                       "Invalid query. When querying a collection by document ID you must provide a plain document ID, but 'a/b' contains a '/' character.")
        XCTAssertEqual(invalidArgument(books.whereField(FieldPath.documentID(), isEqualTo: 3)),
                       "Invalid query. When querying by document ID you must provide a valid string or DocumentReference, but it was an integer.")
        XCTAssertEqual(invalidArgument(books.order(by: FieldPath.documentID()).start(at: [1])),
                       "Invalid query. Expected a string for the document ID, but it was an integer.")
        XCTAssertNotNil(invalidArgument(books.whereField("a..b", isEqualTo: 1)))
        XCTAssertNotNil(invalidArgument(books.whereField("a", isEqualTo: FieldValue.delete())))
    }

    /// Firestore's dotted paths reserve `~ * / [ ]` (`FieldPath::FromDotSeparatedString`);
    /// a `FieldPath` takes any name.
    func testDottedPathsRefuseFirestoresReservedCharacters() async throws {
        for field in ["a/b", "x[1]", "a~b", "a*", "b]"] {
            XCTAssertNotNil(invalidArgument(books.whereField(field, isEqualTo: 1))?.contains("cannot contain"), field)
            XCTAssertNotNil(invalidArgument(books.order(by: field))?.contains("cannot contain"), field)
            XCTAssertNotNil(invalidArgument(books.whereFilter(.orFilter([.whereField(field, isEqualTo: 1), .whereField("y", isEqualTo: 2)]))), field)
        }
        try await books.document("a").setData(["a/b": 1, "n": 1])
        XCTAssertEqual(try books.whereField(FieldPath(["a/b"]), isEqualTo: 1).readSnapshot().count, 1)
        let error = await thrownError { try await self.books.document("a").updateData(["a/b": 2]) }
        XCTAssertEqual((error as? FirestoreErrorCode)?.code, FirestoreErrorCode.invalidArgument.rawValue, "\(String(describing: error))")
        try await books.document("a").updateData([FieldPath(["a/b"]): 2])
        XCTAssertEqual(try books.document("a").readSnapshot().get(FieldPath(["a/b"])) as? Int, 2)
    }

    /// A count is refused for the same reasons as the query it counts, on every backend; but
    /// `limit(toLast:)` without an order, which only a read of the query needs (see
    /// AggregationTests).
    func testACountOfARefusedQueryIsRefused() async throws {
        try seed("books", ["a": ["x": 1], "b": ["x": 2]])
        for query in [books.limit(to: 0), books.whereField("x", in: []), books.whereField("a/b", isEqualTo: 1)] {
            let error = await thrownError { _ = try await query.count.getAggregation(source: .server) }
            XCTAssertEqual((error as? FirestoreErrorCode)?.code, FirestoreErrorCode.invalidArgument.rawValue, "\(query.definition)")
        }
    }

    func testOneArrayMembershipFilterPerDisjunction() throws {
        let refusal = "Invalid query. A maximum of 1 'ARRAY_CONTAINS' filter is allowed per disjunction ('arrayContains' and 'arrayContainsAny' both count)."
        XCTAssertEqual(invalidArgument(books.whereField("tags", arrayContains: "a").whereField("genres", arrayContains: "b")), refusal)
        XCTAssertEqual(invalidArgument(books.whereField("tags", arrayContains: "a").whereField("genres", arrayContainsAny: ["b"])), refusal)
        XCTAssertEqual(invalidArgument(books.whereFilter(.andFilter([
            .whereField("tags", arrayContains: "a"),
            .orFilter([.whereField("x", isEqualTo: 1), .whereField("genres", arrayContains: "b")]),
        ]))), refusal, "the second term of the normal form holds two")
        XCTAssertNoThrow(try books.whereFilter(.orFilter([
            .whereField("tags", arrayContains: "a"), .whereField("genres", arrayContains: "b"),
        ])).readSnapshot(), "one in each disjunction is allowed")
    }

    func testACursorFromAMissingDocumentOrOneWithoutTheOrderedField() throws {
        try seed("books", ["a": ["x": 1]])
        let missing = try books.document("zzz").readSnapshot()
        XCTAssertEqual(invalidArgument(books.start(atDocument: missing)),
                       "Invalid query. You are trying to start or end a query using a document that doesn't exist (books/zzz).")
        let a = try books.document("a").readSnapshot()
        XCTAssertEqual(invalidArgument(books.order(by: "y").start(afterDocument: a)),
                       "Invalid query. You are trying to start or end a query using a document for which the field 'y' (used as the orderBy) does not exist.")
    }

    func testAListenerOnARefusedQueryGetsTheError() throws {
        let recorder = ListenerRecorder<QuerySnapshot>()
        track(books.limit(to: 0).addSnapshotListener(recorder.listener))
        XCTAssertEqual((recorder.error(1) as? FirestoreErrorCode)?.code, FirestoreErrorCode.invalidArgument.rawValue)
    }

    func testEqualityAsFirebase() {
        XCTAssertEqual(books.whereField("a", isEqualTo: 1), books.whereField("a", isEqualTo: 1))
        XCTAssertEqual(books.whereField("a", isEqualTo: 1).hashValue, books.whereField("a", isEqualTo: 1).hashValue)
        XCTAssertNotEqual(books.whereField("a", isEqualTo: 1), books.whereField("a", isEqualTo: 1.0), "1 and 1.0 are different filters")
        XCTAssertNotEqual(books.whereField("a", isEqualTo: 1), db.collection("films").whereField("a", isEqualTo: 1))
        XCTAssertEqual(books.order(by: FieldPath.documentID()), books, "the id order is implied anyway")
        XCTAssertNotEqual(books.order(by: "a"), books.order(by: "a", descending: true))
        XCTAssertNotEqual(books.limit(to: 2), books.limit(to: 3))
        XCTAssertNotEqual(books.order(by: "a").limit(to: 2), books.order(by: "a").limit(toLast: 2))
        XCTAssertEqual(books.order(by: "a").start(at: [1]), books.order(by: "a").start(at: [1]))
        XCTAssertNotEqual(books.order(by: "a").start(at: [1]), books.order(by: "a").start(after: [1]))
        XCTAssertEqual(Set([books.whereField("a", isEqualTo: 1), books.whereField("a", isEqualTo: 1)]).count, 1)
        XCTAssertEqual(db.collectionGroup("books"), db.collectionGroup("books"))
        XCTAssertNotEqual(db.collectionGroup("books"), books)
    }

    func testAggregateQueryEqualityAsFirebase() async throws {
        let query = books.whereField("a", isEqualTo: 1)
        XCTAssertEqual(query.count, books.whereField("a", isEqualTo: 1).count)
        XCTAssertEqual(query.count.hashValue, books.whereField("a", isEqualTo: 1).count.hashValue)
        XCTAssertNotEqual(query.count, books.count)
        XCTAssertEqual(query.aggregate([.sum("p"), .count()]), query.aggregate([.count(), .sum("p"), .count()]),
                       "the same aggregations, in any order, duplicates merged")
        XCTAssertNotEqual(query.aggregate([.sum("p")]), query.aggregate([.average("p")]))
        try seed("books", ["a": ["a": 1], "b": ["a": 2]])
        let first = try await query.count.getAggregation(source: .server)
        let second = try await books.whereField("a", isEqualTo: 1).count.getAggregation(source: .server)
        XCTAssertEqual(first, second)
        let ofAll = try await books.count.getAggregation(source: .server)
        XCTAssertNotEqual(first, ofAll, "another query")
        try await books.document("c").setData(["a": 1])
        let later = try await query.count.getAggregation(source: .server)
        XCTAssertNotEqual(first, later, "another count")
    }
}
