@testable import DocumentStore
import XCTest

/// `AggregateField` as a value: equal when it computes the same thing over the same field, as
/// Firebase's `isEqual:`, and named as Firebase names it in messages.
final class AggregateFieldTests: XCTestCase {
    func testEqualityAndHash() {
        XCTAssertEqual(AggregateField.count(), AggregateField.count())
        XCTAssertEqual(AggregateField.sum("baz"), AggregateField.sum(FieldPath(["baz"])))
        XCTAssertEqual(AggregateField.sum("baz").hashValue, AggregateField.sum(FieldPath(["baz"])).hashValue)
        XCTAssertEqual(AggregateField.average("a.b"), AggregateField.average(FieldPath(["a", "b"])))
        XCTAssertNotEqual(AggregateField.sum("a.b"), AggregateField.sum(FieldPath(["a.b"])))
        XCTAssertNotEqual(AggregateField.sum("baz"), AggregateField.average("baz"))
        XCTAssertNotEqual(AggregateField.sum("baz"), AggregateField.count())
        XCTAssertNotEqual(AggregateField.sum("baz"), AggregateField.sum("bar"))
        XCTAssertEqual(Set([AggregateField.sum("x"), .sum(FieldPath(["x"])), .average("x"), .count()]).count, 3)
    }

    func testDescriptionIsFirebasesName() {
        XCTAssertEqual(AggregateField.count().description, "count()")
        XCTAssertEqual(AggregateField.sum("metadata.pages").description, "sum(metadata.pages)")
        XCTAssertEqual(AggregateField.average("pages").description, "avg(pages)")
        XCTAssertEqual(AggregateField.sum(FieldPath(["a.b"])).description, "sum(`a.b`)")
    }

    func testAFieldPathIsCheckedWithoutFailingAtOnce() {
        XCTAssertNil(AggregateField.sum("a.b").invalid)
        XCTAssertNotNil(AggregateField.sum("a..b").invalid)
        XCTAssertNotNil(AggregateField.average("a]").invalid)
        XCTAssertNil(AggregateField.average(FieldPath(["a]"])).invalid, "a FieldPath's names may hold any character")
    }
}
