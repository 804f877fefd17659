import ShelfModels
import XCTest

/// A map that keeps a prefix of the rows in place (a slice read in id order) says what the
/// same map written out row by row says, composed too, and holds positions only for the rest.
final class RowMapTests: XCTestCase {
    /// A random change of `count` rows: a prefix kept in place, then rows kept or gone in
    /// order with new ones between them, then perhaps a tail that all moved alike.
    private func change(of count: Int, _ generator: inout SystemRandomNumberGenerator) -> RowMap {
        let kept = Int.random(in: 0...count, using: &generator)
        let tailStart = Bool.random(using: &generator) ? count : Int.random(in: kept...count, using: &generator)
        var rest: [Int32] = []
        var now = kept
        for _ in kept..<tailStart {
            now += Int.random(in: 0...2, using: &generator)  // new rows before this one
            if Bool.random(using: &generator) {
                rest.append(Int32(now))
                now += 1
            } else {
                rest.append(-1)
            }
        }
        if tailStart < count {
            now += Int.random(in: 0...2, using: &generator)
            return RowMap(kept: kept, rest: rest, tail: count - tailStart, shift: now - tailStart, count: now + count - tailStart)
        }
        return RowMap(kept: kept, rest: rest, count: now + Int.random(in: 0...2, using: &generator))
    }

    func testAKeptPrefixComposesAsThePositionsDo() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let first = change(of: Int.random(in: 0...30, using: &generator), &generator)
            let second = change(of: first.count, &generator)
            let composed = first.then(second)
            let expected = first.positions.map { $0 < 0 ? Int32(-1) : second.positions[Int($0)] }
            XCTAssertEqual(composed.positions, expected)
            XCTAssertEqual(composed.count, second.count)
            XCTAssertEqual(composed.keptInPlace, min(first.keptInPlace, second.keptInPlace))
            XCTAssertEqual(composed.positionsAfterKept.count, composed.tailStart - composed.keptInPlace)
            XCTAssertEqual(composed.earlierCount, first.earlierCount)
            let reached = Set(expected.filter { $0 >= 0 }.map(Int.init))
            XCTAssertEqual(composed.added, (0..<composed.count).filter { !reached.contains($0) })
        }
    }

    /// A change to the first of a million rows holds the few positions around it, whether it
    /// moved the rows after it or not, and so do many such changes composed.
    func testAChangeHoldsPositionsOnlyAroundIt() {
        let modified = RowMap(kept: 0, rest: [-1], tail: 999_999, shift: 0, count: 1_000_000)
        let inserted = RowMap(kept: 10, rest: [], tail: 1_000_000 - 10, shift: 1, count: 1_000_001)
        let composed = modified.then(inserted)
        XCTAssertEqual(composed.positionsAfterKept.count, 10, "rows 0 to 9: from 10 on, both tails")
        XCTAssertEqual(composed.position(of: 0), -1)
        XCTAssertEqual(composed.position(of: 5), 5)
        XCTAssertEqual(composed.position(of: 10), 11)
        XCTAssertEqual(composed.position(of: 999_999), 1_000_000)
        XCTAssertEqual(composed.added, [0, 10])
    }

    func testSlicesAppendedHoldNoPositions() {
        var map = RowMap.identity(1_000_000)
        for slice in 0..<120 {
            let before = 1_000_000 + slice * 8_192
            map = map.then(RowMap(kept: before, rest: [], count: before + 8_192))
        }
        XCTAssertEqual(map.keptInPlace, 1_000_000)
        XCTAssertTrue(map.positionsAfterKept.isEmpty)
        XCTAssertEqual(map.added.count, 120 * 8_192)
    }
}
