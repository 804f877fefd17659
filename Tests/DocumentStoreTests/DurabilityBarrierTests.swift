@testable import DocumentStore
import Foundation
import XCTest

/// A batch of 500 documents is made durable by one barrier, not one sync per
/// document; counted by the storage layer's own count of what it asked the kernel to sync.
final class DurabilityBarrierTests: StoreTestCase {
    private var syncs: FolderRoot.SyncCount { db.files.root.syncs.withLock { $0 } }

    private func commitBatch(of count: Int, startingAt first: Int) async throws -> FolderRoot.SyncCount {
        let batch = db.batch()
        for index in first..<first + count {
            batch.setData(["title": "Book \(index)", "numberOfPages": index], forDocument: db.document("books/book-\(index)"))
        }
        let before = syncs
        try await batch.commit()
        let after = syncs
        return FolderRoot.SyncCount(calls: after.calls - before.calls, barriers: after.barriers - before.barriers)
    }

    func testABatchOf500DocumentsIsOneBarrier() async throws {
        _ = try await commitBatch(of: 2, startingAt: 0)  // creates the folders, whose names are synced once
        let small = try await commitBatch(of: 2, startingAt: 10)
        let large = try await commitBatch(of: 500, startingAt: 1000)
        XCTAssertEqual(large.barriers, 1, "one barrier for the whole batch")
        // SHELF_DURABILITY_BARRIER=fsync-each (for shelf-bench's comparison) syncs every file by design.
        if DurabilityBarrier.chosen != .fsyncEach {
            XCTAssertEqual(large, small, "500 documents cost the syncs of 2: none per document")
            XCTAssertLessThanOrEqual(large.calls, 4, "journal, commit point, barrier, journal removed")
        }
        let count = try await db.collection("books").getDocuments().count
        XCTAssertEqual(count, 504)
    }

    func testOneDocumentIsSyncedWithoutABarrier() throws {
        try db.document("books/first").write(["title": "First"])  // creates the folder
        let before = syncs
        try db.document("books/second").write(["title": "Second"])
        let after = syncs
        XCTAssertEqual(after.barriers - before.barriers, 0, "a single document needs no journal and no barrier")
        XCTAssertEqual(after.calls - before.calls, 2, "its file, then its folder")
    }
}
