import TerminalKit
import TerminalUI
import XCTest

final class ThousandsSeparatedTests: XCTestCase {
    func testACountHasACommaBetweenEachGroupOfThreeDigits() {
        XCTAssertEqual(0.thousandsSeparated, "0")
        XCTAssertEqual(7.thousandsSeparated, "7")
        XCTAssertEqual(999.thousandsSeparated, "999")
        XCTAssertEqual(1_000.thousandsSeparated, "1,000")
        XCTAssertEqual(45_056.thousandsSeparated, "45,056")
        XCTAssertEqual(100_000.thousandsSeparated, "100,000")
        XCTAssertEqual(1_234_567.thousandsSeparated, "1,234,567")
        XCTAssertEqual(10_000_000.thousandsSeparated, "10,000,000")
    }

    func testANegativeNumberKeepsItsSignBeforeTheGroups() {
        XCTAssertEqual((-1).thousandsSeparated, "-1")
        XCTAssertEqual((-1_234).thousandsSeparated, "-1,234")
        XCTAssertEqual(Int.min.thousandsSeparated, "-9,223,372,036,854,775,808")
        XCTAssertEqual(Int.max.thousandsSeparated, "9,223,372,036,854,775,807")
    }

    func testItIsWhatFormattedGivesInUSEnglish() {
        for number in [0, 5, 12, 123, 1_234, 12_345, 999_999, 1_000_000, -42_000, 9_876_543_210] {
            XCTAssertEqual(number.thousandsSeparated, number.formatted(.number.locale(Locale(identifier: "en_US"))), "\(number)")
        }
    }
}
