import Foundation
import XCTest

/// `shelf serve`'s options, refused before anything listens, each naming what was expected.
final class ServeCommandTests: XCTestCase {
    func testAPortOutsideTheRangeIsRefusedNamingIt() throws {
        // A negative number is the option's value, not taken for an option of its own.
        for port in ["-1", "99999"] {
            let result = try run(["serve", "--data", NSTemporaryDirectory(), "--port", port], timeout: 20)
            XCTAssertNotEqual(result.status, 0)
            XCTAssertTrue(result.output.contains("--port must be within 0...65535, got \(port)"), result.output)
        }
    }

    func testAnEmptyHostIsRefused() throws {
        let result = try run(["serve", "--data", NSTemporaryDirectory(), "--host", ""], timeout: 20)
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.output.contains("--host is empty"), result.output)
    }
}
