@testable import DocumentStore
import Foundation
import XCTest

/// Point 4, in one process: a write leaves exactly the document's file behind, temporary files
/// (names starting with ".") are never read as documents, and an I/O failure is reported.
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
        recorder.expectNothing(for: 0.5, "temporary files come and go")
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
}
