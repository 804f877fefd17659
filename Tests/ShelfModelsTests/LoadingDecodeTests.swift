import DocumentStore
import Foundation
@testable import ShelfModels
import XCTest

/// A large collection's rows come in id order as its slices are read, none decoded until asked
/// for its model; the first snapshot that follows keeps those rows, so none is made twice.
final class LoadingDecodeTests: DemoDataTestCase {
    @MainActor
    func testLoadingDecodesNoRowAndTheFirstSnapshotKeepsTheRowsRead() async throws {
        // Over the store's threshold for reporting progress (2,000 documents).
        let count = 3_000
        let folder = url("many")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for index in 0..<count {
            let json = #"{"author": "A", "numberOfPages": \#(index), "title": "Book \#(index)", "genres": ["x", "y"]}"#
            try Data(json.utf8).write(to: folder.appendingPathComponent(String(format: "b%05d.json", index)))
        }
        let live = LiveCollection<ShelfBook>(db.collection("many"))
        unsubscribeAtEnd { live.unsubscribe() }
        var reported = 0
        var outOfOrder = 0
        let observer = Task { @MainActor in
            while !live.hasLoaded {
                reported = max(reported, live.rows.count)
                let ids = live.rows.map(\.id)
                if ids != ids.sorted() { outOfOrder += 1 }
                try await Task.sleep(for: .milliseconds(1))
            }
        }
        live.subscribe()
        try await waitUntil("the books are loaded") { live.hasLoaded }
        _ = try await observer.value
        XCTAssertGreaterThan(reported, 0, "rows showed while loading")
        XCTAssertEqual(outOfOrder, 0, "the rows read so far are in id order while loading too")
        XCTAssertEqual(live.rows.count, count)
        XCTAssertEqual(live.rows.filter(\.isDecoded).count, 0, "no row is decoded until its model is asked for")
        XCTAssertEqual(live.models.count, count)
        XCTAssertEqual(live.rows.filter(\.isDecoded).count, count)
        // The last change of the rows brought new ones: it was a slice read, and the first
        // snapshot (the same documents) changed no row, so nothing derived from them is redone.
        let last = try XCTUnwrap(live.rowMap(since: live.version - 1))
        XCTAssertFalse(last.added.isEmpty, "the first snapshot replaced rows it already had")
    }

    /// After a change to one document, the others keep their row objects (and models), and
    /// `rowMap` tells where each went, so a screen moves what it derived instead of making it again.
    @MainActor
    func testAChangeToOneDocumentKeepsTheOtherRowsAndMapsThem() async throws {
        let folder = url("few")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for index in 0..<50 {
            try Data(#"{"title": "Book \#(index)"}"#.utf8).write(to: folder.appendingPathComponent(String(format: "b%03d.json", index * 2)))
        }
        let live = LiveCollection<ShelfBook>(db.collection("few"))
        unsubscribeAtEnd { live.unsubscribe() }
        live.subscribe()
        try await waitUntil("the books are loaded") { live.hasLoaded && live.rows.count == 50 }
        let before = live.rows, version = live.version
        try Data(#"{"title": "Edited"}"#.utf8).write(to: folder.appendingPathComponent("b010.json"))
        try Data(#"{"title": "New"}"#.utf8).write(to: folder.appendingPathComponent("b011.json"))
        try FileManager.default.removeItem(at: folder.appendingPathComponent("b000.json"))
        try await waitUntil("the changes are in") { live.rows.count == 50 && live.row(id: "b011") != nil && live.row(id: "b010")?.snapshot.get("title") as? String == "Edited" }
        let map = try XCTUnwrap(live.rowMap(since: version))
        XCTAssertEqual(map.count, 50)
        for (old, new) in map.positions.enumerated() {
            switch before[old].id {
            case "b000", "b010": XCTAssertEqual(new, -1, before[old].id)
            default: XCTAssertTrue(live.rows[Int(new)] === before[old], "\(before[old].id) kept as it was")
            }
        }
        XCTAssertEqual(map.added.map { live.rows[$0].id }, ["b010", "b011"])
        XCTAssertEqual(live.rows.map(\.id), live.rows.map(\.id).sorted())
        XCTAssertNil(live.rowMap(since: version - 100), "too long ago: not known")
        // A change to one document holds the position of its row alone: those before it stay
        // and those after it move together.
        let edited = live.version
        try Data(#"{"title": "Edited again"}"#.utf8).write(to: folder.appendingPathComponent("b004.json"))
        try await waitUntil("the edit is in") { live.row(id: "b004")?.snapshot.get("title") as? String == "Edited again" }
        let one = try XCTUnwrap(live.rowMap(since: edited))
        XCTAssertEqual(one.keptInPlace, 1)
        XCTAssertEqual(one.positionsAfterKept, [-1])
        XCTAssertEqual(one.tailStart, 2)
        XCTAssertEqual(one.tailShift, 0)
        XCTAssertEqual(one.added, [1])
    }
}
