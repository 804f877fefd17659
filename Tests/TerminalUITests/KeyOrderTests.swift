import XCTest
@testable import TerminalUI

/// The order of rows by their sort keys: what `s` and `S` show.
final class KeyOrderTests: XCTestCase {
    private func text(_ value: String) -> SortKey { SortKey(text: value) }

    func testTextsSortByAllTheirBytesNotOnlyTheFirstEight() {
        let keys: [SortKey?] = [text("The Silent River 2"), text("The Silent River 10"), text("The Silent"), text("the silent river 1")]
        XCTAssertEqual(KeyOrder.order(keys, ascending: true), [2, 3, 1, 0])
        XCTAssertEqual(KeyOrder.order(keys, ascending: false), [0, 1, 3, 2])
    }

    func testShortTextsThatShareTheirPrefixSortShorterFirst() {
        let keys: [SortKey?] = [text("abc"), text("ab"), text("abcdefgh"), text("abcdefg")]
        XCTAssertEqual(KeyOrder.order(keys, ascending: true), [1, 0, 3, 2])
    }

    func testNumbersSortByValueBeforeTexts() {
        let keys: [SortKey?] = [.number(10), text("a"), .number(-2.5), .number(3)]
        XCTAssertEqual(KeyOrder.order(keys, ascending: true), [2, 3, 0, 1])
    }

    func testTiesKeepTheRowsOrderInBothDirectionsAndRowsWithoutAKeyAreLast() {
        let keys: [SortKey?] = [nil, text("b"), text("a"), nil, text("b"), text("a")]
        XCTAssertEqual(KeyOrder.order(keys, ascending: true), [2, 5, 1, 4, 0, 3])
        XCTAssertEqual(KeyOrder.order(keys, ascending: false), [1, 4, 2, 5, 0, 3])
    }

    func testAccentsAndCaseDoNotChangeTheOrder() {
        let keys: [SortKey?] = [text("Zola"), text("Émile"), text("emile b")]
        XCTAssertEqual(KeyOrder.order(keys, ascending: true), [1, 2, 0])
    }

    /// `compareBytes` orders as the bytes do, a prefix before what extends it, high bytes after
    /// low ones (memcmp compares them unsigned), equal only for the same bytes.
    func testCompareBytesOrdersAsLexicographicOrder() {
        let samples: [[UInt8]] = [[], [0], [0, 0], [1], [255], [255, 0], Array("the silent river 1".utf8),
                                  Array("the silent river 10".utf8), Array("the silent river 2".utf8), [0x74, 0x68, 0xC3]]
        for x in samples {
            for y in samples {
                let expected = x.lexicographicallyPrecedes(y) ? -1 : (y.lexicographicallyPrecedes(x) ? 1 : 0)
                XCTAssertEqual(KeyOrder.compareBytes(x, y), expected, "\(x) vs \(y)")
            }
        }
    }
}
