@testable import DocumentStore
import Foundation
import XCTest

/// `whereFilter` with `Filter.andFilter` and `Filter.orFilter`, nested, on Firebase's OR-query
/// data sets.
final class CompositeFilterTests: QueryTestCase {
    private var docs: CollectionReference { db.collection("docs") }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try seed("docs", [
            "doc1": ["a": 1, "b": 0], "doc2": ["a": 2, "b": 1], "doc3": ["a": 3, "b": 2], "doc4": ["a": 1, "b": 3], "doc5": ["a": 1, "b": 1],
        ])
    }

    func testOrOfEqualities() {
        let filter = Filter.orFilter([Filter.whereField("a", isEqualTo: 1), Filter.whereField("b", isEqualTo: 1)])
        XCTAssertEqual(ids(docs.whereFilter(filter)), ["doc1", "doc2", "doc4", "doc5"])
        XCTAssertEqual(ids(docs.whereFilter(filter).limit(to: 1)), ["doc1"])
    }

    func testNestedAndOr() {
        let or = Filter.orFilter([
            Filter.andFilter([Filter.whereField("a", isEqualTo: 1), Filter.whereField("b", isEqualTo: 0)]),
            Filter.andFilter([Filter.whereField("a", isEqualTo: 3), Filter.whereField("b", isEqualTo: 2)]),
        ])
        XCTAssertEqual(ids(docs.whereFilter(or)), ["doc1", "doc3"])
        let and = Filter.andFilter([
            Filter.whereField("a", isEqualTo: 1),
            Filter.orFilter([Filter.whereField("b", isEqualTo: 0), Filter.whereField("b", isEqualTo: 3)]),
        ])
        XCTAssertEqual(ids(docs.whereFilter(and)), ["doc1", "doc4"])
        let both = Filter.andFilter([
            Filter.orFilter([Filter.whereField("a", isEqualTo: 2), Filter.whereField("b", isEqualTo: 2)]),
            Filter.orFilter([Filter.whereField("a", isEqualTo: 3), Filter.whereField("b", isEqualTo: 3)]),
        ])
        XCTAssertEqual(ids(docs.whereFilter(both)), ["doc3"])
    }

    func testOrWithInAndRanges() {
        let filter = Filter.orFilter([Filter.whereField("a", in: [2, 3]), Filter.whereField("b", isGreaterThan: 2)])
        // The inequality on b orders by b, and documents without b would be left out.
        XCTAssertEqual(ids(docs.whereFilter(filter)), ["doc2", "doc3", "doc4"])
        let byField = Filter.orFilter([Filter.whereField(FieldPath(["a"]), isEqualTo: 3), Filter.whereField(FieldPath.documentID(), isEqualTo: "doc1")])
        XCTAssertEqual(ids(docs.whereFilter(byField)), ["doc1", "doc3"])
    }

    func testAnEmptyCompositeChangesNothing() {
        XCTAssertEqual(ids(docs.whereFilter(Filter.andFilter([]))).count, 5)
        XCTAssertEqual(docs.whereFilter(Filter.andFilter([])), docs)
    }

    func testWhereFieldAndWhereFilterCombine() {
        let filter = Filter.orFilter([Filter.whereField("b", isEqualTo: 0), Filter.whereField("b", isEqualTo: 3)])
        XCTAssertEqual(ids(docs.whereField("a", isEqualTo: 1).whereFilter(filter)), ["doc1", "doc4"])
    }
}
