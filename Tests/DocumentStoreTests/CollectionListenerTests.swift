@testable import DocumentStore
import Foundation
import XCTest

/// Point 8, collection listeners: the first snapshot at once, then what other programs and the
/// store itself change, with Firestore's change types and indices; nothing when nothing changed;
/// nothing after `remove()`.
final class CollectionListenerTests: StoreTestCase {
    private func listen(_ query: Query? = nil) -> ListenerRecorder<QuerySnapshot> {
        let recorder = ListenerRecorder<QuerySnapshot>()
        track((query ?? db.collection("books")).addSnapshotListener(recorder.listener))
        return recorder
    }

    private func seed(_ ids: String...) throws {
        for id in ids { try store.writeFile("books/\(id).json", "{\"title\": \"\(id)\"}") }
    }

    /// Another program adds books/probe: a change each books listener is told of after
    /// whatever was coming before it (`ListenerRecorder.expectNothing`).
    private func addProbe() throws { try seed("probe") }

    private func isProbe(_ snapshot: QuerySnapshot) -> Bool { snapshot.changes.map(\.id) == ["probe"] }

    func testTheFirstSnapshotHasEveryDocumentAdded() throws {
        try seed("c", "a", "b")
        let recorder = listen()
        let first = try XCTUnwrap(recorder.snapshot(1))
        XCTAssertEqual(first.changes, [Change(.added, "a", nil, 0), Change(.added, "b", nil, 1), Change(.added, "c", nil, 2)])
        XCTAssertEqual(first.ids, ["a", "b", "c"])
        XCTAssertEqual(first.count, 3)
        XCTAssertFalse(first.isEmpty)
        XCTAssertEqual(first.documents[1].get("title") as? String, "b")
        XCTAssertEqual(first.documentChanges[0].oldIndex, UInt(NSNotFound))
        try recorder.expectNothing("quiet ticks after the first snapshot", before: {
            try store.waitForLooks(at: "books")
            try addProbe()
        }, isProbe: isProbe)
    }

    func testAMissingCollectionGivesAnEmptyFirstSnapshotThenItsDocuments() throws {
        let recorder = listen()
        let first = try XCTUnwrap(recorder.snapshot(1))
        XCTAssertTrue(first.isEmpty)
        XCTAssertEqual(first.changes, [])
        try seed("a")
        XCTAssertEqual(recorder.snapshot(2)?.changes, [Change(.added, "a", nil, 0)])
        try FileManager.default.removeItem(atPath: store.path("books"))
        XCTAssertEqual(recorder.snapshot(3)?.changes, [Change(.removed, "a", 0, nil)])
    }

    func testFilesCreatedReplacedAndDeletedByAnotherProgram() throws {
        try seed("a", "c")
        let recorder = listen()
        XCTAssertEqual(recorder.snapshot(1)?.ids, ["a", "c"])

        try store.writeFile("books/b.json", #"{"title": "new b"}"#)
        let created = try XCTUnwrap(recorder.snapshot(2))
        XCTAssertEqual(created.changes, [Change(.added, "b", nil, 1)])
        XCTAssertEqual(created.ids, ["a", "b", "c"])
        XCTAssertEqual(created.documentChanges[0].document.get("title") as? String, "new b")

        try store.writeFile("books/a.json", #"{"title": "replaced a"}"#)
        let replaced = try XCTUnwrap(recorder.snapshot(3))
        XCTAssertEqual(replaced.changes, [Change(.modified, "a", 0, 0)])
        XCTAssertEqual(replaced.documents[0].get("title") as? String, "replaced a")

        try store.deleteFile("books/c.json")
        let deleted = try XCTUnwrap(recorder.snapshot(4))
        XCTAssertEqual(deleted.changes, [Change(.removed, "c", 2, nil)])
        XCTAssertEqual(deleted.ids, ["a", "b"])
        XCTAssertEqual(deleted.documentChanges[0].newIndex, UInt(NSNotFound))

        // A file renamed over another: the source is removed, the target modified.
        XCTAssertEqual(rename(store.path("books/a.json"), store.path("books/b.json")), 0)
        recorder.latest("the rename over b") { $0.ids == ["b"] }
        let changes = recorder.snapshots.dropFirst(4).flatMap(\.changes)
        XCTAssertEqual(changes.filter { $0.id == "a" }, [Change(.removed, "a", 0, nil)])
        XCTAssertEqual(changes.filter { $0.id == "b" }.map(\.type), [.modified])
        XCTAssertEqual(recorder.snapshots.last?.documents[0].get("title") as? String, "replaced a")
        try recorder.expectNothing("after the rename", before: addProbe, isProbe: isProbe)
    }

    func testSeveralChangesInOneTickComeInFirestoresOrderWithStepByStepIndices() throws {
        let slow = try TemporaryStore(pollingInterval: 3600)
        defer { slow.remove() }
        for id in ["a", "c", "e"] { try slow.writeFile("books/\(id).json", "{\"title\": \"\(id)\"}") }
        let recorder = ListenerRecorder<QuerySnapshot>()
        let registration = slow.db.collection("books").addSnapshotListener(recorder.listener)
        defer { registration.remove() }
        XCTAssertEqual(recorder.snapshot(1)?.ids, ["a", "c", "e"])

        // The watcher held meanwhile, so no look runs until all of them are made: the files'
        // events (which wake it soon after the first) and the store's write (which wakes it
        // at once) are looked at together. The pause stands for a loaded machine, on which the
        // writes took longer than the events' wait.
        try slow.holdingWatcher(of: "books") {
            try slow.writeFile("books/b.json", #"{"title": "b"}"#)
            try slow.deleteFile("books/c.json")
            Thread.sleep(forTimeInterval: 0.1)
            try slow.writeFile("books/a.json", #"{"title": "a, replaced"}"#)
            try slow.db.document("books/d").write(["title": "d"])
        }
        // The store's own write comes in a snapshot of its own, pending (Firebase's latency
        // compensation), before or after the one of the files' changes, whichever the watcher
        // took first; the indices are the same either way.
        let snapshots = [try XCTUnwrap(recorder.snapshot(2)), try XCTUnwrap(recorder.snapshot(3))]
        let local = try XCTUnwrap(snapshots.first { $0.metadata.hasPendingWrites })
        XCTAssertEqual(local.changes, [Change(.added, "d", nil, 2)])
        let snapshot = try XCTUnwrap(snapshots.first { !$0.metadata.hasPendingWrites })
        // [a c (d) e] -c-> [a (d) e] +b-> [a b (d) e], then a modified in place.
        XCTAssertEqual(snapshot.changes, [Change(.removed, "c", 1, nil), Change(.added, "b", nil, 1), Change(.modified, "a", 0, 0)])
        XCTAssertEqual(snapshots[1].ids, ["a", "b", "d", "e"])
        XCTAssertEqual(snapshot.documents[0].get("title") as? String, "a, replaced")
        XCTAssertEqual(snapshot.documentChanges[0].document.get("title") as? String, "c", "a removed document is its last version")
        try recorder.expectNothing("a second snapshot for the same changes", before: { try slow.writeFile("books/probe.json", "{}") }, isProbe: isProbe)
    }

    func testAnInPlaceEditOfTheSameSizeIsModified() throws {
        try store.writeFile("books/a.json", #"{"title": "one"}"#)
        try seed("b")
        let recorder = listen()
        XCTAssertEqual(recorder.snapshot(1)?.ids, ["a", "b"])
        let before = try store.fileStatus("books/a.json")

        try store.overwriteInPlace("books/a.json", with: #"{"title": "two"}"#)
        let edited = try XCTUnwrap(recorder.snapshot(2))
        XCTAssertEqual(edited.changes, [Change(.modified, "a", 0, 0)])
        XCTAssertEqual(edited.documents[0].get("title") as? String, "two")
        let after = try store.fileStatus("books/a.json")
        XCTAssertEqual(after.inode, before.inode, "same inode")
        XCTAssertEqual(after.size, 16)
        XCTAssertEqual(before.size, 16)

        // Once more, well after the first edit (no longer "recent" to a coarse clock): the
        // next snapshot is the second edit's.
        try recorder.expectNothing("between the edits", before: {
            Thread.sleep(forTimeInterval: CollectionFolderChanges.racyWindow + 0.2)
            try store.overwriteInPlace("books/a.json", with: #"{"title": "six"}"#)
        }, isProbe: { $0.documents[0].get("title") as? String == "six" })
    }

    func testWritesThroughTheStoreArrive() throws {
        try seed("b")
        let recorder = listen()
        XCTAssertEqual(recorder.snapshot(1)?.ids, ["b"])
        let books = db.collection("books")
        try books.document("a").write(["title": "a"])
        XCTAssertEqual(recorder.snapshot(2)?.changes, [Change(.added, "a", nil, 0)])
        try books.document("b").update(["pages": 3])
        let updated = try XCTUnwrap(recorder.snapshot(3))
        XCTAssertEqual(updated.changes, [Change(.modified, "b", 1, 1)])
        XCTAssertEqual(updated.documents[1].get("pages") as? Int, 3)
        try books.document("a").deleteDocument()
        XCTAssertEqual(recorder.snapshot(4)?.changes, [Change(.removed, "a", 0, nil)])
        let added = try books.add(["title": "auto"])
        let fifth = try XCTUnwrap(recorder.snapshot(5))
        XCTAssertEqual(fifth.changes.map(\.type), [.added])
        XCTAssertEqual(fifth.changes.first?.id, added.documentID)
        try recorder.expectNothing("after the writes", before: addProbe, isProbe: isProbe)
    }

    func testTouchingAFileOrRewritingTheSameContentDeliversNothing() throws {
        try seed("a", "b")
        let recorder = listen()
        XCTAssertEqual(recorder.snapshot(1)?.ids, ["a", "b"])
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 5)], ofItemAtPath: store.path("books/a.json"))
        try store.writeFile("books/b.json", #"{"title": "b"}"#)  // same content, new inode
        try db.document("books/a").write(["title": "a"])     // same content through the store
        try recorder.expectNothing("touched and rewritten with the same content", before: addProbe, isProbe: isProbe)
    }

    func testAfterRemoveNoCallbackRunsAndTheWatcherIsGone() throws {
        try seed("a")
        let recorder = ListenerRecorder<QuerySnapshot>()
        let registration = db.collection("books").addSnapshotListener(recorder.listener)
        XCTAssertEqual(recorder.snapshot(1)?.ids, ["a"])
        XCTAssertEqual(db.activeWatcherCount, 1)
        registration.remove()
        XCTAssertEqual(db.activeWatcherCount, 0)
        registration.remove()
        XCTAssertEqual(db.activeWatcherCount, 0)

        try seed("b")
        try store.deleteFile("books/a.json")
        try db.document("books/c").write(["title": "c"])
        recorder.expectNothingAfter(1, "after remove()", witness: {
            XCTAssertEqual(listen().snapshot(1)?.ids, ["b", "c"])
        }, drain: store.drainCallbacks)
    }

    func testRemoveRightAfterAddingStopsEvenTheFirstSnapshot() throws {
        try seed("a")
        let recorder = ListenerRecorder<QuerySnapshot>()
        // Hold the callback queue so the first snapshot cannot run before remove().
        let gate = DispatchSemaphore(value: 0)
        store.callbackQueue.async { gate.wait() }
        let registration = db.collection("books").addSnapshotListener(recorder.listener)
        registration.remove()
        gate.signal()
        XCTAssertEqual(db.activeWatcherCount, 0)
        recorder.expectNothingAfter(0, "a listener removed before its first snapshot", witness: {
            XCTAssertEqual(listen().snapshot(1)?.ids, ["a"])
        }, drain: store.drainCallbacks)
    }

    func testTwoListenersOnOneCollectionShareOneWatcher() throws {
        try seed("a")
        let first = ListenerRecorder<QuerySnapshot>()
        let second = ListenerRecorder<QuerySnapshot>()
        let one = db.collection("books").addSnapshotListener(first.listener)
        let two = track(db.collection("books").addSnapshotListener(second.listener))
        XCTAssertEqual(db.activeWatcherCount, 1)
        XCTAssertEqual(first.snapshot(1)?.changes, [Change(.added, "a", nil, 0)])
        XCTAssertEqual(second.snapshot(1)?.changes, [Change(.added, "a", nil, 0)])

        // A third, added once the watcher has scanned, still gets its own first snapshot.
        let third = ListenerRecorder<QuerySnapshot>()
        let three = db.collection("books").addSnapshotListener(third.listener)
        XCTAssertEqual(third.snapshot(1)?.changes, [Change(.added, "a", nil, 0)])
        XCTAssertEqual(db.activeWatcherCount, 1)
        three.remove()

        one.remove()
        XCTAssertEqual(db.activeWatcherCount, 1, "the other listener keeps the watcher")
        try seed("b")
        // One look sends to the listeners in the order they joined: the second's snapshot is
        // queued after whatever would have gone to the first.
        first.expectNothingAfter(1, "the removed listener", witness: {
            XCTAssertEqual(second.snapshot(2)?.changes, [Change(.added, "b", nil, 1)])
        }, drain: store.drainCallbacks)
        XCTAssertEqual(third.events.count, 1)
        two.remove()
        XCTAssertEqual(db.activeWatcherCount, 0)
    }

    func testListenersOnDifferentCollectionsAreIndependent() throws {
        try seed("a")
        try store.writeFile("colors/red.json", #"{"name": "red"}"#)
        let books = listen()
        let colors = listen(db.collection("colors"))
        XCTAssertEqual(db.activeWatcherCount, 2)
        XCTAssertEqual(books.snapshot(1)?.ids, ["a"])
        XCTAssertEqual(colors.snapshot(1)?.ids, ["red"])
        try store.writeFile("colors/blue.json", #"{"name": "blue"}"#)
        XCTAssertEqual(colors.snapshot(2)?.changes, [Change(.added, "blue", nil, 0)])
        try books.expectNothing("a change in another collection", before: addProbe, isProbe: isProbe)
    }

    func testSubcollectionListener() throws {
        let reviews = db.collection("books/a/reviews")
        let recorder = listen(reviews)
        XCTAssertEqual(recorder.snapshot(1)?.count, 0)
        try reviews.document("r1").write(["stars": 5])
        XCTAssertEqual(recorder.snapshot(2)?.changes, [Change(.added, "r1", nil, 0)])
        // A document added to the parent collection is not in the subcollection.
        try seed("b")
        try recorder.expectNothing("a change in the parent collection", before: {
            try store.writeFile("books/a/reviews/probe.json", "{}")
        }, isProbe: isProbe)
    }

    func testAnInvalidPathDeliversAnError() throws {
        let recorder = ListenerRecorder<QuerySnapshot>()
        track(db.collection("books/hitchhiker").addSnapshotListener(recorder.listener))
        let error = recorder.error(1)
        XCTAssertEqual(error as? FirestoreErrorCode, DocumentStoreError.invalidPath(
            "books/hitchhiker", reason: "a collection path has an odd number of segments (collection or collection/document/collection), this one has 2"))
        XCTAssertEqual(db.activeWatcherCount, 0)
        // No watcher is left to send anything: what was sent is queued by now.
        store.drainCallbacks()
        XCTAssertEqual(recorder.events.count, 1, "after the error")
    }

    // Through a server, a listener's error removes its target for good, as Firestore's does.
    #if !SHELF_REMOTE_TESTS
    func testAFolderThatBecomesUnreadableReportsOnceAndRecovers() throws {
        try seed("a")
        let recorder = listen()
        XCTAssertEqual(recorder.snapshot(1)?.ids, ["a"])
        // The collection folder is replaced by a file: an error, said once.
        try FileManager.default.removeItem(atPath: store.path("books"))
        try "not a folder".write(toFile: store.path("books"), atomically: false, encoding: .utf8)
        XCTAssertNotNil(recorder.error(1))
        // A folder again, after looks that failed alike: the listener goes on with what
        // changed (in one snapshot or two, depending on whether a tick falls between the two
        // steps), told nothing before.
        try recorder.expectNothing("the same problem again", before: {
            try store.waitForLooks(at: "books")
            try FileManager.default.removeItem(atPath: store.path("books"))
            try seed("b")
        }, isProbe: { _ in true })
        recorder.latest("the folder's new content") { $0.ids == ["b"] }
        XCTAssertEqual(recorder.snapshots.dropFirst().flatMap(\.changes), [Change(.removed, "a", 0, nil), Change(.added, "b", nil, 0)])
    }

    /// A problem is said once to each listener: one that joins while its watcher keeps
    /// failing is told too, not left waiting in silence.
    func testAListenerJoiningWhileTheFolderCannotBeReadIsToldWhy() throws {
        try "not a folder".write(toFile: store.path("books"), atomically: false, encoding: .utf8)
        let first = listen()
        XCTAssertNotNil(first.error(1))
        let second = listen()
        XCTAssertNotNil(second.error(1), "the same problem, said to the listener that joined")
        try first.expectNothing("the problem again to the first", before: {
            try store.waitForLooks(at: "books")
            try FileManager.default.removeItem(atPath: store.path("books"))
            try addProbe()
        }, isProbe: { $0.ids == ["probe"] })
    }
    #endif
}
