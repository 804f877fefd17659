import DocumentStore
import Foundation
import ShelfModels
@testable import TerminalUI
import XCTest

/// Values made per row follow their rows through changes, those before a kept prefix in
/// place, and only new rows are made.
@MainActor
final class RowCacheTests: XCTestCase {
    /// Rows named by numbers, changed by maps: rows kept move, new rows get new names.
    private final class Rows: VersionedRows {
        var names: [Int] = []
        var version = 0
        var maps: [Int: RowMap] = [:]  // by the version they lead to
        /// How many rows were ever made: each value is made at most once a row.
        private(set) var next = 0
        var rowCount: Int { names.count }

        func rowMap(since version: Int) -> RowMap? {
            guard version >= 0, version <= self.version else { return nil }
            var composed = RowMap.identity(version == self.version ? names.count : (maps[version + 1]?.earlierCount ?? 0))
            for step in stride(from: version + 1, through: self.version, by: 1) {
                guard let map = maps[step] else { return nil }
                composed = composed.then(map)
            }
            return composed
        }

        func change(_ generator: inout SystemRandomNumberGenerator) {
            let kept = Int.random(in: 0...names.count, using: &generator)
            // Perhaps a tail after the change, which moves as one.
            let tailStart = Bool.random(using: &generator) ? names.count : Int.random(in: kept...names.count, using: &generator)
            var newNames = Array(names[0..<kept])
            var rest: [Int32] = []
            for name in names[kept..<tailStart] {
                while Int.random(in: 0..<3, using: &generator) == 0 { newNames.append(fresh()) }
                if Bool.random(using: &generator) {
                    rest.append(Int32(newNames.count))
                    newNames.append(name)
                } else {
                    rest.append(-1)
                }
            }
            version += 1
            if tailStart < names.count {
                while Bool.random(using: &generator) { newNames.append(fresh()) }
                let shift = newNames.count - tailStart
                newNames += names[tailStart...]
                maps[version] = RowMap(kept: kept, rest: rest, tail: names.count - tailStart, shift: shift, count: newNames.count)
            } else {
                while Bool.random(using: &generator) { newNames.append(fresh()) }
                maps[version] = RowMap(kept: kept, rest: rest, count: newNames.count)
            }
            names = newNames
        }

        private func fresh() -> Int {
            next += 1
            return next
        }
    }

    func testValuesFollowTheirRowsAndOnlyNewRowsAreMade() async {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let rows = Rows()
            let cache = RowCache<Int>(placeholder: -1)
            var made = 0
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                for _ in 0..<Int.random(in: 1...3, using: &generator) { rows.change(&generator) }
                let budget = Int.random(in: 0...rows.rowCount + 1, using: &generator)
                cache.prepare(rows, budget: budget) { made += 1; return rows.names[$0] }
                let values = cache.values(of: rows) { made += 1; return rows.names[$0] }
                XCTAssertEqual(values, rows.names)
                XCTAssertEqual(cache.missingCount(rows), 0)
            }
            XCTAssertEqual(made, cache.madeCount)
            XCTAssertLessThanOrEqual(made, rows.next, "each row's value made once")
        }
    }

    /// Many values are made on every core, each once, where its row is.
    func testManyValuesAreMadeOnEveryCoreEachOnce() async {
        let rows = Rows()
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

    private func cache(_ rows: Rows, budget: Int, threads: Locked<Set<ObjectIdentifier>>, calls: Locked<Int>) -> [Int] {
        let cache = RowCache<Int>(placeholder: -1)
        let names = rows.names
        let make: (Int) -> Int = { index in
            threads.withLock { _ = $0.insert(ObjectIdentifier(Thread.current)) }
            calls.withLock { $0 += 1 }
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
