@testable import DocumentStore
import Foundation
import XCTest

/// `WriteBatch.prepare` (what `shelf generate` and `export` call on the thread that makes the
/// next batch): a folder encodes the batch's files and journal before the write lock, so the
/// writing thread only writes; what is committed is the same as without it, and anything that
/// depends on what is stored is still worked out under the lock. Counted by the storage layer.
final class PreparedBatchTests: StoreTestCase {
    private var encodedUnderLock: Int { db.files.documentsEncodedUnderLock.withLock { $0 } }

    private func books(_ ids: ClosedRange<Int>, in batch: WriteBatch) -> WriteBatch {
        for id in ids {
            batch.setData(["title": "Book \(id)", "pages": id, "published": Timestamp(seconds: 1_700_000_000 + Int64(id), nanoseconds: 5_000),
                           "shelf": ["row": id, "tags": ["a", "b"]], "related": db.document("books/b0")],
                          forDocument: db.document("books/b\(id)"))
        }
        return batch
    }

    private func data(_ path: String) async throws -> [String: Any] {
        let data = try await db.document(path).getDocument().data()
        return try XCTUnwrap(data, "\(path) exists")
    }

    func testAPreparedBatchEncodesNothingUnderTheLockAndWritesWhatAnUnpreparedOneWrites() async throws {
        let plain = books(1...3, in: db.batch())
        var before = encodedUnderLock
        try plain.commitNow()
        XCTAssertEqual(encodedUnderLock - before, 3, "an unprepared batch is encoded under the lock")

        let prepared = books(4...6, in: db.batch())
        prepared.prepare()
        before = encodedUnderLock
        try prepared.commitNow()
        XCTAssertEqual(encodedUnderLock - before, 0, "a prepared batch was encoded before")

        for (plainID, preparedID) in [(1, 4), (3, 6)] {
            let one = try await data("books/b\(plainID)"), other = try await data("books/b\(preparedID)")
            XCTAssertEqual(other["pages"] as? Int, preparedID, "an integer stays an integer")
            XCTAssertEqual(other["published"] as? Timestamp, Timestamp(seconds: 1_700_000_000 + Int64(preparedID), nanoseconds: 5_000))
            XCTAssertEqual((other["shelf"] as? [String: Any])?["tags"] as? [String], ["a", "b"])
            XCTAssertEqual((other["related"] as? DocumentReference)?.path, "books/b0")
            XCTAssertEqual(Set(one.keys), Set(other.keys), "the same fields as the unprepared batch's")
            let times = try XCTUnwrap(try db.documentTimes(["books/b\(preparedID)"]).first ?? nil)
            XCTAssertEqual(times.created, times.updated, "a new document is created when it is written")
        }
        XCTAssertFalse(db.files.journal.hasJournalFiles, "the journal is gone after the commit")
    }

    func testAPreparedBatchStillKeepsTheCreateTimeOfADocumentItReplaces() async throws {
        try await db.document("books/b1").setData(["title": "Old"])
        let old = try XCTUnwrap(try db.documentTimes(["books/b1"]).first ?? nil)
        let batch = books(1...2, in: db.batch())
        batch.prepare()
        try batch.commitNow()
        let replaced = try XCTUnwrap(try db.documentTimes(["books/b1"]).first ?? nil)
        XCTAssertEqual(replaced.created, old.created, "the create time stays")
        XCTAssertGreaterThan(replaced.updated, old.updated, "the update time moves on")
        let title = try await data("books/b1")["title"] as? String
        XCTAssertEqual(title, "Book 1")
    }

    func testAWriteAddedAfterPreparingIsCommittedWithTheOthers() async throws {
        let batch = books(1...2, in: db.batch())
        batch.prepare()
        batch.setData(["title": "Late"], forDocument: db.document("books/late"))
        let before = encodedUnderLock
        try batch.commitNow()
        XCTAssertEqual(encodedUnderLock - before, 3, "the preparation is dropped: the batch is encoded under the lock, all of it")
        let late = try await data("books/late")["title"] as? String
        XCTAssertEqual(late, "Late")
        let first = try await data("books/b1")["title"] as? String
        XCTAssertEqual(first, "Book 1")
    }

    func testWritesThatDependOnWhatIsStoredOrOnTheCommitAreWorkedOutUnderTheLock() async throws {
        try await db.document("books/b1").setData(["title": "Old", "kept": true])
        let merging = db.batch().setData(["title": "Merged"], forDocument: db.document("books/b1"), merge: true)
            .setData(["title": "Other"], forDocument: db.document("books/b2"))
        merging.prepare()
        var before = encodedUnderLock
        try merging.commitNow()
        XCTAssertEqual(encodedUnderLock - before, 2, "a merge reads the stored document")
        let merged = try await data("books/b1")
        XCTAssertEqual(merged["kept"] as? Bool, true, "the merge keeps the stored field")

        let stamping = db.batch().setData(["at": FieldValue.serverTimestamp()], forDocument: db.document("books/b3"))
            .setData(["title": "Other"], forDocument: db.document("books/b4"))
        stamping.prepare()
        before = encodedUnderLock
        try stamping.commitNow()
        XCTAssertEqual(encodedUnderLock - before, 2, "a server timestamp is the commit's time")
        let stamped = try await data("books/b3")
        XCTAssertNotNil(stamped["at"] as? Timestamp)
    }

    func testAPreparedBatchThatBreaksALimitFailsAtCommitNamingTheDocument() async throws {
        let tooLarge = String(repeating: "x", count: 1_100_000)
        let batch = db.batch().setData(["text": tooLarge], forDocument: db.document("books/huge"))
            .setData(["title": "Small"], forDocument: db.document("books/small"))
        batch.prepare()
        XCTAssertThrowsError(try batch.commitNow()) { error in
            XCTAssertEqual((error as NSError).code, FirestoreErrorCode.invalidArgument.rawValue)
            XCTAssertTrue("\(error.localizedDescription)".contains("books/huge"), "names the document: \(error.localizedDescription)")
        }
        let small = try await db.document("books/small").getDocument()
        XCTAssertFalse(small.exists, "nothing of the batch was written")
    }
}
