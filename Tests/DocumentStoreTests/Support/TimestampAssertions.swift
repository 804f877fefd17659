@testable import DocumentStore
import XCTest

/// `actual` is `expected` or at most a microsecond earlier: a Date read from a timestamp and
/// written back, as Firebase's `Timestamp(date:)` truncates it.
func assertWithinAMicrosecondBefore(_ actual: Timestamp?, _ expected: Timestamp, file: StaticString = #filePath, line: UInt = #line) {
    guard let actual else { return XCTFail("no timestamp", file: file, line: line) }
    let difference = (expected.seconds - actual.seconds) * 1_000_000_000 + Int64(expected.nanoseconds) - Int64(actual.nanoseconds)
    XCTAssertTrue((0...1_000).contains(difference), "\(actual) is not \(expected) or a microsecond before", file: file, line: line)
}
