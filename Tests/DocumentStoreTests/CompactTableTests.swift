@testable import DocumentStore
import XCTest

/// The listeners' per-document table: what a `Dictionary` would answer, through appends,
/// updates and removals in any order, with every key still found after removals move entries.
final class CompactTableTests: XCTestCase {
    /// Keys that share a home slot, so that probing and removal meet runs of collisions.
    private struct Colliding: Hashable {
        let value: Int
        func hash(into hasher: inout Hasher) { hasher.combine(value % 7) }
    }

    private func assertSame<K: Hashable, V: Equatable>(_ table: inout CompactTable<K, V>, _ model: [K: V], _ probes: [K],
                                                       file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(table.count, model.count, file: file, line: line)
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: zip(table.keys, table.values)), model, file: file, line: line)
        for key in probes { XCTAssertEqual(table[key], model[key], "\(key)", file: file, line: line) }
    }

    func testRandomOperationsAnswerAsADictionary() {
        var generator = SystemRandomNumberGenerator()
        for keyRange in [20, 300, 5_000] {
            var table = CompactTable<Int, Int>()
            var model: [Int: Int] = [:]
            for step in 0..<20_000 {
                let key = Int.random(in: 0..<keyRange, using: &generator)
                switch Int.random(in: 0..<10, using: &generator) {
                case 0..<4:
                    table[key] = step
                    model[key] = step
                case 4..<7:
                    XCTAssertEqual(table.removeValue(forKey: key), model.removeValue(forKey: key))
                case 7:
                    if model[key] == nil {
                        table.append(key, step)
                        model[key] = step
                    }
                default:
                    XCTAssertEqual(table[key], model[key])
                }
            }
            assertSame(&table, model, Array(0..<keyRange))
        }
    }

    func testCollidingKeysStayReachableThroughRemovals() {
        var table = CompactTable<Colliding, Int>()
        var model: [Colliding: Int] = [:]
        for value in 0..<200 {
            table.append(Colliding(value: value), value)
            model[Colliding(value: value)] = value
        }
        for value in stride(from: 0, to: 200, by: 3) {
            XCTAssertEqual(table.removeValue(forKey: Colliding(value: value)), value)
            model[Colliding(value: value)] = nil
            if value % 2 == 0 { assertSame(&table, model, (0..<200).map(Colliding.init)) }
        }
        assertSame(&table, model, (0..<200).map(Colliding.init))
    }

    /// A first read's entries are appended without a lookup, then found once one is asked.
    func testAppendedEntriesAreFoundAtTheNextLookup() {
        var table = CompactTable<ExactID, Int>()
        table.reserveCapacity(10_000)
        for index in 0..<10_000 { table.append(ExactID("doc\(index)"), index) }
        XCTAssertEqual(table["doc1234"], 1234)
        XCTAssertNil(table["doc10000"])
        table["doc10000"] = 10_000
        XCTAssertEqual(table.removeValue(forKey: "doc0"), 0)
        XCTAssertEqual(table.count, 10_000)
        XCTAssertEqual(table["doc9999"], 9999, "the last entry, moved into the removed one's place")
        XCTAssertEqual(table["doc10000"], 10_000)
        XCTAssertNil(table["doc0"])
    }

    func testRemovingEverythingLeavesAnEmptyTableThatStillWorks() {
        var table = CompactTable<Int, String>()
        for key in 0..<50 { table[key] = "\(key)" }
        for key in (0..<50).reversed() { table[key] = nil }
        XCTAssertTrue(table.isEmpty)
        XCTAssertNil(table[3])
        table[3] = "again"
        XCTAssertEqual(table[3], "again")
        table.removeAll()
        XCTAssertTrue(table.isEmpty)
        XCTAssertNil(table[3])
    }
}
