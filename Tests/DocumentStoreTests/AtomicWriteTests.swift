@testable import DocumentStore
import Foundation
import XCTest

/// Point 4, in one process: a write leaves exactly the document's file behind, temporary files
/// (names starting with ".") are never read as documents, and an I/O failure is reported.
/// The journal that makes batches atomic, and its recovery (see `CommitJournal`).
final class AtomicWriteTests: StoreTestCase {
    func testAWriteLeavesNoTemporaryFile() throws {
        let ref = db.document("books/hitchhiker")
        for pages in 0..<5 { try ref.write(["numberOfPages": pages]) }
        try ref.update(["title": "T"])
        try ref.write(["author": "A"], merge: true)
        XCTAssertEqual(store.fileNames(in: "books"), ["hitchhiker.json"])
        try ref.deleteDocument()
        XCTAssertEqual(store.fileNames(in: "books"), [])
    }

    func testAWriteReplacesTheFileByRenameSoReadersNeverShareItsInode() throws {
        let ref = db.document("books/hitchhiker")
        try ref.write(["v": 1])
        let before = try store.fileStatus("books/hitchhiker.json")
        try ref.write(["v": 2])
        let after = try store.fileStatus("books/hitchhiker.json")
        XCTAssertNotEqual(before.inode, after.inode, "a new file is renamed over the old one")
    }

    func testTemporaryAndOtherFilesAreNeverReadAsDocuments() async throws {
        try store.writeFile("books/real.json", #"{"title": "Real"}"#)
        try store.writeFile("books/.shelf-1a2b3c.tmp", #"{"title": "half"#)
        try store.writeFile("books/.shelf-complete.tmp", #"{"title": "Temp"}"#)
        try store.writeFile("books/.hidden.json", #"{"title": "Hidden"}"#)
        try store.writeFile("books/.json", #"{"title": "No id"}"#)
        try store.writeFile("books/notes.txt", "not a document")
        try store.writeFile("books/README", "not a document")

        let snapshot = try await db.collection("books").getDocuments()
        XCTAssertEqual(snapshot.ids, ["real"])
        XCTAssertEqual(snapshot.count, 1)

        let recorder = ListenerRecorder<QuerySnapshot>()
        track(db.collection("books").addSnapshotListener(recorder.listener))
        XCTAssertEqual(recorder.snapshot(1)?.ids, ["real"])
        // More temporary files appearing and vanishing deliver nothing.
        try store.writeFile("books/.shelf-zzz.tmp", #"{"title": "Temp 2"}"#)
        try store.deleteFile("books/.shelf-1a2b3c.tmp")
        try store.waitForLooks(at: "books")
        XCTAssertEqual(recorder.events.count, 1, "temporary files come and go")
    }

    func testAFailedWriteIsReportedAndChangesNothing() async throws {
        // "books" is a file, so no document can be written below it.
        try store.writeFile("books", "I am a file")
        let error = thrownError { try self.db.document("books/hitchhiker").write(["title": "T"]) }
        XCTAssertEqual(error.map { "\($0)" },
                       "cannot open the folder \(store.root.path)/books: it is a symbolic link or a file; the store only follows real folders inside itself")
        XCTAssertEqual(store.readFile("books"), "I am a file")

        let done = expectation(description: "completion")
        db.document("books/other").setData(["title": "T"]) { error in
            XCTAssertNotNil(error, "the completion receives the failure")
            done.fulfill()
        }
        await fulfillment(of: [done], timeout: 10)
    }

    func testCompletionHandlersRunAfterTheWriteIsOnDisk() async throws {
        let ref = db.document("books/hitchhiker")
        let done = expectation(description: "completion")
        let path = store.path("books/hitchhiker.json")
        ref.setData(["title": "T"]) { error in
            XCTAssertNil(error)
            XCTAssertTrue(FileManager.default.fileExists(atPath: path))
            done.fulfill()
        }
        // On disk when the call returns, not only when the completion runs.
        XCTAssertEqual(store.readFile("books/hitchhiker.json"), "{\n  \"title\": \"T\"\n}\n")
        await fulfillment(of: [done], timeout: 10)
    }

    // MARK: The batch journal

    private func journal(_ writes: [(String, String?)], batchID: UInt64 = 0x5eed) -> CommitJournal {
        CommitJournal(batchID: batchID, entries: writes.map { path, text in
            CommitJournal.Entry(path: ResourcePath(segments: path.split(separator: "/").map(String.init)), bytes: text.map { Array($0.utf8) })
        })
    }

    /// Leaves a journal as a writer that died at once after its commit point would.
    private func plant(_ journal: CommitJournal, as name: String = CommitJournal.fileName) throws {
        try FileManager.default.createDirectory(atPath: store.path(".shelf"), withIntermediateDirectories: true)
        try Data(journal.encoded).write(to: URL(fileURLWithPath: store.path(".shelf/" + name)))
    }

    func testTheJournalRoundTripsAndRefusesTornOrDamagedBytes() {
        let original = journal([("books/a", #"{"title": "A"}"#), ("books/b", nil), ("books/a/reviews/r1", "{}")])
        let bytes = original.encoded
        XCTAssertEqual(CommitJournal(decoding: bytes), original)
        for cut in [0, 10, bytes.count / 2, bytes.count - 1] {
            XCTAssertNil(CommitJournal(decoding: Array(bytes[0..<cut])), "cut at \(cut)")
        }
        var damaged = bytes
        damaged[bytes.count / 2] ^= 0x20
        XCTAssertNil(CommitJournal(decoding: damaged))
        XCTAssertNil(CommitJournal(decoding: journal([("books/..", "{}")]).encoded), "a path that would leave the store")
    }

    func testReadingCreatesNothing() async throws {
        // Readers lock the store's folder itself, so a store that is only read stays as it was.
        try store.writeFile("books/a.json", #"{"v": 1}"#)
        let reopened = try Firestore(directory: store.root)
        _ = try await reopened.collection("books").getDocuments()
        _ = try await reopened.document("books/a").getDocument()
        let recorder = ListenerRecorder<QuerySnapshot>()
        track(reopened.collection("books").addSnapshotListener(recorder.listener))
        XCTAssertEqual(recorder.snapshot(1)?.count, 1)
        XCTAssertEqual(store.fileNames(in: ""), ["books"])
    }

    func testABatchLeavesNoJournalAndReplacesEachFileByRename() async throws {
        try db.document("books/a").write(["v": 1])
        let before = try store.fileStatus("books/a.json")
        let batch = db.batch()
        batch.setData(["v": 2], forDocument: db.document("books/a"))
        batch.setData(["v": 2], forDocument: db.document("books/b"))
        batch.setData(["v": 2], forDocument: db.document("authors/c"))
        try await batch.commit()
        XCTAssertNotEqual(try store.fileStatus("books/a.json").inode, before.inode)
        XCTAssertEqual(store.fileNames(in: "books"), ["a.json", "b.json"])
        XCTAssertEqual(store.fileNames(in: "authors"), ["c.json"])
        XCTAssertEqual(store.fileNames(in: ".shelf"), ["lock"])
    }

    func testOpeningTheStoreRollsACommittedJournalForward() async throws {
        try store.writeFile("books/a.json", #"{"v": 1}"#)
        try store.writeFile("books/gone.json", #"{"v": 1}"#)
        // The writer died mid-apply: a.json is already new, b.json not yet written.
        try store.writeFile("books/a.json", #"{"v": 2}"#)
        let committed = journal([("books/a", #"{"v": 2}"#), ("books/b", #"{"v": 2}"#), ("books/gone", nil), ("new/c", #"{"v": 2}"#)])
        try store.writeFile("books/" + committed.temporaryNames[1], #"{"v": 2, "half": "#)
        try plant(committed)
        let reopened = try Firestore(directory: store.root)
        XCTAssertEqual(store.fileNames(in: ".shelf"), ["lock"], "the journal is gone once applied")
        XCTAssertEqual(store.fileNames(in: "books"), ["a.json", "b.json"], "the batch's temporary files are gone too")
        XCTAssertEqual(store.readFile("books/b.json"), #"{"v": 2}"#)
        XCTAssertEqual(store.readFile("new/c.json"), #"{"v": 2}"#)
        let b = try await reopened.document("books/b").getDocument()
        XCTAssertEqual(b.get("v") as? Int, 2)
    }

    func testAReaderRollsForwardAJournalLeftByADeadWriter() async throws {
        try db.document("books/a").write(["v": 1])
        try db.document("books/b").write(["v": 1])
        // After the store was opened, a writer in another process died after its commit point.
        try plant(journal([("books/a", #"{"v": 2}"#), ("books/b", #"{"v": 2}"#)]))
        let a = try await db.document("books/a").getDocument()
        XCTAssertEqual(a.get("v") as? Int, 2)
        XCTAssertEqual(store.fileNames(in: ".shelf"), ["lock"])
        XCTAssertEqual(store.readFile("books/b.json"), #"{"v": 2}"#)

        // A listener too: its first snapshot holds the whole batch.
        try plant(journal([("books/a", #"{"v": 3}"#), ("books/b", #"{"v": 3}"#)]))
        let recorder = ListenerRecorder<QuerySnapshot>()
        track(db.collection("books").addSnapshotListener(recorder.listener))
        let first = try XCTUnwrap(recorder.snapshot(1))
        XCTAssertEqual(first.documents.map { $0.get("v") as? Int }, [3, 3])
        // And a write: it completes the dead writer's batch before its own.
        try plant(journal([("books/a", #"{"v": 4}"#), ("books/b", #"{"v": 4}"#)]))
        try db.document("books/a").update(["w": 1])
        XCTAssertEqual(store.readFile("books/b.json"), #"{"v": 4}"#)
        let a4 = try await db.document("books/a").getDocument()
        XCTAssertEqual(a4.get("v") as? Int, 4)
        XCTAssertEqual(a4.get("w") as? Int, 1)
    }

    func testAJournalNotYetCommittedIsDiscarded() async throws {
        try db.document("books/a").write(["v": 1])
        let unfinished = journal([("books/a", #"{"v": 2}"#), ("books/b", #"{"v": 2}"#)], batchID: 77)
        try plant(unfinished, as: CommitJournal.temporaryFileName)
        try store.writeFile("books/" + unfinished.temporaryNames[0], #"{"v": 2}"#)
        let reopened = try Firestore(directory: store.root)
        XCTAssertEqual(store.fileNames(in: ".shelf"), ["lock"])
        XCTAssertEqual(store.fileNames(in: "books"), ["a.json"], "its temporary files are removed, its documents never written")
        let a = try await reopened.document("books/a").getDocument()
        XCTAssertEqual(a.get("v") as? Int, 1)
    }

    func testADamagedJournalIsSetAsideNotApplied() async throws {
        try db.document("books/a").write(["v": 1])
        var bytes = journal([("books/a", #"{"v": 2}"#), ("books/b", #"{"v": 2}"#)]).encoded
        bytes[bytes.count - 3] ^= 0xff
        try FileManager.default.createDirectory(atPath: store.path(".shelf"), withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: store.path(".shelf/journal")))
        _ = try Firestore(directory: store.root)
        let names = store.fileNames(in: ".shelf")
        XCTAssertEqual(names.filter { $0.hasPrefix("journal.damaged-") }.count, 1, "\(names)")
        XCTAssertFalse(names.contains("journal"))
        XCTAssertEqual(store.fileNames(in: "books"), ["a.json"])
        XCTAssertEqual(store.readFile("books/a.json"), "{\n  \"v\": 1\n}\n")
    }
}
