@testable import DocumentStore
import Foundation
import XCTest

/// What a server is asked to narrow a query to: only equality filters every match satisfies.
final class ServerPrefilterTests: StoreTestCase {
    private func containment(_ query: Query) -> [String: FirestoreValue]? {
        ServerPrefilter.containment(query.definition)
    }

    func testEqualitiesOnStringsBooleansAndNumbersNarrowNestedFieldsIncluded() {
        let query = db.collection("books")
            .whereField("author", isEqualTo: "Herbert")
            .whereField("cover.color", isEqualTo: "red")
            .whereField("inPrint", isEqualTo: true)
            .whereField("pages", isEqualTo: 412)
            .whereField("year", isGreaterThan: 1960)
        XCTAssertEqual(containment(query), ["author": .string("Herbert"), "cover": .map(["color": .string("red")]),
                                            "inPrint": .boolean(true), "pages": .integer(412)])
    }

    func testWhatCannotBeMatchedByContainmentIsLeftToTheEvaluator() {
        let books = db.collection("books")
        XCTAssertNil(containment(books.whereField("n", isEqualTo: 0)), "-0.0 is stored tagged and equals 0")
        XCTAssertNil(containment(books.whereField("n", isEqualTo: Double.nan)))
        XCTAssertNil(containment(books.whereField("n", isEqualTo: NSNull())))
        XCTAssertNil(containment(books.whereField("tags", isEqualTo: ["a"])))
        XCTAssertNil(containment(books.whereField(FieldPath(["$price"]), isEqualTo: "x")), "a lone $ key is stored tagged")
        XCTAssertNil(containment(books.whereField(FieldPath.documentID(), isEqualTo: "dune")))
        XCTAssertNil(containment(books.whereFilter(Filter.orFilter([Filter.whereField("a", isEqualTo: "x"), Filter.whereField("b", isEqualTo: "y")]))))
        XCTAssertNil(containment(books.whereField("a", isNotEqualTo: "x")))
    }

    func testAnAndInsideTheQueryNarrowsToo() {
        let query = db.collection("books").whereFilter(Filter.andFilter([Filter.whereField("a", isEqualTo: "x"), Filter.whereField("b", isEqualTo: 2.5)]))
        XCTAssertEqual(containment(query), ["a": .string("x"), "b": .double(2.5)])
    }
}
