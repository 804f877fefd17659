import Foundation
import XCTest

/// `shelf check --data DIR`, run as a user runs it: its output and its exit status.
final class CheckCommandTests: XCTestCase {
    private var copies: [URL] = []

    override func tearDown() {
        copies.forEach(removeTemporaryCopy)
        copies = []
        super.tearDown()
    }

    private func dataCopy() throws -> URL {
        let copy = try temporaryDataCopy()
        copies.append(copy)
        return copy
    }

    private func write(_ text: String, to relative: String, in folder: URL) throws {
        try Data(text.utf8).write(to: folder.appendingPathComponent(relative))
    }

    private let invalidDataLine = #"document books/invalid-data, field numberOfPages: expected Int, found the string "twohundredfifty""#
    private let adaLine = "document programming-languages/ada, field language_name: expected String, but the field is missing"

    func testTheBinaryIsFound() throws {
        let binary = try shelfBinary()
        XCTAssertEqual(binary.lastPathComponent, "shelf")
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: binary.path))
    }

    func testTheDemoDataHasTwoProblemsAndExitsOne() throws {
        let data = try dataCopy()
        let count = try documentCount(in: data)
        XCTAssertGreaterThanOrEqual(count, 100)
        let result = try run(["check", "--data", data.path])
        XCTAssertEqual(result.output, """
            \(invalidDataLine)
            \(adaLine)
            checked \(count) documents in 5 collections: 2 problems

            """)
        XCTAssertEqual(result.status, 1)
    }

    func testAFixedCopyAllDecodesAndExitsZero() throws {
        let data = try dataCopy()
        try write(#"{"author": "Peter", "numberOfPages": 250, "title": "SwiftUI and Combine"}"#,
                  to: "books/invalid-data.json", in: data)
        try write(#"{"language_name": "Ada", "year": "1843-01-01T00:00:00Z"}"#,
                  to: "programming-languages/ada.json", in: data)
        let result = try run(["check", "--data", data.path])
        XCTAssertEqual(result.output, "checked \(try documentCount(in: data)) documents in 5 collections: all decode\n")
        XCTAssertEqual(result.status, 0)
    }

    func testANewBrokenDocumentIsReportedToo() throws {
        let data = try dataCopy()
        try write(##"{"name": "Bad", "color": "#12345"}"##, to: "colors/bad-colour.json", in: data)
        let result = try run(["check", "--data", data.path])
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertEqual(lines, [
            invalidDataLine,
            ##"document colors/bad-colour, field color: "#12345" is not a hex colour: expected #RGB, #RGBA, #RRGGBB or #RRGGBBAA, found 5 hex digits"##,
            adaLine,
            "checked \(try documentCount(in: data)) documents in 5 collections: 3 problems",
            "",
        ])
        XCTAssertEqual(result.status, 1)
    }

    func testCheckingLeavesTheDataAsItWas() throws {
        let data = try dataCopy()
        let before = try snapshot(of: data)
        _ = try run(["check", "--data", data.path])
        XCTAssertEqual(try snapshot(of: data), before)
    }

    func testAMissingParentFolderFailsNamingThePath() throws {
        let scratch = try dataCopy().deletingLastPathComponent()
        let missing = scratch.appendingPathComponent("no-such-parent/Data")
        let result = try run(["check", "--data", missing.path])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.output.contains(missing.path), result.output)
        XCTAssertTrue(result.output.contains(missing.deletingLastPathComponent().path), result.output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing.deletingLastPathComponent().path),
                       "nothing is created")
    }

    func testAFileInsteadOfAFolderFailsNamingThePath() throws {
        let data = try dataCopy()
        let file = data.appendingPathComponent("books/hitchhiker.json")
        let result = try run(["check", "--data", file.path])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.output.contains(file.path), result.output)
    }

    /// Every file under `folder` with its bytes.
    private func snapshot(of folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = try XCTUnwrap(FileManager.default.enumerator(atPath: folder.path))
        while let relative = enumerator.nextObject() as? String {
            let path = folder.appendingPathComponent(relative).path
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[relative] = FileManager.default.contents(atPath: path)
            }
        }
        return files
    }
}
