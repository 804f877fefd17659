@testable import DocumentStore
import Foundation
import XCTest

/// `Timestamp(date:)` as Firebase's `timestampWithDate:` (FIRTimestamp.m): the interval since
/// 1970 split by `modf`, a negative fraction borrowing a second, the nanoseconds truncated.
final class TimestampFromDateTests: XCTestCase {
    /// Firebase's own FIRTimestampTest `testFromDate`.
    func testFirebasesFromDate() {
        let timestamp = Timestamp(date: Date(timeIntervalSinceReferenceDate: 1.5))
        XCTAssertEqual(timestamp, Timestamp(seconds: 978_307_200 + 1, nanoseconds: 500_000_000))
    }

    /// 1_700_000_051.123 is 1_700_000_051.12299990654 as a double: Firebase keeps …906, where
    /// rounding gave …907 (issue 51, 9).
    func testTheNanosecondsAreTruncatedNotRounded() {
        let timestamp = Timestamp(date: Date(timeIntervalSince1970: 1_700_000_051.123))
        XCTAssertEqual(timestamp, Timestamp(seconds: 1_700_000_051, nanoseconds: 122_999_906))
    }

    /// Before 1970 the fraction counts forward from the earlier second, still truncated.
    func testANegativeIntervalBorrowsASecondAndTruncates() {
        // -0.2999999523162842 s since 1970 once the reference date is added back.
        let justBefore = Timestamp(date: Date(timeIntervalSinceReferenceDate: -978_307_200.3))
        XCTAssertEqual(justBefore, Timestamp(seconds: -1, nanoseconds: 700_000_047))
        let dayBefore = Timestamp(date: Date(timeIntervalSinceReferenceDate: -978_393_600.25))
        XCTAssertEqual(dayBefore, Timestamp(seconds: -86_401, nanoseconds: 750_000_000))
        XCTAssertEqual(Timestamp(date: Date(timeIntervalSince1970: -2)), Timestamp(seconds: -2, nanoseconds: 0))
    }

    /// A whole number of seconds and exact fractions come back as they were.
    func testExactDatesRoundTrip() {
        for interval in [0, 1_410_265_800.5, -0.5, 1_700_000_000.25] {
            let date = Date(timeIntervalSince1970: interval)
            XCTAssertEqual(Timestamp(date: date).dateValue(), date, "\(interval)")
        }
    }
}
