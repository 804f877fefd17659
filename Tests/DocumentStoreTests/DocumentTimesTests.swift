@testable import DocumentStore
import Foundation
import XCTest

/// Firestore's create and update times, as each backend keeps them: every write that changes a
/// document moves its update time strictly forward and keeps the create time, one that changes
/// nothing keeps both; another program's write is seen; a write can keep times given to it
/// (`shelf export`).
final class DocumentTimesTests: StoreTestCase {
    private var note: DocumentReference { db.document("notes/n") }

    private func times(_ document: DocumentReference, file: StaticString = #filePath, line: UInt = #line) throws -> DocumentTimes {
        let times = try XCTUnwrap(try db.documentTimes([document.path]).first ?? nil, "\(document.path) has no times", file: file, line: line)
        XCTAssertLessThanOrEqual(times.created, times.updated, "created no later than updated", file: file, line: line)
        return times
    }

    func testEveryKindOfWriteMovesTheUpdateTimeAndKeepsTheCreateTime() async throws {
        try await note.setData(["v": 1])
        let first = try times(note)
        var previous = first
        func expectMoved(_ what: String) throws {
            let now = try times(note)
            XCTAssertGreaterThan(now.updated, previous.updated, "\(what) moves the update time")
            XCTAssertEqual(now.created, first.created, "\(what) keeps the create time")
            previous = now
        }
        try await note.updateData(["v": 2])
        try expectMoved("an update")
        try await note.setData(["w": 3], merge: true)
        try expectMoved("a merge")
        try await note.setData(["v": 4])
        try expectMoved("a set that replaces the document")
        try db.batch().updateData(["v": 5], forDocument: note).setData(["x": 1], forDocument: db.document("notes/other")).commitNow()
        try expectMoved("a batch of two documents")
        try db.runTransactionNow { transaction in
            _ = try transaction.getDocument(self.note)
            transaction.updateData(["v": FieldValue.increment(Int64(1))], forDocument: self.note)
        }
        try expectMoved("a transaction")
        XCTAssertEqual(try db.documentTimes(["notes/missing"]), [nil], "a missing document has no times")
    }

    func testAnUpdateTimePreconditionIsCheckedByTheCommitWithTheStoredTime() async throws {
        try await note.setData(["v": 0])
        let stale = try times(note).updated
        try await note.setData(["v": 1])
        let current = try times(note).updated
        let write = { (time: Timestamp) in
            FirestoreWrite(path: self.note.path, operation: .update(Fields(["v": .integer(2)]), mask: nil), precondition: .updateTime(time))
        }
        XCTAssertThrowsError(try db.commit([write(stale)])) { error in
            XCTAssertEqual(error as? FirestoreWrite.PreconditionFailure, .updatedAt(path: "notes/n", actual: current, required: stale))
        }
        let unchanged = try await note.getDocument().data()?["v"] as? Int
        XCTAssertEqual(unchanged, 1, "a stale precondition writes nothing")
        XCTAssertThrowsError(try db.commit([FirestoreWrite(path: "notes/missing", operation: .delete, precondition: .updateTime(current))])) { error in
            XCTAssertEqual(error as? FirestoreWrite.PreconditionFailure, .updatedAt(path: "notes/missing", actual: nil, required: current))
        }
        _ = try db.commit([write(current)])
        let written = try await note.getDocument().data()?["v"] as? Int
        XCTAssertEqual(written, 2)
        XCTAssertGreaterThan(try times(note).updated, current)
    }

    /// As Firestore's `WriteResult.update_time` says: "If the write did not actually change the
    /// document, this will be the previous update_time" (Google's emulator, measured: each of
    /// these keeps both times).
    func testAWriteThatChangesNothingKeepsTheDocumentsTimes() async throws {
        try await note.setData(["v": 1, "tags": ["a"], "at": Timestamp(seconds: 1_000, nanoseconds: 123_456_789)])
        let first = try times(note)
        func expectKept(_ what: String, file: StaticString = #filePath, line: UInt = #line) throws {
            XCTAssertEqual(try times(note, file: file, line: line), first, "\(what) keeps the times", file: file, line: line)
        }
        try await note.setData(["v": 1, "tags": ["a"], "at": Timestamp(seconds: 1_000, nanoseconds: 123_456_000)])
        try expectKept("the same fields set again (a timestamp's nanoseconds past its microseconds are not kept)")
        try await note.updateData(["v": 1])
        try expectKept("an update to the same value")
        try await note.setData(["tags": ["a"]], merge: true)
        try expectKept("a merge of the same value")
        try await note.updateData(["v": FieldValue.increment(Int64(0)), "tags": FieldValue.arrayUnion(["a"])])
        try expectKept("an increment by 0 and a union of what the array holds")
        try db.runTransactionNow { transaction in
            _ = try transaction.getDocument(self.note)
            transaction.updateData(["v": 1], forDocument: self.note)
        }
        try expectKept("a transaction")

        try db.batch().setData(["v": 1, "tags": ["a"], "at": Timestamp(seconds: 1_000, nanoseconds: 123_456_000)], forDocument: note)
            .setData(["v": 1], forDocument: db.document("notes/other")).commitNow()
        try expectKept("a batch that changes only another document")
        let other = try times(db.document("notes/other"))
        XCTAssertGreaterThan(other.updated, first.updated, "the other document is new")

        let results = try db.commit([FirestoreWrite(path: note.path, operation: .update(Fields(["v": .integer(1)]), mask: [FieldPath(["v"])])),
                                     FirestoreWrite(path: "notes/other", operation: .update(Fields(["v": .integer(2)]), mask: nil))])
        XCTAssertEqual(results.map(\.updateTime), [first.updated, try times(db.document("notes/other")).updated],
                       "the write that changes nothing answers with the document's previous update time")
        XCTAssertEqual(results.map(\.changed), [false, true])
    }

    /// Firestore's equality of values decides, as the emulator's does (measured): 1 is not 1.0,
    /// 0.0 is not -0.0, a NaN is a NaN.
    func testAWriteChangesTheDocumentWhenAValueChangesItsType() async throws {
        func updated(after value: Any) async throws -> Timestamp {
            try await note.setData(["v": value])
            return try times(note).updated
        }
        var previous = try await updated(after: 1)
        for (value, moves, what) in [(1.0, true, "1.0 after 1"), (1.0, false, "1.0 again"), (-0.0, true, "-0.0 after 1.0"), (0.0, true, "0.0 after -0.0"),
                                     (Double.nan, true, "NaN after 0.0"), (Double.nan, false, "NaN again")] as [(Double, Bool, String)] {
            let now = try await updated(after: value)
            if moves { XCTAssertGreaterThan(now, previous, what) } else { XCTAssertEqual(now, previous, what) }
            previous = now
        }
    }

    /// Google's emulator counts a document deleted and made again with the same fields by one
    /// commit as changed, and a server timestamp always changes the document (the commit's time
    /// is new).
    func testADocumentMadeAgainOrStampedByACommitIsChanged() async throws {
        try await note.setData(["v": 1])
        var previous = try times(note).updated
        try db.batch().deleteDocument(note).setData(["v": 1], forDocument: note).commitNow()
        XCTAssertGreaterThan(try times(note).updated, previous, "deleted and made again")
        previous = try times(note).updated
        try await note.updateData(["at": FieldValue.serverTimestamp()])
        XCTAssertGreaterThan(try times(note).updated, previous, "a server timestamp")
    }

    func testAnUpdateTimePreconditionTakenBeforeAWriteThatChangesNothingStillHolds() async throws {
        try await note.setData(["v": 1])
        let before = try times(note).updated
        try await note.setData(["v": 1])
        _ = try db.commit([FirestoreWrite(path: note.path, operation: .update(Fields(["v": .integer(2)]), mask: nil), precondition: .updateTime(before))])
        let written = try await note.getDocument().data()?["v"] as? Int
        XCTAssertEqual(written, 2)
    }

    func testACommitAnswersWithTheTimeItGaveEachDocument() async throws {
        try await note.setData(["v": 1])
        let set = { (path: String) in FirestoreWrite(path: path, operation: .update(Fields(["v": .integer(2)]), mask: nil)) }
        let alone = try db.commit([set("notes/a")])
        XCTAssertEqual(alone.map(\.updateTime), [try times(db.document("notes/a")).updated], "one document")
        let together = try db.commit([set("notes/b"), set("notes/c"), FirestoreWrite(path: note.path, operation: .delete)])
        XCTAssertEqual(together.map(\.updateTime), [try times(db.document("notes/b")).updated, try times(db.document("notes/c")).updated, nil],
                       "a batch: each document's own time, none for a delete")
    }

    /// Issue 51: a commit's writes got three times, and its server timestamp none of them.
    /// Firestore gives every write of a commit its `commit_time`, and `REQUEST_TIME` is it.
    func testEveryWriteOfACommitHasTheCommitsTimeWhichItsServerTimestampIs() async throws {
        try await note.setData(["v": 1])
        let together = try db.commit([
            FirestoreWrite(path: "notes/b", operation: .update(Fields(["v": .integer(2)]), mask: nil)),
            FirestoreWrite(path: note.path, operation: .update(Fields(["v": .integer(3)]), mask: nil)),
            FirestoreWrite(path: "notes/c", operation: .update(Fields([:]), mask: nil), transforms: [(FieldPath(["at"]), FieldValue.serverTimestamp())]),
        ])
        let time = try XCTUnwrap(together[0].updateTime)
        XCTAssertEqual(together.map(\.updateTime), [time, time, time])
        for path in ["notes/b", note.path, "notes/c"] {
            XCTAssertEqual(try times(db.document(path)).updated, time, path)
        }
        let stampedC = try await db.document("notes/c").getDocument().get("at") as? Timestamp
        XCTAssertEqual(stampedC, time, "the server timestamp is the commit's time")
        XCTAssertEqual(time.nanoseconds % 1000, 0, "microseconds, as Firestore keeps them")

        let batch = db.batch()
        for index in 0..<5 { batch.setData(["i": index, "at": FieldValue.serverTimestamp()], forDocument: db.document("notes/batch\(index)")) }
        try batch.commitNow()
        let stamped = try await db.collection("notes").whereField("i", isGreaterThanOrEqualTo: 0).getDocuments().documents
        let batchTimes = Set(try stamped.map { try times($0.reference).updated })
        XCTAssertEqual(batchTimes.count, 1, "one time for the batch's five documents: \(batchTimes)")
        XCTAssertEqual(Set(stamped.map { $0.get("at") as? Timestamp }), [batchTimes.first], "and its server timestamps")
        XCTAssertGreaterThan(batchTimes.first!, time, "a later commit, a later time")
    }

    func testADocumentDeletedAndMadeAgainIsCreatedAgain() async throws {
        try await note.setData(["v": 1])
        let before = try times(note)
        try await note.delete()
        XCTAssertEqual(try db.documentTimes([note.path]), [nil])
        try await note.setData(["v": 1])
        XCTAssertGreaterThan(try times(note).created, before.updated)
    }

    func testQuickWritesHaveStrictlyIncreasingUpdateTimes() async throws {
        // Faster than a file system's clock ticks (every few milliseconds): without the store
        // moving each file's time on itself, many of these would share a time.
        var previous: Timestamp?
        for value in 0..<50 {
            try await note.setData(["v": value])
            let updated = try times(note).updated
            if let previous { XCTAssertGreaterThan(updated, previous, "write \(value)") }
            previous = updated
        }
    }

    func testTimesOfSeveralDocumentsComeInTheOrderAsked() async throws {
        try await db.document("notes/a").setData(["v": 1])
        try await db.document("notes/b").setData(["v": 1])
        let a = try times(db.document("notes/a")), b = try times(db.document("notes/b"))
        XCTAssertEqual(try db.documentTimes(["notes/b", "notes/none", "notes/a"]), [b, nil, a])
        XCTAssertThrowsError(try db.documentTimes(["notes"]), "a collection's path is not a document's")
    }

    #if !SHELF_REMOTE_TESTS  // Firestore's protocol has no way to give a document its times
    func testAWriteKeepsTheTimesItIsGiven() throws {
        // Whole microseconds: PostgreSQL keeps no finer ones.
        let given = DocumentTimes(created: Timestamp(seconds: 1_000_000_000, nanoseconds: 123_456_000),
                                  updated: Timestamp(seconds: 1_700_000_000, nanoseconds: 654_321_000))
        try db.batch().setData(["v": 1], forDocument: note, keepingTimes: given)
            .setData(["v": 1], forDocument: db.document("notes/second"), keepingTimes: given).commitNow()
        XCTAssertEqual(try times(note), given, "one of a batch")
        try db.batch().setData(["v": 2], forDocument: note, keepingTimes: given).commitNow()
        XCTAssertEqual(try times(note), given, "alone, over the same document")
        try db.batch().setData(["v": 3], forDocument: note).commitNow()
        let after = try times(note)
        XCTAssertEqual(after.created, given.created, "a later write keeps the create time it was given")
        XCTAssertGreaterThan(after.updated, given.updated)
    }
    #endif

    #if SHELF_POSTGRES_TESTS
    func testAnotherClientsSQLMovesTheUpdateTimeAndKeepsTheCreateTime() async throws {
        try await note.setData(["v": 1])
        let before = try times(note)
        try store.writeFile("notes/n.json", #"{"v": 2}"#)  // psql's UPDATE
        let after = try times(note)
        XCTAssertGreaterThan(after.updated, before.updated)
        XCTAssertEqual(after.created, before.created)
        try store.writeFile("notes/new.json", #"{"v": 1}"#)  // psql's INSERT
        let made = try times(db.document("notes/new"))
        XCTAssertEqual(made.created, made.updated, "a row another client inserts is created when written")
    }
    #else
    /// Sets a file's modification time as `touch -d` does.
    private func touch(_ relative: String, _ time: Timestamp) throws {
        let stamps = [timespec(tv_sec: Int(time.seconds), tv_nsec: Int(time.nanoseconds)), timespec(tv_sec: Int(time.seconds), tv_nsec: Int(time.nanoseconds))]
        guard utimensat(AT_FDCWD, store.path(relative), stamps, 0) == 0 else {
            throw POSIXFailure(call: "utimensat", path: store.path(relative), code: errno)
        }
    }

    func testAnotherProgramsFileIsReadWithItsOwnTime() async throws {
        try await note.setData(["v": 1])
        let before = try times(note)
        // An editor's save, renamed into place; the time is said, since a file system's clock
        // may not have ticked since the store's write.
        try store.writeFile("notes/n.json", #"{"v": 2}"#)
        let edited = Timestamp(seconds: before.updated.seconds + 60, nanoseconds: 5)
        try touch("notes/n.json", edited)
        XCTAssertEqual(try times(note).updated, edited)
        // The store's next write comes after it, although the clock has not reached it yet.
        try await note.updateData(["v": 3])
        XCTAssertGreaterThan(try times(note).updated, edited)
    }

    #if !SHELF_REMOTE_TESTS  // the edit leaves the file unreadable, which a server does not send
    func testAnEditInPlaceKeepsTheCreateTime() async throws {
        try await note.setData(["v": 1])
        let before = try times(note)
        try store.overwriteInPlace("notes/n.json", with: #"{"v": 7}"#)
        try touch("notes/n.json", Timestamp(seconds: before.updated.seconds + 60, nanoseconds: 0))
        let after = try times(note)
        XCTAssertEqual(after.created, before.created, "the attribute stays with the file")
        XCTAssertEqual(after.updated, Timestamp(seconds: before.updated.seconds + 60, nanoseconds: 0))
    }
    #endif

    func testTheCreateTimeIsKeptInAnExtendedAttribute() async throws {
        try await note.setData(["v": 1])
        let fd = open(store.path("notes/n.json"), O_RDONLY)
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { LinuxCalls.getAttribute!(fd, "user.firestore.create_time", $0.baseAddress, $0.count) }
        XCTAssertGreaterThan(count, 0, "the attribute is there")
        XCTAssertEqual(Timestamp(rfc3339: String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self)), try times(note).created)
    }

    func testAFileAnotherProgramMadeWasCreatedWhenItWasBorn() throws {
        try store.writeFile("notes/outside.json", #"{"v": 1}"#)
        let times = try times(db.document("notes/outside"))
        // Its birth time where the file system keeps one, else its modification time: both
        // within the moment the file was written.
        XCTAssertLessThanOrEqual(times.created, times.updated)
        XCTAssertGreaterThan(times.created.seconds, Int64(Date().timeIntervalSince1970) - 3600)
    }
    #endif
}
