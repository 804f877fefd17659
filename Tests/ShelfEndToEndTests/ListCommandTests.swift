import Foundation
import XCTest

/// `shelf list` and `shelf check` print what files hold safely: control characters escaped,
/// long values shortened.
final class ListCommandTests: XCTestCase {
    private var data: URL!

    override func setUpWithError() throws {
        data = try temporaryDataCopy()
    }

    override func tearDown() {
        if let data { removeTemporaryCopy(data) }
        super.tearDown()
    }

    func testControlCharactersInNamesAreEscaped() throws {
        try Data(##"{"name": "x", "color": "#000000"}"##.utf8).write(to: data.appendingPathComponent("colors/evil\u{1B}[2Jname.json"))
        let result = try run(["list", "--data", data.path])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertFalse(result.output.contains("\u{1B}"), "no raw escape reaches the terminal")
        XCTAssertTrue(result.output.contains(#"  evil\x1b[2Jname"#), result.output)
    }

    func testALongNumberIsNotEchoedWholeByCheck() throws {
        let digits = String(repeating: "7", count: 5_000)
        try Data(#"{"author": "A", "numberOfPages": \#(digits), "title": "T"}"#.utf8).write(to: data.appendingPathComponent("books/long-number.json"))
        let result = try run(["check", "--data", data.path])
        XCTAssertEqual(result.status, 1)
        let line = try XCTUnwrap(result.output.split(separator: "\n").first { $0.contains("books/long-number") })
        XCTAssertLessThan(line.count, 400, "the number is not echoed whole: \(line)")
    }
}
