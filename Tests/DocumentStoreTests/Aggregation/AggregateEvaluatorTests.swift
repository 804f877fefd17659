@testable import DocumentStore
import XCTest

/// The evaluator and its running sum, without files: Firestore's rules for counts, sums and
/// averages over values.
final class AggregateEvaluatorTests: XCTestCase {
    private let x = FieldPath(["x"])
    private let y = FieldPath(["y"])

    private func sum(_ values: [FirestoreValue]) -> NumericSum {
        var sum = NumericSum()
        for value in values { sum.add(value) }
        return sum
    }

    func testIntegersStayExactThroughOverflowOnTheWay() {
        XCTAssertEqual(sum([.integer(.max), .integer(1), .integer(-101)]).total, .integer(.max - 100))
        XCTAssertEqual(sum([.integer(.min), .integer(-1), .integer(1)]).total, .integer(.min))
        XCTAssertEqual(sum([.integer(.max), .integer(.max), .integer(.min), .integer(.min)]).total, .integer(-2))
        XCTAssertEqual(sum([.integer(.max), .integer(1)]).total, .double(0x1p63))
        XCTAssertEqual(sum([.integer(.min), .integer(.min)]).total, .double(-0x1p64))
    }

    func testEmptySumIsIntegerZeroAndEmptyAverageIsNull() {
        XCTAssertEqual(sum([]).total, .integer(0))
        XCTAssertEqual(sum([]).average, .null)
        XCTAssertEqual(sum([.string("1"), .null, .boolean(true)]).total, .integer(0))
        XCTAssertEqual(sum([.string("1"), .null, .boolean(true)]).average, .null)
    }

    func testDoublesFollowIEEE754() {
        XCTAssertEqual(sum([.double(0.1), .double(0.2)]).total, .double(0.1 + 0.2))
        XCTAssertEqual(sum([.double(.nan), .integer(1)]).total, .double(.nan))
        XCTAssertEqual(sum([.double(.infinity), .integer(.max), .integer(.max)]).total, .double(.infinity))
        XCTAssertEqual(sum([.integer(3), .double(0.5)]).average, .double(1.75))
        XCTAssertEqual(sum([.integer(2), .integer(4)]).average, .double(3))
    }

    /// As Google's emulator adds doubles (measured): with Kahan's compensation, from +0.0, an
    /// infinity kept where the compensation alone turns NaN.
    func testDoublesAddUpWithCompensationAsTheEmulatorAddsThem() {
        XCTAssertEqual(sum([.double(0.1), .double(0.2), .double(0.3)]).total, .double(0.6))
        XCTAssertEqual(sum([.double(1e16), .double(1), .double(1), .double(1), .double(1)]).total, .double(1.0000000000000004e16))
        guard case .double(let zero) = sum([.double(-0.0), .double(-0.0)]).total else { return XCTFail("a double") }
        XCTAssertEqual(zero.sign, .plus, "a sum of -0.0 alone is 0.0")
        XCTAssertEqual(sum([.double(.infinity), .double(1)]).total, .double(.infinity))
        XCTAssertEqual(sum([.double(1e308), .double(1e308), .double(-1e308)]).total, .double(.infinity))
        XCTAssertEqual(sum([.double(.infinity), .double(-.infinity)]).total, .double(.nan))
        XCTAssertEqual(sum([.double(0.1), .integer(1), .double(0.2)]).total, .double(1.3), "integers apart, exactly")
        XCTAssertEqual(sum([.double(0.1), .double(0.2), .double(0.3)]).average, .double(0.6 / 3))
    }

    func testOnlyDocumentsWithEveryAggregatedFieldTakePart() {
        let documents: [[FieldPath: FirestoreValue]] = [
            [x: .integer(1), y: .integer(10)],
            [x: .integer(2)],
            [y: .string("no")],
            [x: .null, y: .double(0.5)],
            [:],
        ]
        let both = AggregateEvaluator.evaluate([.count, .sum(x), .average(y)], over: documents)
        XCTAssertEqual(both[.count], .integer(2))
        XCTAssertEqual(both[.sum(x)], .integer(1))
        XCTAssertEqual(both[.average(y)], .double(5.25))
        let xOnly = AggregateEvaluator.evaluate([.count, .sum(x)], over: documents)
        XCTAssertEqual(xOnly[.count], .integer(3))
        XCTAssertEqual(xOnly[.sum(x)], .integer(3))
        let countOnly = AggregateEvaluator.evaluate([.count], over: documents)
        XCTAssertEqual(countOnly[.count], .integer(5))
    }
}
