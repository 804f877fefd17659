@testable import DocumentStore
import XCTest

/// `KeyOrder` sorts ids as `ExactID`'s `<` does, whatever prefix they share and wherever they
/// first differ: within the eight bytes after the shared prefix or past them; numeric ids
/// (`__id<n>__`) first, by their number, as Firestore's `BasePath::CompareSegments`.
final class IDOrderTests: XCTestCase {
    private func assertSortsAsExactID(_ keys: [ExactID], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(KeyOrder.permutation(keys).map { keys[$0] }, keys.sorted(), file: file, line: line)
    }

    func testIdsSharingAPrefixSortByTheBytesAfterIt() {
        let ids = (0..<300).map { ExactID("generated-\(String(($0 * 7919) % 1000, radix: 10))") }
        assertSortsAsExactID(ids.shuffled())
    }

    func testIdsThatDifferOnlyPastTheNextEightBytes() {
        let ids = ["shared-01234567a", "shared-01234567", "shared-01234567b", "shared-0123456", "shared-", "shared-01234567ab"]
        assertSortsAsExactID(ids.map { ExactID($0) }.shuffled())
    }

    func testBytesNotCharactersAndUndecodableNamesAfterTheirLookAlikes() {
        let ids = ["caf\u{E9}", "cafe\u{301}", "cafe", "caf", "caf\u{1}", "Caf", "\u{212A}", "K"].map { ExactID($0) }
            + [ExactID(undecodableFileName: "caf"), ExactID(undecodableFileName: #"caf\xE9"#), ExactID(#"caf\xE9"#)]
        assertSortsAsExactID(ids.shuffled())
        assertSortsAsExactID([])
        assertSortsAsExactID([ExactID("one")])
    }

    func testRandomIdsOfFewLettersSortAsExactID() {
        let alphabet = ["a", "b", "\u{1}", "\u{E9}", "e\u{301}", "Z", "0"]
        for _ in 0..<200 {
            let ids = (0..<Int.random(in: 0...60)).map { _ in ExactID((0..<Int.random(in: 0...14)).map { _ in alphabet.randomElement()! }.joined()) }
            assertSortsAsExactID(ids + [ExactID(undecodableFileName: "caf"), ExactID("caf"), ExactID("generated-0000010"), ExactID("generated-0000009")])
        }
    }

    func testNumericIdsSortFirstByTheirNumber() {
        let ids = ["__id10__", "__id-3__", "__id2__", "A", "__idx__", "__id9223372036854775807__", "0", "__id010__", "zebra"].map { ExactID($0) }
        let expected = ["__id-3__", "__id2__", "__id010__", "__id10__", "__id9223372036854775807__", "0", "A", "__idx__", "zebra"]
        XCTAssertEqual(ids.sorted().map(\.text), expected)
        assertSortsAsExactID(ids.shuffled())
    }

    func testAListLongEnoughToSortOnTwoCoresSortsAsExactID() {
        // Past 100,000 ids each half is sorted on its own thread and the halves merged: ids
        // that tie on the eight bytes after their shared prefix, numeric ones and duplicates.
        var ids = (0..<150_000).map { ExactID("generated-\(String(format: "%07d", ($0 * 7919) % 150_000))") }
        ids += (0..<2_000).map { ExactID("generated-0000001-long-tail-\($0)") } + [ExactID("__id7__"), ExactID("__id-1__"), ExactID("generated-0000002")]
        assertSortsAsExactID(ids.shuffled())
    }

    func testOnlyAnIntegerBetweenTheMarkersMakesANumericId() {
        XCTAssertEqual(IDOrder.number(of: "__id42__"), 42)
        XCTAssertEqual(IDOrder.number(of: "__id-42__"), -42)
        XCTAssertEqual(IDOrder.number(of: "__id-0__"), 0)
        XCTAssertEqual(IDOrder.number(of: "__id-9223372036854775808__"), .min)
        XCTAssertEqual(IDOrder.number(of: "__id9223372036854775807__"), .max)
        for id in ["__id__", "__id-__", "__id4_2__", "__id42_", "_id42__", "__id+42__", "__id99999999999999999999__", "__ID42__",
                   "__id9223372036854775808__", "__id-9223372036854775809__"] {
            XCTAssertNil(IDOrder.number(of: id), id)
        }
    }
}
