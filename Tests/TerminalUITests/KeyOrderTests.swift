import ShelfModels
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

    /// Numbers sort by their bits as one unsigned number: negatives, zeros and infinities in
    /// their order, -0 tied with 0 (kept in row order), NaN before every other number.
    func testNumbersOfEverySignAndSizeSortAsFirestoreOrdersThem() {
        let numbers: [Double] = [1, -0.0, .infinity, -1e300, .nan, 0, -.infinity, 2.5e-308, -2.5e-308, 7]
        let order = KeyOrder.order(numbers.map { .number($0) }, ascending: true)
        XCTAssertEqual(order, [4, 6, 3, 8, 1, 5, 7, 0, 9, 2])
        XCTAssertEqual(KeyOrder.order(numbers.map { .number($0) }, ascending: false), [2, 9, 0, 7, 1, 5, 8, 3, 6, 4])
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

    /// Keys of up to 23 bytes are held in the key, longer ones in an array: each kind, and one
    /// against the other, orders as the folded bytes do, zeros and prefixes included.
    func testShortAndLongTextKeysOrderAsTheirBytes() {
        let a = UInt8(ascii: "a")
        let samples: [[UInt8]] = [[], [0], [0, 0], [1], [255], [255, 0], [UInt8](repeating: a, count: 22) + [0],
                                  [UInt8](repeating: a, count: 23), [UInt8](repeating: a, count: 24), [UInt8](repeating: a, count: 23) + [0],
                                  Array("the silent river 1".utf8), Array("the silent river 10".utf8), Array("the silent river 999999".utf8),
                                  Array("the silent river 1000000 and after".utf8), [0x74, 0x68, 0xC3]]
        for x in samples {
            if x.count <= 23 { XCTAssertEqual(ShortText(x)?.bytes, x) } else { XCTAssertNil(ShortText(x)) }
            for y in samples {
                let expected = x.lexicographicallyPrecedes(y) ? -1 : (y.lexicographicallyPrecedes(x) ? 1 : 0)
                XCTAssertEqual(KeyOrder.compareTexts(SortKey(folded: x), SortKey(folded: y)), expected, "\(x) vs \(y)")
            }
        }
        let keys = samples.map { SortKey(folded: $0) as SortKey? }
        let sorted = samples.indices.sorted { samples[$0].lexicographicallyPrecedes(samples[$1]) }
        XCTAssertEqual(KeyOrder.order(keys, ascending: true), sorted)
        XCTAssertEqual(KeyOrder.order(keys, ascending: false), sorted.reversed())
    }

    /// A title of 23 bytes or fewer is its key's slot alone (32 bytes), no block of its own.
    func testATitlesKeyIsHeldInItsSlot() {
        XCTAssertLessThanOrEqual(MemoryLayout<SortKey?>.stride, 32)
        guard case .short = SortKey(text: "The Silent River 999999") else { return XCTFail("a title of 23 bytes is held in its key") }
        guard case .text = SortKey(text: "The Silent River 1000000") else { return XCTFail("a title of 24 bytes is kept in an array") }
    }

    /// An order carried through a change (rows removed, replaced and added, as a listener's
    /// snapshots change them) is the order sorting the new rows from scratch gives, in both
    /// directions, with ties, numbers, texts and rows without a key among them.
    func testAnOrderFollowedThroughAChangeIsTheOrderSortedAfresh() {
        var generator = SystemRandomNumberGenerator()
        let pool: [SortKey?] = [nil, .number(1), .number(-3), text("a"), text("b"), text("The Silent River 10"), text("The Silent River 2")]
        for _ in 0..<300 {
            let before = (0..<Int.random(in: 0...40, using: &generator)).map { _ in pool.randomElement()! }
            // Each old row is kept (in order) or gone; new rows come in between.
            var positions: [Int32] = []
            var after: [SortKey?] = []
            for key in before {
                while Int.random(in: 0..<4, using: &generator) == 0 { after.append(pool.randomElement()!) }
                if Bool.random(using: &generator) {
                    positions.append(Int32(after.count))
                    after.append(key)
                } else {
                    positions.append(-1)
                }
            }
            while Bool.random(using: &generator) { after.append(pool.randomElement()!) }
            let map = RowMap(positions: positions, count: after.count)
            for ascending in [true, false] {
                let followed = KeyOrder.order(following: KeyOrder.order(before, ascending: ascending), through: map, keys: after, ascending: ascending)
                XCTAssertEqual(followed, KeyOrder.order(after, ascending: ascending), "\(before) -> \(after) by \(positions)")
            }
        }
    }

    func testAnOrderReversedIsTheOrderSortedTheOtherWay() {
        var generator = SystemRandomNumberGenerator()
        let pool: [SortKey?] = [nil, .number(1), .number(-3), .number(1.5), text("a"), text("b"), text("The Silent River 10"),
                                text("The Silent River 2"), text("the silent river 2")]
        for _ in 0..<300 {
            let keys = (0..<Int.random(in: 0...40, using: &generator)).map { _ in pool.randomElement()! }
            for ascending in [true, false] {
                XCTAssertEqual(KeyOrder.reversed(KeyOrder.order(keys, ascending: ascending), keys: keys),
                               KeyOrder.order(keys, ascending: !ascending), "\(keys)")
            }
        }
    }

    func testASortOnEveryCoreIsTheSortOnOne() {
        var generator = SystemRandomNumberGenerator()
        let pool: [SortKey?] = [nil, .number(2), .number(-1), text("x"), text("The Silent River 10"), text("The Silent River 9")]
        for _ in 0..<200 {
            let keys = (0..<Int.random(in: 0...60, using: &generator)).map { _ in pool.randomElement()! }
            for ascending in [true, false] {
                XCTAssertEqual(KeyOrder.order(keys, ascending: ascending, parallelPast: 2),
                               KeyOrder.order(keys, ascending: ascending, parallelPast: .max), "\(keys)")
            }
        }
    }
}
