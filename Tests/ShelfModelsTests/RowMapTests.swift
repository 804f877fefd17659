import ShelfModels
import XCTest

/// A map that keeps a prefix of the rows in place (a slice read in id order) says what the
/// same map written out row by row says, composed too, and holds positions only for the rest.
final class RowMapTests: XCTestCase {
    /// A random change of `count` rows: a prefix kept in place, then rows kept or gone in
    /// order with new ones between them.
    private func change(of count: Int, _ generator: inout SystemRandomNumberGenerator) -> RowMap {
        let kept = Int.random(in: 0...count, using: &generator)
        var rest: [Int32] = []
        var now = kept
        for _ in kept..<count {
            now += Int.random(in: 0...2, using: &generator)  // new rows before this one
            if Bool.random(using: &generator) {
                rest.append(Int32(now))
                now += 1
            } else {
                rest.append(-1)
            }
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
            XCTAssertEqual(composed.positionsAfterKept.count, composed.earlierCount - composed.keptInPlace)
            let reached = Set(expected.filter { $0 >= 0 }.map(Int.init))
            XCTAssertEqual(composed.added, (0..<composed.count).filter { !reached.contains($0) })
        }
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
