@testable import DocumentStore
import Foundation
import XCTest

/// Point 8: a tick where nothing changed reads no file, whatever the collection's size; a
/// change reads only the file that changed.
final class QuietTickTests: StoreTestCase {
    func testQuietTicksReadNothingAndAChangeReadsOneFile() throws {
        for index in 0..<1_500 { try store.writeFile("books/b\(index).json", "{\"title\": \"\(index)\"}") }
        let recorder = ListenerRecorder<QuerySnapshot>()
        track(db.collection("books").addSnapshotListener(recorder.listener))
        XCTAssertEqual(try XCTUnwrap(recorder.snapshot(1)).count, 1_500)
        // Files written just before the first read are re-read while their stamps are too
        // recent to trust (the racy window); let that pass before counting.
        let watcher = try XCTUnwrap(db.activeWatcher(.collection(ResourcePath(segments: ["books"]))))
        let changes = try XCTUnwrap(watcher.source as? CollectionFolderChanges)
        let deadline = Date(timeIntervalSinceNow: 30)
        while watcher.queue.sync(execute: { !changes.racy.isEmpty }) && Date() < deadline { usleep(10_000) }
        let before = db.files.filesRead.withLock { $0 }
        try store.waitForLooks(at: "books", 12)
        XCTAssertEqual(recorder.events.count, 1, "twelve quiet ticks deliver nothing")
        XCTAssertEqual(db.files.filesRead.withLock { $0 }, before, "quiet ticks read no file")

        try store.overwriteInPlace("books/b700.json", with: "{\"title\": \"x00\"}")
        let changed = try XCTUnwrap(recorder.snapshot(2))
        XCTAssertEqual(changed.documentChanges.map(\.document.documentID), ["b700"])
        let reads = db.files.filesRead.withLock { $0 } - before
        XCTAssertGreaterThanOrEqual(reads, 1)
        XCTAssertLessThanOrEqual(reads, 3, "only the changed file is read (again while its stamp is racy)")
    }
}
