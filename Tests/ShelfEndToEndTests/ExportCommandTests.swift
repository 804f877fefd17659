import Foundation
import XCTest

/// `shelf export --data A --to B`, as a user runs it: every document at every depth arrives
/// with the same typed fields, an unreadable one is named and left out (exit 1), and a
/// destination that holds data, or is the source, is refused untouched.
final class ExportCommandTests: ScratchFolderTestCase {
    private var source: URL!

    override func setUpWithError() throws {
        try super.setUpWithError()
        source = try temporaryDataCopy()
    }

    override func tearDown() {
        removeTemporaryCopy(source)
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

    func testACollectionOfManyBatchesArrivesWholeWithAnUnreadableOneAmongThem() throws {
        let generated = try run(["generate", "--data", source.path, "--count", "1037"])
        XCTAssertEqual(generated.status, 0, generated.output)
        try write("books/generated-0000600x.json", "not json", in: source)  // in the middle of the second batch
        let destination = scratch.appendingPathComponent("copy")
        let result = try run(["export", "--data", source.path, "--to", destination.path])
        XCTAssertEqual(result.status, 1, result.output)
        XCTAssertTrue(result.output.contains("books/generated-0000600x: cannot be read, left out"), result.output)
        XCTAssertEqual(try documents(in: destination), try documents(in: source), "every readable document, once")
        XCTAssertTrue(try documents(in: destination).keys.contains("books/generated-0001036.json"), "the last batch too")
    }

    func testAnUnreadableDocumentIsNamedAndLeftOut() throws {
        try write("colors/broken.json", #"{"name": "#, in: source)
        let destination = scratch.appendingPathComponent("copy")
        let result = try run(["export", "--data", source.path, "--to", destination.path])
        XCTAssertEqual(result.status, 1, result.output)
        XCTAssertTrue(result.output.contains("colors/broken: cannot be read, left out"), result.output)
        XCTAssertTrue(result.output.contains("1 could not be read and was left out"), result.output)
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

    /// A destination inside the source would be copied into itself again and again; a source
    /// inside the destination, or the same folder through a symbolic link, overlaps too. Real
    /// paths are compared folder by folder, so a sibling whose name starts the same is fine.
    func testAFolderInsideTheOtherOrTheSameThroughALinkIsRefusedUntouched() throws {
        let inside = source.appendingPathComponent("books/sub")
        let intoItself = try run(["export", "--data", source.path, "--to", inside.path], timeout: 20)
        XCTAssertEqual(intoItself.status, 1, intoItself.output)
        XCTAssertTrue(intoItself.output.contains("--to \(inside.path) is inside --data \(source.path)"), intoItself.output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: inside.path), "nothing is created")

        let around = source.deletingLastPathComponent()
        let aroundIt = try run(["export", "--data", source.path, "--to", around.path], timeout: 20)
        XCTAssertEqual(aroundIt.status, 1, aroundIt.output)
        XCTAssertTrue(aroundIt.output.contains("--data \(source.path) is inside --to \(around.path)"), aroundIt.output)

        let link = scratch.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: source)
        let throughLink = try run(["export", "--data", source.path, "--to", link.appendingPathComponent("books/sub").path], timeout: 20)
        XCTAssertEqual(throughLink.status, 1, throughLink.output)
        XCTAssertTrue(throughLink.output.contains("is inside --data \(source.path)"), throughLink.output)
        let sameThroughLink = try run(["export", "--data", link.path, "--to", source.path], timeout: 20)
        XCTAssertEqual(sameThroughLink.status, 1, sameThroughLink.output)
        XCTAssertTrue(sameThroughLink.output.contains("--data and --to are the same store"), sameThroughLink.output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: inside.path), "nothing is created")

        let sibling = URL(fileURLWithPath: source.path + "Copy")  // /x/Data and /x/DataCopy: apart
        let apart = try run(["export", "--data", source.path, "--to", sibling.path], timeout: 20)
        XCTAssertEqual(apart.status, 0, apart.output)
        XCTAssertEqual(try documents(in: sibling), try documents(in: source))
    }

    /// The store reads maps nested up to 100 levels but writes at most 20 (Firestore's limit):
    /// such a document is named, left out, and the copy goes on (exit 1).
    func testADocumentNestedTooDeepToWriteIsNamedLeftOutAndTheRestCopied() throws {
        let deep = String(repeating: #"{"a": "#, count: 30) + "1" + String(repeating: "}", count: 30)
        try write("misc/deep30.json", deep, in: source)
        try write("misc/plain.json", #"{"n": 1}"#, in: source)
        try write("zebras/z1.json", #"{"n": 2}"#, in: source)  // a collection after it
        let destination = scratch.appendingPathComponent("copy")
        let result = try run(["export", "--data", source.path, "--to", destination.path])
        XCTAssertEqual(result.status, 1, result.output)
        let line = try XCTUnwrap(result.output.split(separator: "\n").first { $0.hasPrefix("misc/deep30: cannot be copied, left out: ") }, result.output)
        XCTAssertTrue(line.contains("nested at most 20 levels deep"), String(line))
        XCTAssertTrue(result.output.contains("1 could not be copied and was left out"), result.output)
        var expected = try documents(in: source)
        expected["misc/deep30.json"] = nil
        XCTAssertEqual(try documents(in: destination), expected, "every other document, the rest of its batch and the collections after it")
    }
}
