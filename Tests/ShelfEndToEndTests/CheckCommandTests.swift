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

    /// A mistyped folder is not created and checked as empty: every command but the app says
    /// it is missing and fails.
    func testAMissingDataFolderIsAnErrorForEveryCommandAndNothingIsCreated() throws {
        let scratch = try dataCopy().deletingLastPathComponent()
        let missing = scratch.appendingPathComponent("Dtaa")
        for command in [["check"], ["list"], ["export", "--to", scratch.appendingPathComponent("copy").path]] {
            let result = try run(command + ["--data", missing.path])
            XCTAssertEqual(result.status, 1, result.output)
            XCTAssertTrue(result.output.contains("the data folder \(missing.path) does not exist"), result.output)
            XCTAssertFalse(FileManager.default.fileExists(atPath: missing.path), "\(command[0]) creates nothing")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: scratch.appendingPathComponent("copy").path), "nor export's destination")
    }

    /// The summary counts the collections that are there.
    func testTheCollectionCountIsTheCollectionsThatExist() throws {
        let data = try dataCopy()
        for name in ["colors", "programming-languages", "locations", "articles"] {
            try FileManager.default.removeItem(at: data.appendingPathComponent(name))
        }
        try write(#"{"author": "Peter", "numberOfPages": 250, "title": "SwiftUI and Combine"}"#, to: "books/invalid-data.json", in: data)
        let result = try run(["check", "--data", data.path])
        XCTAssertEqual(result.output, "checked \(try documentCount(in: data, collections: ["books"])) documents in 1 collection: all decode\n")
        XCTAssertEqual(result.status, 0)
    }

    /// A temporary file a killed writer left (older than a minute) is removed and named by
    /// both check and list, in a folder Shelf never wrote to as well.
    func testStaleTemporaryFilesAreRemovedAndNamedByCheckAndList() throws {
        for command in ["check", "list"] {
            let data = try dataCopy()
            let stale = data.appendingPathComponent("books/.shelf-x.tmp")
            let young = data.appendingPathComponent("colors/.shelf-y.tmp")
            try write(#"{"half": "#, to: "books/.shelf-x.tmp", in: data)
            try write(#"{"half": "#, to: "colors/.shelf-y.tmp", in: data)
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -600)], ofItemAtPath: stale.path)
            let result = try run([command, "--data", data.path])
            XCTAssertTrue(result.output.contains("removed 1 temporary file left by writers that were stopped midway (older than a minute; no document lost): books/.shelf-x.tmp"),
                          "\(command): \(result.output)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: stale.path), command)
            XCTAssertTrue(FileManager.default.fileExists(atPath: young.path), "\(command): a writer may still be at it")
        }
    }

    /// Subcollections are checked (as raw documents, having no model) and counted.
    func testSubcollectionsAreCheckedAsRawDocumentsAndCounted() throws {
        let data = try dataCopy()
        let count = try documentCount(in: data)
        let reviews = data.appendingPathComponent("books/hitchhiker/reviews")
        try FileManager.default.createDirectory(at: reviews, withIntermediateDirectories: true)
        try write(#"{"stars": 5}"#, to: "books/hitchhiker/reviews/r1.json", in: data)
        try write(#"{"stars": "#, to: "books/hitchhiker/reviews/r2.json", in: data)
        let result = try run(["check", "--data", data.path])
        let lines = result.output.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 4, result.output)
        XCTAssertTrue(lines.contains { $0.hasPrefix("document books/hitchhiker/reviews/r2 ") }, result.output)
        XCTAssertEqual(lines.last, "checked \(count + 2) documents in 6 collections (1 without a model, read as raw documents: books/hitchhiker/reviews): 3 problems")
        XCTAssertEqual(result.status, 1)
    }

    /// A collection folder holding files but no `*.json` says what a document is.
    func testAFolderOfOtherFilesSaysOnlyJSONFilesAreDocuments() throws {
        let data = try dataCopy()
        try FileManager.default.createDirectory(at: data.appendingPathComponent("notes"), withIntermediateDirectories: true)
        try write("hello", to: "notes/a.txt", in: data)
        let check = try run(["check", "--data", data.path])
        XCTAssertTrue(check.output.contains("notes: no documents, 1 other file (only *.json files are documents)\n"), check.output)
        let list = try run(["list", "--data", data.path])
        XCTAssertTrue(list.output.contains("notes (0 documents, 1 other file: only *.json files are documents)\n"), list.output)
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
