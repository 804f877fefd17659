import DocumentStore
import Foundation
import ShelfModels
@testable import TerminalUI
import XCTest

/// Values made per row follow their rows through changes, those before a kept prefix in
/// place, and only new rows are made.
@MainActor
final class RowCacheTests: XCTestCase {
    func testValuesFollowTheirRowsAndOnlyNewRowsAreMade() async {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let rows = ChangingRows()
            let cache = RowCache<Int>(placeholder: -1)
            let made = Locked(0)
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                for _ in 0..<Int.random(in: 1...3, using: &generator) { rows.change(&generator) }
                let budget = Int.random(in: 0...rows.rowCount + 1, using: &generator)
                let names = rows.names
                cache.prepare(rows, budget: budget) { made.withLock { $0 += 1 }; return names[$0] }
                let values = cache.values(of: rows) { made.withLock { $0 += 1 }; return names[$0] }
                XCTAssertEqual(values, rows.names)
                XCTAssertEqual(cache.missingCount(rows), 0)
            }
            XCTAssertEqual(made.withLock { $0 }, cache.madeCount)
            XCTAssertLessThanOrEqual(made.withLock { $0 }, rows.next, "each row's value made once")
        }
    }

    /// Many values are made on every core, each once, where its row is.
    func testManyValuesAreMadeOnEveryCoreEachOnce() async {
        let rows = ChangingRows()
        rows.names = Array(0..<10_000)
        let threads = Locked(Set<ObjectIdentifier>())
        let calls = Locked(0)
        let values = cache(rows, budget: 6_000, threads: threads, calls: calls)
        XCTAssertEqual(values.prefix(6_000).map { $0 }, Array(0..<6_000).map { $0 * 2 })
        XCTAssertEqual(calls.withLock { $0 }, 10_000)
        if ProcessInfo.processInfo.activeProcessorCount > 1 {
            XCTAssertGreaterThan(threads.withLock { $0.count }, 1, "made on more than one thread")
        }
    }

    private func cache(_ rows: ChangingRows, budget: Int, threads: Locked<Set<ObjectIdentifier>>, calls: Locked<Int>) -> [Int] {
        let cache = RowCache<Int>(placeholder: -1)
        let names = rows.names
        let make: @Sendable (Int) -> Int = { index in
            threads.withLock { _ = $0.insert(ObjectIdentifier(Thread.current)) }
            calls.withLock { $0 += 1 }
            // The first value waits (half a minute at most) for another thread to make one: a busy
            // machine's other core may otherwise join only once the first has made them all.
            let deadline = Date().addingTimeInterval(30)
            while index == 0 && ProcessInfo.processInfo.activeProcessorCount > 1 && threads.withLock({ $0.count }) < 2 && Date() < deadline {
                usleep(1_000)
            }
            return names[index] * 2
        }
        XCTAssertEqual(cache.prepare(rows, budget: budget, make: make), budget)
        XCTAssertEqual(cache.missingCount(rows), rows.rowCount - budget)
        let values = cache.values(of: rows, make: make)
        XCTAssertEqual(values, names.map { $0 * 2 })
        XCTAssertEqual(cache.madeCount, rows.rowCount)
        return values
    }
}
