import DocumentStore
import Foundation
@testable import ShelfModels
import XCTest

/// A large collection's rows are decoded off the main thread as its slices are read; the first
/// snapshot that follows keeps those rows, so none is made or decoded a second time.
final class LoadingDecodeTests: DemoDataTestCase {
    @MainActor
    func testTheFirstSnapshotKeepsEveryRowDecodedWhileLoading() async throws {
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
        let observer = Task { @MainActor in
            while !live.hasLoaded {
                reported = max(reported, live.rows.count)
                try await Task.sleep(for: .milliseconds(1))
            }
        }
        live.subscribe()
        try await waitUntil("the books are loaded") { live.hasLoaded }
        _ = try await observer.value
        XCTAssertGreaterThan(reported, 0, "rows showed while loading")
        XCTAssertEqual(live.rows.count, count)
        XCTAssertEqual(live.rows.filter { !$0.wasDecodedInAdvance }.count, 0, "every row came decoded from the slices read")
        XCTAssertEqual(live.models.count, count)
    }
}
