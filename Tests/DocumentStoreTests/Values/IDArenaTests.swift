@testable import DocumentStore
import Foundation
import XCTest

/// The ids of a folder's listing keep their bytes in shared blocks, and are the same ids as
/// those made one by one: equal, hashed and ordered alike.
final class IDArenaTests: XCTestCase {
    func testIDsInSharedBlocksEqualHashAndOrderAsIDsOfTheirOwn() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = ["a", "Z", "0", "9", "_", "-", "é", "\u{301}", "📚", "__id", "__"]
        var texts: [String] = (0..<2_000).map { _ in
            (0..<Int.random(in: 0...30, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }.joined()
        }
        texts += ["__id7__", "__id-3__", "__id12__", "", "caf\u{E9}", "cafe\u{301}", String(repeating: "x", count: 5_000)]
        var arena = IDArena(blockSize: 256)
        let shared = texts.map { text in
            var text = text
            return text.withUTF8 { arena.id($0) }
        }
        let own = texts.map { ExactID($0) }
        XCTAssertEqual(shared, own)
        XCTAssertEqual(shared.map(\.text), texts)
        XCTAssertEqual(shared.map { $0.withTextUTF8 { Array($0) } }, texts.map { Array($0.utf8) })
        XCTAssertEqual(shared.map(\.hashValue), own.map(\.hashValue))
        XCTAssertEqual(shared.sorted(), own.sorted())
        XCTAssertEqual(shared.sorted().map(\.text), texts.sorted { IDOrder.compare($0, $1) < 0 })
        XCTAssertEqual(Set(shared + own).count, Set(texts.map { Array($0.utf8) }).count)
    }

    func testAnUndecodableNameStaysApartFromItsLookAlike() {
        let escaped = ExactID(undecodableFileName: "caf\\xE9")
        XCTAssertTrue(escaped.isUndecodableFileName)
        XCTAssertEqual(escaped.text, "caf\\xE9")
        XCTAssertEqual(escaped.withTextUTF8 { Array($0) }, Array("caf\\xE9".utf8), "its text's bytes, not the name's")
        XCTAssertNotEqual(escaped, ExactID("caf\\xE9"))
        XCTAssertFalse(ExactID("caf\\xE9").isUndecodableFileName)
        XCTAssertLessThan(ExactID("caf\\xE9"), escaped)
    }

    /// A thousand files' ids in a few blocks of 4 KiB, not a string object each.
    func testAFoldersListingKeepsItsIDsInAFewBlocks() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shelf-ids-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for index in 0..<1_000 {
            _ = FileManager.default.createFile(atPath: folder.appendingPathComponent(String(format: "generated-%07d.json", index)).path, contents: Data("{}".utf8))
        }
        let fd = open(folder.path, O_RDONLY | O_DIRECTORY)
        defer { close(fd) }
        let ids = DocumentFileName.documents(in: fd).map(\.id)
        XCTAssertEqual(Set(ids.map(\.text)), Set((0..<1_000).map { String(format: "generated-%07d", $0) }))
        XCTAssertLessThanOrEqual(Set(ids.map(\.blockIdentifier)).count, 1_000 * 17 / 4_000 + 1)
    }
}
