@testable import DocumentStore
import Foundation
import XCTest

/// While the kernel adds an inotify watch to a folder (80 ms at a million names, the folder's
/// entry locked), the store's own folder opens wait, asleep, instead of spinning on that lock
/// with a core the app needs (`FolderWatchGate`).
final class FolderWatchGateTests: StoreTestCase {
    func testAFolderOpenWaitsForAWatchBeingAdded() throws {
        try db.document("books/dune").write(["title": "Dune"])
        let files = db.files
        let order = Locked<[String]>([])
        let opened = DispatchSemaphore(value: 0)
        files.root.watchGate.addingWatch {
            DispatchQueue.global().async {
                if let fd = (try? files.root.openFolder(["books"], create: false)) ?? nil { close(fd) }
                order.withLock { $0.append("opened") }
                opened.signal()
            }
            // Until the open is held at the gate: one that did not wait would be done by then.
            let deadline = Date(timeIntervalSinceNow: 30)
            while files.root.watchGate.opensHeld.withLock({ $0 }) == 0 && order.withLock({ $0.isEmpty }) && Date() < deadline { usleep(1_000) }
            order.withLock { $0.append("watch added") }
        }
        opened.wait()
        XCTAssertEqual(order.withLock { $0 }, ["watch added", "opened"])
    }

    func testAListenerAddsItsFoldersWatchThroughTheGate() throws {
        try db.document("books/dune").write(["title": "Dune"])
        let recorder = ListenerRecorder<QuerySnapshot>()
        track(db.collection("books").addSnapshotListener(recorder.listener))
        XCTAssertNotNil(recorder.snapshot(1))
        XCTAssertEqual(db.files.root.watchGate.watchesAdded.withLock { $0 }, 1, "the folder's watch, added once")
    }
}
