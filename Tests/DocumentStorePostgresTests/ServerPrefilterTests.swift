@testable import DocumentStore
@testable import DocumentStorePostgres
import Foundation
import XCTest

/// What a server is asked to narrow a query to: conditions every match meets, exact only
/// where `jsonb` agrees with Firestore.
final class ServerPrefilterTests: StoreTestCase {
    private func conditions(_ query: Query) -> [ServerCondition] {
        ServerPrefilter.conditions(query.definition).conditions
    }

    private func isExact(_ query: Query) -> Bool {
        ServerPrefilter.isExact(query.definition)
    }

    func testEqualitiesOnStringsBooleansAndNumbersAreContainments() {
        let query = db.collection("books")
            .whereField("author", isEqualTo: "Herbert")
            .whereField("cover.color", isEqualTo: "red")
            .whereField("inPrint", isEqualTo: true)
            .whereField("pages", isEqualTo: 412)
        XCTAssertEqual(conditions(query), [.containsAny([#"{"author":"Herbert"}"#]), .containsAny([#"{"cover":{"color":"red"}}"#]),
                                           .containsAny([#"{"inPrint":true}"#]), .containsAny([#"{"pages":412}"#])])
        XCTAssertTrue(isExact(query))
    }

    func testEveryFilterKindNarrows() {
        let books = db.collection("books")
        XCTAssertEqual(conditions(books.whereField("n", isEqualTo: 0)), [.range(["n"], ServerRange(.equal, .integer(0))!)], "-0.0 is stored tagged and equals 0")
        XCTAssertEqual(conditions(books.whereField("n", isEqualTo: NSNull())), [.containsAny([#"{"n":null}"#])])
        XCTAssertEqual(conditions(books.whereField("n", in: ["a", 1, NSNull(), Double.nan])), [.containsAny([#"{"n":"a"}"#, #"{"n":1}"#])])
        XCTAssertEqual(conditions(books.whereField("tags", arrayContains: "x")), [.containsAny([#"{"tags":["x"]}"#])])
        XCTAssertEqual(conditions(books.whereField("tags", arrayContainsAny: [true, 2.5])), [.containsAny([#"{"tags":[true]}"#, #"{"tags":[2.5]}"#])])
        XCTAssertEqual(conditions(books.whereField("tags", arrayContains: NSNull())), [.containsAny([])], "null is a member of nothing")
        XCTAssertEqual(conditions(books.whereField("n", in: [0, 1])),
                       [.anyOf([[.containsAny([#"{"n":1}"#])], [.range(["n"], ServerRange(.equal, .integer(0))!)]])], "0 and -0.0 by rank and key")
        XCTAssertEqual(conditions(books.whereField("a", isNotEqualTo: "x")), [.notNull(["a"]), .containsNone([#"{"a":"x"}"#])])
        XCTAssertEqual(conditions(books.whereField("a", isGreaterThan: "é")), [.string(["a"], op: ">", text: "é")])
        XCTAssertEqual(conditions(books.whereField("a", isLessThan: 1.5)), [.range(["a"], ServerRange(.lessThan, .double(1.5))!)])
        XCTAssertEqual(conditions(books.order(by: "a")), [.present(["a"])])
        for query in [books.whereField("n", isEqualTo: 0), books.whereField("n", in: ["a", 1]), books.whereField("n", in: [0, -2.5]), books.whereField("t", arrayContains: "x"),
                      books.whereField("a", isNotEqualTo: "x"), books.whereField("a", notIn: ["x", 2]), books.whereField("a", isGreaterThan: "b"),
                      books.whereField("a", isLessThan: 1.5).order(by: "b")] {
            XCTAssertTrue(isExact(query), "\(query.definition)")
        }
    }

    func testWhatContainmentCannotMatchOnlyNeedsTheFieldThere() {
        let books = db.collection("books")
        XCTAssertEqual(conditions(books.whereField("n", isEqualTo: 9_007_199_254_740_993 as Int64)), [.present(["n"])], "jsonb compares a big double by its text")
        XCTAssertEqual(conditions(books.whereField("n", in: [0, 9_007_199_254_740_993 as Int64])), [.present(["n"])])
        XCTAssertEqual(conditions(books.whereField("n", isGreaterThan: 1e300)), [.number(["n"])])
        XCTAssertEqual(conditions(books.whereField("t", isLessThan: Timestamp(seconds: 5, nanoseconds: 0))), [.present(["t"])])
        XCTAssertEqual(conditions(books.whereField("tags", isEqualTo: ["a"])), [.present(["tags"])])
        XCTAssertEqual(conditions(books.whereField("a", isNotEqualTo: Double.nan)), [.notNull(["a"])])
        for query in [books.whereField("n", isEqualTo: 9_007_199_254_740_993 as Int64), books.whereField("n", isGreaterThan: 1e300),
                      books.whereField("tags", isEqualTo: ["a"]), books.whereField("a", notIn: ["x", NSNull()])] {
            XCTAssertFalse(isExact(query), "\(query.definition)")
        }
    }

    func testFieldsTheServerCannotFindAreLeftToTheEvaluator() {
        let books = db.collection("books")
        XCTAssertEqual(conditions(books.whereField(FieldPath(["m", "$price"]), isEqualTo: "x")), [], "a lone $ key is stored tagged")
        let or = books.whereFilter(Filter.orFilter([Filter.whereField("a", isEqualTo: "x"), Filter.whereField(FieldPath(["m", "$price"]), isEqualTo: "x")]))
        XCTAssertEqual(conditions(or), [], "a branch the server cannot narrow lets everything through")
        XCTAssertFalse(isExact(or))
    }

    func testAnOrIsAnOrOfItsBranchesAndItsInequalitiesFieldsMustBeThere() {
        let query = db.collection("books").whereFilter(Filter.orFilter([
            Filter.whereField("a", isEqualTo: "x"),
            Filter.andFilter([Filter.whereField("b", isGreaterThan: "y"), Filter.whereField("c", isEqualTo: true)]),
        ]))
        XCTAssertEqual(conditions(query), [.anyOf([[.containsAny([#"{"a":"x"}"#])], [.string(["b"], op: ">", text: "y"), .containsAny([#"{"c":true}"#])]]),
                                           .present(["b"])], "the inequality orders by b: Firestore leaves out documents without it")
        XCTAssertTrue(isExact(query))
    }

    func testFiltersOnTheIDAreOnThePath() {
        let books = db.collection("books")
        XCTAssertEqual(conditions(books.whereField(FieldPath.documentID(), isEqualTo: "dune")), [.pathIn(["books/dune"])])
        XCTAssertEqual(conditions(books.whereField(FieldPath.documentID(), in: ["a", "b"])), [.pathIn(["books/a", "books/b"])])
        XCTAssertEqual(conditions(books.whereField(FieldPath.documentID(), isNotEqualTo: "a")), [.pathNotIn(["books/a"])])
        XCTAssertEqual(conditions(books.whereField(FieldPath.documentID(), isGreaterThan: "a")), [.path(op: ">", path: "books/a")])
        XCTAssertTrue(isExact(books.whereField(FieldPath.documentID(), notIn: ["a", "b"])))
    }

    /// The server compares paths in Firestore's order of ids (numeric ids first, `IDOrder`), so
    /// every bound on the id narrows exactly, numeric ids or not.
    func testEveryRangeOnTheIDNarrowsExactlyNumericIdsToo() {
        let books = db.collection("books")
        let ranges: [(Query, ServerCondition)] = [
            (books.whereField(FieldPath.documentID(), isLessThan: "m"), .path(op: "<", path: "books/m")),
            (books.whereField(FieldPath.documentID(), isLessThanOrEqualTo: "m"), .path(op: "<=", path: "books/m")),
            (books.whereField(FieldPath.documentID(), isGreaterThan: "__id5__"), .path(op: ">", path: "books/__id5__")),
            (db.collection("shelves/__id1__/books").whereField(FieldPath.documentID(), isGreaterThanOrEqualTo: "a"),
             .path(op: ">=", path: "shelves/__id1__/books/a")),
        ]
        for (query, condition) in ranges {
            XCTAssertEqual(conditions(query), [condition], "\(query.definition)")
            XCTAssertTrue(isExact(query), "\(query.definition)")
        }
    }

    func testAnAndInsideTheQueryNarrowsToo() {
        let query = db.collection("books").whereFilter(Filter.andFilter([Filter.whereField("a", isEqualTo: "x"), Filter.whereField("b", isEqualTo: 2.5)]))
        XCTAssertEqual(conditions(query), [.containsAny([#"{"a":"x"}"#]), .containsAny([#"{"b":2.5}"#])])
        XCTAssertTrue(isExact(query))
    }
}
