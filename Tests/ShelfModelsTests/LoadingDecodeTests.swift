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

    /// A changed document is a new row, decoded afresh; the models of the rows it replaced are
    /// let go, so a collection that keeps changing under a screen keeps a few times
    /// the models it shows, not one for every version of every document.
    @MainActor
    func testTheModelsOfRowsReplacedAreLetGo() async throws {
        let folder = url("changing")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let count = 300
        func write(_ version: Int) throws {
            for index in 0..<count {
                try Data(#"{"title": "Book \#(index) v\#(version)", "author": "A", "numberOfPages": 1}"#.utf8).write(to: folder.appendingPathComponent(String(format: "b%03d.json", index)))
            }
        }
        try write(0)
        let live = LiveCollection<ShelfBook>(db.collection("changing"))
        unsubscribeAtEnd { live.unsubscribe() }
        live.subscribe()
        for version in 1...4 {
            try await waitUntil("version \(version - 1) is in") {
                live.rows.count == count && live.rows.allSatisfy { $0.model?.title.hasSuffix(" v\(version - 1)") == true }
            }
            XCTAssertEqual(live.rows.filter(\.isDecoded).count, count)
            try write(version)
        }
        try await waitUntil("the last version is in") { live.rows.allSatisfy { ($0.snapshot.get("title") as? String)?.hasSuffix(" v4") == true } }
        XCTAssertLessThanOrEqual(live.decodingsKept, 3 * count + 256, "four versions of \(count) decoded (1,200 models): the older let go")
        XCTAssertEqual(live.rows.filter(\.isDecoded).count, 0, "the rows of the last version are not decoded yet")
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
            default: XCTAssertTrue(live.rows[Int(new)].snapshot === before[old].snapshot, "\(before[old].id) kept as it was")
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
