import Foundation
import XCTest

/// `shelf export --data A --to B`, as a user runs it: every document at every depth arrives
/// with the same typed fields, an unreadable one is named and left out (exit 1), and a
/// destination that holds data, or is the source, is refused untouched.
final class ExportCommandTests: XCTestCase {
    private var source: URL!
    private var scratch: URL!

    override func setUpWithError() throws {
        source = try temporaryDataCopy()
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("ShelfExportTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDown() {
        removeTemporaryCopy(source)
        try? FileManager.default.removeItem(at: scratch)
        super.tearDown()
    }

    private func write(_ relative: String, _ text: String, in folder: URL) throws {
        let file = folder.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
    }

    /// Every `.json` below `folder`, relative path to parsed content.
    private func documents(in folder: URL) throws -> [String: NSDictionary] {
        var result: [String: NSDictionary] = [:]
        let walker = FileManager.default.enumerator(atPath: folder.path)!
        while let relative = walker.nextObject() as? String {
            guard relative.hasSuffix(".json"), !relative.hasPrefix(".") else { continue }
            let data = try Data(contentsOf: folder.appendingPathComponent(relative))
            if let object = try? JSONSerialization.jsonObject(with: data) as? NSDictionary { result[relative] = object }
        }
        return result
    }

    func testEveryDocumentAtEveryDepthArrivesWithItsTypes() throws {
        let typed = #"{"stars": 5, "ratio": 1.0, "big": 9007199254740993, "when": {"$timestamp": "2024-01-02T03:04:05.123456Z"}, "# +
            #""by": {"$ref": "books/hitchhiker"}, "blob": {"$bytes": "AAEC"}, "at": {"$geopoint": {"latitude": 1.5, "longitude": -2}}}"#
        try write("books/hitchhiker/reviews/r1.json", typed, in: source)
        try write("books/no-such-book/notes/n1.json", #"{"n": 1}"#, in: source)  // under a missing document
        let destination = scratch.appendingPathComponent("copy")
        let result = try run(["export", "--data", source.path, "--to", destination.path])
        XCTAssertEqual(result.status, 0, result.output)
        let before = try documents(in: source), after = try documents(in: destination)
        XCTAssertEqual(before.count, try documentCount(in: source) + 2)
        XCTAssertEqual(after, before, "the same documents with the same fields")
        let review = try String(contentsOf: destination.appendingPathComponent("books/hitchhiker/reviews/r1.json"), encoding: .utf8)
        XCTAssertTrue(review.contains(#""ratio" : 1.0"#) || review.contains(#""ratio": 1.0"#), "a double stays a double: \(review)")
        XCTAssertTrue(result.output.contains("books/no-such-book/notes: 1 document"), result.output)
        XCTAssertTrue(result.output.contains("exported \(before.count) documents in 7 collections"), result.output)
        XCTAssertEqual(try run(["check", "--data", destination.path]).output, try run(["check", "--data", source.path]).output)
    }

    func testAnUnreadableDocumentIsNamedAndLeftOut() throws {
        try write("colors/broken.json", #"{"name": "#, in: source)
        let destination = scratch.appendingPathComponent("copy")
        let result = try run(["export", "--data", source.path, "--to", destination.path])
        XCTAssertEqual(result.status, 1, result.output)
        XCTAssertTrue(result.output.contains("colors/broken: cannot be read, left out"), result.output)
        XCTAssertTrue(result.output.contains("1 could not be read and were left out"), result.output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: destination.appendingPathComponent("colors/broken.json").path))
        XCTAssertEqual(try documents(in: destination), try documents(in: source), "every readable document (the broken one does not parse)")
    }

    func testADestinationWithDataOrTheSourceItselfIsRefusedUntouched() throws {
        try write("books/mine.json", #"{"title": "Mine"}"#, in: scratch.appendingPathComponent("full"))
        let full = try run(["export", "--data", source.path, "--to", scratch.appendingPathComponent("full").path])
        XCTAssertEqual(full.status, 1)
        XCTAssertTrue(full.output.contains("already holds collections (books): export into a new or empty folder"), full.output)
        XCTAssertEqual(try documents(in: scratch.appendingPathComponent("full")).count, 1)

        let same = try run(["export", "--data", source.path, "--to", source.path])
        XCTAssertEqual(same.status, 1)
        XCTAssertTrue(same.output.contains("--data and --to are the same store"), same.output)

        let nowhere = try run(["export", "--data", source.path, "--to", "/nonexistent-parent/copy"])
        XCTAssertEqual(nowhere.status, 1)
        XCTAssertTrue(nowhere.output.contains("its parent folder /nonexistent-parent does not exist"), nowhere.output)
    }
}
