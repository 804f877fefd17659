@testable import DocumentStore
import Foundation
import XCTest

/// A batch finds out whether each of its documents is there by renaming its file into place
/// without replacing (RENAME_NOREPLACE), not by looking first: a lookup in a folder of a
/// million names costs about as much as the file's creation. Counted by the storage layer.
final class BatchLookupTests: StoreTestCase {
    private var lookedUp: Int { db.files.times.documentsLookedUp.withLock { $0 } }

    private func times(_ path: String) throws -> DocumentTimes {
        try XCTUnwrap(try db.documentTimes([path]).first ?? nil, "\(path) has times")
    }

    func testABatchOfNewDocumentsLooksNoneUpAndEachIsCreatedWhenUpdated() async throws {
        let batch = db.batch()
        for index in 0..<500 { batch.setData(["n": index], forDocument: db.document("books/b\(index)")) }
        let before = lookedUp
        try await batch.commit()
        XCTAssertEqual(lookedUp - before, 0, "no document looked up")
        for path in ["books/b0", "books/b499"] {
            let times = try times(path)
            XCTAssertEqual(times.created, times.updated, "\(path): a new document is created when it is written")
        }
    }

    func testADocumentABatchFindsThereKeepsItsCreateTimeAndMovesOn() async throws {
        try await db.document("books/old").setData(["v": 1])
        let old = try times("books/old")
        // The file system's clock may not have ticked since: the new time must still be later.
        let before = lookedUp
        try await db.batch().setData(["v": 2], forDocument: db.document("books/old"))
            .setData(["v": 1], forDocument: db.document("books/new")).commit()
        XCTAssertEqual(lookedUp - before, 1, "only the document that was there is looked up, after its rename was refused")
        let replaced = try times("books/old")
        XCTAssertEqual(replaced.created, old.created, "the create time stays")
        XCTAssertGreaterThan(replaced.updated, old.updated, "the update time moves on")
        let data = try await db.document("books/old").getDocument().data()
        XCTAssertEqual(data?["v"] as? Int, 2, "the new contents are in place")
        let made = try times("books/new")
        XCTAssertEqual(made.created, made.updated)
    }

    func testADocumentAnotherProgramWroteIsReplacedWithItsOwnCreateTime() async throws {
        try store.writeFile("books/outside.json", #"{"v": 1}"#)
        let outside = try times("books/outside")
        try await db.batch().setData(["v": 2], forDocument: db.document("books/outside"))
            .setData(["v": 3], forDocument: db.document("books/other")).commit()
        XCTAssertEqual(try times("books/outside").created, outside.created, "created when the other program made it")
    }
}
