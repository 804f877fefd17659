@testable import DocumentStore
import Foundation
import XCTest

/// What Firestore's backend refuses and Firebase's SDK lets through at the call is refused at
/// the read with `invalidArgument` and the backend's message (the one `shelf serve` sends);
/// and what the backend takes, inequalities on several fields and orders beside them, runs.
final class QueryBackendRulesTests: QueryTestCase {
    private var books: CollectionReference { db.collection("books") }

    func testAFieldIsOrderedOnceAndNothingAfterTheDocumentsName() {
        XCTAssertEqual(invalidArgument(books.order(by: "a").order(by: "a", descending: true)),
                       "order by clause cannot contain duplicate fields a")
        XCTAssertEqual(invalidArgument(books.order(by: FieldPath(["m", "k"])).order(by: "m.k")),
                       "order by clause cannot contain duplicate fields m.k")
        XCTAssertEqual(invalidArgument(books.order(by: FieldPath.documentID()).order(by: "a")),
                       "order by clause cannot contain more fields after the key")
        XCTAssertEqual(invalidArgument(books.whereField("a", isGreaterThan: 1).order(by: FieldPath.documentID())),
                       "order by clause cannot contain more fields after the key", "the inequality's implicit order comes after it")
    }

    func testAtMostTenInequalityFields() throws {
        let eleven = (0..<11).reduce(books as Query) { query, i in query.whereField("f\(i)", isGreaterThan: 0) }
        XCTAssertEqual(invalidArgument(eleven),
                       "The query contains 11 distinct inequality fields: [f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10]. A query may not have more than 10 distinct inequality fields.")
        let ten = (0..<10).reduce(books as Query) { query, i in query.whereField("f\(i)", isGreaterThan: 0) }
        XCTAssertEqual(ids(ten.whereField("f0", isLessThan: 5)), [], "ten fields, one with two bounds")
    }

    /// Firestore (and Google's emulator) take inequalities on several fields, and an order on
    /// any field beside an inequality: the SDK and the backend agree.
    func testInequalitiesOnSeveralFieldsAndOrdersBesideThemRun() throws {
        try seed("books", ["a": ["x": 1, "y": 2], "b": ["x": 2, "y": 1], "c": ["x": 0, "y": 0]])
        XCTAssertEqual(ids(books.whereField("x", isGreaterThan: 0).order(by: "y")), ["b", "a"])
        XCTAssertEqual(ids(books.whereField("x", isNotEqualTo: 0).order(by: "y", descending: true)), ["a", "b"])
        XCTAssertEqual(ids(books.whereField("x", isGreaterThan: 0).whereField("y", isGreaterThan: 0)), ["a", "b"])
    }

    /// The wire's query (`checkedAsTheBackendOnly`) is judged by the backend's rules alone, in
    /// its words: the SDK's checks at each call are not made.
    func testAQueryCheckedAsTheBackendOnlyGetsTheBackendsWords() throws {
        try seed("books", ["a": ["x": 1]])
        let served = books.checkedAsTheBackendOnly
        XCTAssertEqual(invalidArgument(served.whereField("x", in: Array(0..<31))), "'IN' supports up to 30 comparison values.")
        XCTAssertEqual(invalidArgument(served.whereField("x", notIn: [])), "'NOT_IN' requires an non-empty ArrayValue.")
        XCTAssertEqual(invalidArgument(served.whereField("x", isNotEqualTo: 1).whereField("y", isNotEqualTo: 2)),
                       "Only a single 'NOT_EQUAL', 'NOT_IN', 'IS_NOT_NAN', or 'IS_NOT_NULL' filter allowed per query.")
        XCTAssertEqual(invalidArgument(served.whereField("x", in: [1]).whereField("y", notIn: [2])),
                       "'NOT_IN' cannot be used in the same query with 'IN', 'ARRAY_CONTAINS_ANY' or 'OR'.")
        XCTAssertEqual(invalidArgument(served.whereField(FieldPath.documentID(), isEqualTo: "a")), "__key__ filter value must be a Key")
        XCTAssertEqual(invalidArgument(served.whereField(FieldPath.documentID(), arrayContains: "a")), "the name __key__ is reserved")
        XCTAssertEqual(invalidArgument(served.order(by: "x").start(at: [1, 2])), "Cursor has too many values.")
        XCTAssertEqual(invalidArgument(served.order(by: FieldPath.documentID()).start(at: [1])),
                       "Cursor __key__ value is not a document reference.")
        XCTAssertEqual(ids(served.whereField("x", isLessThan: NSNull())), [], "the backend answers a range over null: nothing")
        XCTAssertEqual(invalidArgument(books.whereField("x", in: Array(0..<31))),
                       "Invalid query. 'in' filters support at most 30 values, this one has 31.", "the SDK's words at the call")
    }
}
