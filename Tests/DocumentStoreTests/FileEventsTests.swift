@testable import DocumentStore
import Foundation
import XCTest

/// Watching in O(changes): with inotify a tick reads only the files the kernel's events name
/// and lists no folder; with it off the stat sweep still finds every change; lost events
/// (an overflowed queue) cost one full rescan that misses nothing. Counts, not timings.
final class FileEventsTests: StoreTestCase {
    private let books = ResourcePath(segments: ["books"])

    private func seed(_ count: Int) throws {
        for index in 0..<count { try store.writeFile("books/b\(index).json", "{\"title\": \"\(index)\"}") }
    }

    private func listen() -> ListenerRecorder<QuerySnapshot> {
        let recorder = ListenerRecorder<QuerySnapshot>()
        track(db.collection("books").addSnapshotListener(recorder.listener))
        return recorder
    }

    /// The collection's watcher and its folder's change source, asked on the watcher's queue.
    private struct FolderWatch {
        let watcher: Watcher
        let changes: CollectionFolderChanges
        var usesFileEvents: Bool { watcher.queue.sync { changes.usesFileEvents } }
        var fileEventsDescriptor: Int32? { watcher.queue.sync { changes.fileEventsDescriptor } }
        var foldersListed: Locked<Int> { changes.foldersListed }

        /// Makes `changes` between two looks, then has the next look find the kernel's queue
        /// overflowed, their events lost.
        func simulateOverflow(whileChanging changes: () throws -> Void) rethrows {
            try watcher.queue.sync {
                try changes()
                self.changes.simulateOverflow()
            }
        }
    }

    private func watcher() throws -> FolderWatch {
        let watcher = try XCTUnwrap(db.activeWatcher(.collection(books)))
        return FolderWatch(watcher: watcher, changes: try XCTUnwrap(watcher.source as? CollectionFolderChanges))
    }

    private func turnInotifyOff() {
        let settings = db.settings
        settings.isInotifyEnabled = false
        db.settings = settings
    }

    private var filesRead: Int { db.files.filesRead.withLock { $0 } }

    func testOneCreateOrEditInALargeCollectionReadsOneFileAndListsNoFolder() throws {
        try seed(10_000)
        let recorder = listen()
        XCTAssertEqual(try XCTUnwrap(recorder.snapshot(1)).count, 10_000, "the first snapshot is complete")
        let watcher = try watcher()
        XCTAssertTrue(watcher.usesFileEvents)
        let (reads, listings) = (filesRead, watcher.foldersListed.withLock { $0 })

        try store.writeFile("books/new.json", #"{"title": "new"}"#)
        let created = try XCTUnwrap(recorder.snapshot(2))
        XCTAssertEqual(created.documentChanges.map(\.type), [.added])
        XCTAssertEqual(created.documentChanges.map(\.document.documentID), ["new"])
        XCTAssertEqual(created.count, 10_001)
        XCTAssertEqual(filesRead - reads, 1, "only the new file is read")

        try store.overwriteInPlace("books/b4321.json", with: #"{"title": "edited"}"#)
        let edited = try XCTUnwrap(recorder.snapshot(3))
        XCTAssertEqual(edited.documentChanges.map(\.document.documentID), ["b4321"])
        XCTAssertEqual(edited.documentChanges.first?.document.get("title") as? String, "edited")
        XCTAssertEqual(filesRead - reads, 2, "only the edited file is read")

        try store.deleteFile("books/b17.json")
        XCTAssertEqual(recorder.snapshot(4)?.documentChanges.map(\.type), [.removed])
        try store.waitForLooks(at: "books")
        XCTAssertEqual(recorder.events.count, 4, "quiet ticks deliver nothing")
        XCTAssertEqual(filesRead - reads, 2, "a deletion and quiet ticks read nothing, not even racy files again")
        XCTAssertEqual(watcher.foldersListed.withLock { $0 }, listings, "no folder is listed")
    }

    func testAnotherProgramsWriteWakesTheWatcherWithoutWaitingForItsTick() throws {
        let settings = db.settings
        settings.pollingInterval = 3600  // no tick within the test: only the kernel's events wake the watcher
        db.settings = settings
        try seed(3)
        let recorder = listen()
        XCTAssertEqual(recorder.snapshot(1)?.count, 3)
        XCTAssertTrue(try watcher().usesFileEvents)

        try store.writeFile("books/new.json", #"{"title": "new"}"#)
        XCTAssertEqual(recorder.snapshot(2)?.documentChanges.map(\.document.documentID), ["new"])
        try store.overwriteInPlace("books/b1.json", with: #"{"title": "x"}"#)
        let edited = try XCTUnwrap(recorder.snapshot(3))
        XCTAssertEqual(edited.documentChanges.map(\.type), [.modified])
        XCTAssertEqual(edited.documentChanges.first?.document.get("title") as? String, "x")
    }

    func testWithInotifyOffTheSweepFindsAnInPlaceEdit() throws {
        turnInotifyOff()
        try seed(50)
        let recorder = listen()
        XCTAssertEqual(recorder.snapshot(1)?.count, 50)
        let watcher = try watcher()
        XCTAssertFalse(watcher.usesFileEvents)
        try store.overwriteInPlace("books/b7.json", with: #"{"title": "x"}"#)
        let edited = try XCTUnwrap(recorder.snapshot(2))
        XCTAssertEqual(edited.documentChanges.map(\.type), [.modified])
        XCTAssertEqual(edited.documentChanges.first?.document.get("title") as? String, "x")

        let listings = watcher.foldersListed.withLock { $0 }
        try store.writeFile("books/new.json", #"{"title": "new"}"#)
        XCTAssertEqual(recorder.snapshot(3)?.documentChanges.map(\.document.documentID), ["new"])
        XCTAssertGreaterThan(watcher.foldersListed.withLock { $0 }, listings, "the sweep finds a new file by listing the folder")
    }

    func testAnOverflowedQueueLeadsToOneFullRescanThatMissesNothing() throws {
        try seed(2_000)
        let recorder = listen()
        XCTAssertEqual(recorder.snapshot(1)?.count, 2_000)
        let watcher = try watcher()
        XCTAssertTrue(watcher.usesFileEvents)
        let listings = watcher.foldersListed.withLock { $0 }

        try watcher.simulateOverflow {
            try store.writeFile("books/new.json", #"{"title": "new"}"#)
            try store.overwriteInPlace("books/b1500.json", with: #"{"title": "edited"}"#)
            try store.deleteFile("books/b6.json")
            try store.writeFile("books/b7.json", #"{"title": "replaced"}"#)
        }
        let caughtUp = try XCTUnwrap(recorder.snapshot(2))
        XCTAssertEqual(Set(caughtUp.documentChanges.map { "\(Self.name($0.type)) \($0.document.documentID)" }),
                       ["added new", "modified b1500", "removed b6", "modified b7"],
                       "the one snapshot after the overflow has every lost change")
        XCTAssertEqual(caughtUp.count, 2_000)
        let titles = Dictionary(uniqueKeysWithValues: caughtUp.documents.map { ($0.documentID, $0.get("title") as? String) })
        XCTAssertEqual(titles["b1500"], "edited")
        XCTAssertEqual(titles["b7"], "replaced")
        XCTAssertEqual(titles["new"], "new")
        XCTAssertNil(titles["b6"] ?? nil)
        try store.waitForLooks(at: "books")
        XCTAssertEqual(recorder.events.count, 2, "quiet ticks after the rescan deliver nothing")
        XCTAssertEqual(watcher.foldersListed.withLock { $0 } - listings, 1, "one full rescan")
        XCTAssertTrue(watcher.usesFileEvents, "events again after the rescan")

        try store.writeFile("books/after.json", #"{"title": "after"}"#)
        XCTAssertEqual(recorder.snapshot(3)?.documentChanges.map(\.document.documentID), ["after"])
        XCTAssertEqual(watcher.foldersListed.withLock { $0 } - listings, 1, "and no listing after it")
    }

    func testACollectionGroupReadsOnlyTheFileThatChanged() throws {
        try store.writeFile("shelves/a/books/one.json", #"{"title": "one"}"#)
        try store.writeFile("shelves/b/books/two.json", #"{"title": "two"}"#)
        let recorder = ListenerRecorder<QuerySnapshot>()
        track(db.collectionGroup("books").addSnapshotListener(recorder.listener))
        XCTAssertEqual(recorder.snapshot(1)?.count, 2)
        let reads = filesRead
        try store.overwriteInPlace("shelves/b/books/two.json", with: #"{"title": "owt"}"#)
        let edited = try XCTUnwrap(recorder.snapshot(2))
        XCTAssertEqual(edited.documentChanges.first?.document.get("title") as? String, "owt")
        XCTAssertEqual(filesRead - reads, 1)
    }

    /// The watcher's own inotify instance is followed by its descriptor: other tests' stores
    /// close theirs meanwhile, so the process's count says nothing of this one.
    func testNothingArrivesAfterRemoveAndTheQueueIsClosed() throws {
        try seed(3)
        let recorder = ListenerRecorder<QuerySnapshot>()
        let registration = db.collection("books").addSnapshotListener(recorder.listener)
        XCTAssertEqual(recorder.snapshot(1)?.count, 3)
        let source = try watcher()
        XCTAssertTrue(source.usesFileEvents)
        let descriptor = try XCTUnwrap(source.fileEventsDescriptor)
        XCTAssertTrue(Self.isInotify(descriptor))
        registration.remove()
        try store.writeFile("books/late.json", #"{"title": "late"}"#)
        // remove() stopped the watcher, and a queued callback checks for it before it runs:
        // once the queue is drained, nothing can come.
        store.drainCallbacks()
        XCTAssertEqual(recorder.events.count, 1, "after remove()")
        let closed = expectation(description: "the inotify instance is closed once the watcher is gone")
        DispatchQueue.global().async {
            for _ in 0..<400 where Self.isInotify(descriptor) { Thread.sleep(forTimeInterval: 0.05) }
            if !Self.isInotify(descriptor) { closed.fulfill() }
        }
        wait(for: [closed], timeout: 30)
    }

    private static func name(_ type: DocumentChangeType) -> String {
        switch type {
        case .added: "added"
        case .modified: "modified"
        case .removed: "removed"
        }
    }

    /// The inotify instances this process holds open.
    /// Whether the process's descriptor is an inotify instance.
    private static func isInotify(_ descriptor: Int32) -> Bool {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)")) == "anon_inode:inotify"
    }
}
