@testable import DocumentStore
import Foundation
import XCTest

/// `FieldValue.increment`, `minimum` and `maximum` as Firestore applies them: integers stay
/// integers and saturate, never trap, never round through a double.
final class IncrementTests: StoreTestCase {
    private var ref: DocumentReference { db.collection("counters").document("c") }

    private func field(_ name: String) throws -> FirestoreValue? {
        try storedFields("counters/c")[name]
    }

    func testIncrementingAMissingFieldByInt64MaxStoresInt64Max() throws {
        try ref.set(["x": 1])
        try ref.update(["y": FieldValue.increment(Int64.max)])
        XCTAssertEqual(try field("y"), .integer(.max))
        XCTAssertEqual(store.readFile("counters/c.json"), """
            {
              "x": 1,
              "y": 9223372036854775807
            }

            """)
    }

    func testIncrementingAFieldThatIsNoNumberStoresTheOperandItselfNegativeZeroIncluded() throws {
        try ref.set(["word": "x"])
        try ref.update(["missing": FieldValue.increment(-0.0), "word": FieldValue.increment(-0.0)])
        for name in ["missing", "word"] {
            guard case .double(let value)? = try field(name) else { return XCTFail("\(name): \(String(describing: try field(name)))") }
            XCTAssertEqual(value.sign, .minus, "\(name): -0.0, as Firestore sets the field to the operand")
        }
    }

    func testIntegerIncrementsSaturateAndStayIntegers() throws {
        try ref.set(["up": Int64.max, "down": Int64.min])
        try ref.update(["up": FieldValue.increment(Int64(1)), "down": FieldValue.increment(Int64(-1))])
        XCTAssertEqual(try field("up"), .integer(.max))
        XCTAssertEqual(try field("down"), .integer(.min))
        try ref.update(["up": FieldValue.increment(Int64.max), "down": FieldValue.increment(Int64.min)])
        XCTAssertEqual(try field("up"), .integer(.max))
        XCTAssertEqual(try field("down"), .integer(.min))
    }

    func testAnIntegerIncrementIsExactBeyondWhatADoubleHolds() throws {
        try ref.set(["n": 0])
        try ref.update(["n": FieldValue.increment(Int64(9_007_199_254_740_993))])
        XCTAssertEqual(try field("n"), .integer(9_007_199_254_740_993))
        XCTAssertTrue(store.readFile("counters/c.json")?.contains("\"n\": 9007199254740993\n") == true)
        try ref.update(["n": FieldValue.increment(Int64(-2))])
        XCTAssertEqual(try field("n"), .integer(9_007_199_254_740_991))
    }

    func testADoubleOnEitherSideMakesADouble() throws {
        try ref.set(["int": 1, "double": 1.5, "text": "x"])
        try ref.update(["int": FieldValue.increment(0.5), "double": FieldValue.increment(Int64(2)),
                        "text": FieldValue.increment(Int64(3)), "missing": FieldValue.increment(2.5)])
        XCTAssertEqual(try field("int"), .double(1.5))
        XCTAssertEqual(try field("double"), .double(3.5))
        XCTAssertEqual(try field("text"), .integer(3), "a field that is not a number counts as 0")
        XCTAssertEqual(try field("missing"), .double(2.5))
    }

    func testIncrementInSetDataAndMerge() throws {
        try ref.set(["n": FieldValue.increment(Int64(5))])
        XCTAssertEqual(try field("n"), .integer(5), "a new document's field becomes the operand")
        try ref.set(["n": FieldValue.increment(Int64(5))], merge: true)
        XCTAssertEqual(try field("n"), .integer(10))
    }

    func testMinimumAndMaximumOfIntegersAreExact() throws {
        try ref.set(["lo": 9_007_199_254_740_993, "hi": 9_007_199_254_740_993])
        try ref.update(["lo": FieldValue.minimum(Int64(9_007_199_254_740_992)), "hi": FieldValue.maximum(Int64(9_007_199_254_740_994))])
        XCTAssertEqual(try field("lo"), .integer(9_007_199_254_740_992))
        XCTAssertEqual(try field("hi"), .integer(9_007_199_254_740_994))
    }

    func testMinimumAndMaximumAcrossTypesKeepTheWinnersType() throws {
        try ref.set(["a": 3, "b": 3, "c": 2.5, "d": 7, "text": "x"])
        try ref.update(["a": FieldValue.minimum(2.5), "b": FieldValue.minimum(3.0), "c": FieldValue.maximum(Int64(4)),
                        "d": FieldValue.maximum(7.0), "text": FieldValue.minimum(Int64(1)), "none": FieldValue.maximum(1.5)])
        XCTAssertEqual(try field("a"), .double(2.5))
        XCTAssertEqual(try field("b"), .integer(3), "a tie keeps what is stored")
        XCTAssertEqual(try field("c"), .integer(4))
        XCTAssertEqual(try field("d"), .integer(7), "a tie keeps what is stored")
        XCTAssertEqual(try field("text"), .integer(1), "a field that is not a number becomes the operand")
        XCTAssertEqual(try field("none"), .double(1.5))
    }

    func testNaNWinsMinimumAndMaximum() throws {
        try ref.set(["a": 1, "b": Double.nan, "c": 5])
        try ref.update(["a": FieldValue.minimum(Double.nan), "b": FieldValue.maximum(Int64(9)), "c": FieldValue.maximum(Double.nan)])
        guard case .double(let a)? = try field("a"), case .double(let b)? = try field("b"), case .double(let c)? = try field("c") else {
            return XCTFail("expected doubles, got \(try storedFields("counters/c"))")
        }
        XCTAssertTrue(a.isNaN && b.isNaN && c.isNaN)
    }

    func testFieldConversionAppliesTheSameRulesDirectly() {
        XCTAssertEqual(FieldConversion.increment(nil, by: .integer(.max)), .integer(.max))
        XCTAssertEqual(FieldConversion.increment(.integer(.max), by: .integer(1)), .integer(.max))
        XCTAssertEqual(FieldConversion.increment(.integer(.min), by: .integer(-1)), .integer(.min))
        XCTAssertEqual(FieldConversion.increment(.string("x"), by: .double(-0.0)), .double(-0.0), "the operand itself, as the emulator stores it")
        XCTAssertEqual(FieldConversion.extreme(.double(-0.0), .integer(0), minimum: true), .double(-0.0))
        XCTAssertEqual(FieldConversion.extreme(.integer(0), .double(-0.0), minimum: false), .integer(0))
    }
}
