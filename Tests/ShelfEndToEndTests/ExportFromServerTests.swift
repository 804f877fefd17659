import Foundation
import XCTest

/// `shelf export` from a server reads each collection a page (a batch of 500) at a time, in id
/// order (a collection of ten million documents would not fit in memory at once): a
/// collection larger than a page arrives whole, every document once.
final class ExportFromServerTests: ScratchFolderTestCase {
    func testACollectionLargerThanAPageIsCopiedWholeFromAServer() throws {
        let cluster = try PostgresCluster.shared()
        let database = try cluster.makeDatabase()
        defer { cluster.dropDatabase(database) }
        let server = cluster.url(database: database).absoluteString
        let count = 2 * 500 + 37  // two pages (500 each) and part of another
        let generated = try run(["generate", "--data", server, "--count", String(count)], timeout: 300)
        XCTAssertEqual(generated.status, 0, generated.output)

        let copy = scratch.appendingPathComponent("copy")
        let export = try run(["export", "--data", server, "--to", copy.path], timeout: 300)
        XCTAssertEqual(export.status, 0, export.output)
        XCTAssertTrue(export.output.contains("exported 1,037 documents in 1 collection"), export.output)
        let files = try FileManager.default.contentsOfDirectory(atPath: copy.appendingPathComponent("books").path).filter { $0.hasSuffix(".json") }
        XCTAssertEqual(files.count, count, "every document once")
        for id in ["generated-0000000", "generated-0000499", "generated-0000500", "generated-0001036"] {
            XCTAssertTrue(files.contains(id + ".json"), "\(id) is there: the first, each side of the page's end, the last")
        }
        let last = try String(contentsOf: copy.appendingPathComponent("books/generated-0001036.json"), encoding: .utf8)
        XCTAssertTrue(last.contains(#""title": "The Distant Signal 11""#), "the last book's contents: \(last)")
    }
}
