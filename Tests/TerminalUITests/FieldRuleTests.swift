@testable import TerminalUI
import XCTest

/// What a form's rules say about a text they do not accept.
final class FieldRuleTests: XCTestCase {
    /// A number beyond what a document can hold is "too large", with the largest allowed;
    /// only text that is no number at all is "not a whole number".
    func testAWholeNumberTooLargeSaysSoAndGivesTheLargestAllowed() {
        let check = FieldRule.wholeNumber.check
        XCTAssertEqual(check("99999999999999999999"),
                       "too large: the largest allowed is 9223372036854775807, found 99999999999999999999")
        XCTAssertEqual(check(" +9223372036854775808 "),
                       "too large: the largest allowed is 9223372036854775807, found +9223372036854775808")
        XCTAssertNil(check("9223372036854775807"))
        XCTAssertNil(check(" 0 "))
        XCTAssertEqual(check("-5"), "expected a whole number ≥ 0, found -5")
        XCTAssertEqual(check("-99999999999999999999"), "expected a whole number ≥ 0, found -99999999999999999999")
        XCTAssertEqual(check("12a"), "expected a whole number ≥ 0, found \"12a\"")
    }
}
