@testable import DocumentStore
import Foundation
import XCTest

/// Point 8, document listeners (`ref.addSnapshotListener`): created, modified (by rename and in
/// place) and deleted by another program or through the store; nothing when nothing changed or
/// after `remove()`; an invalid path is an error.
final class DocumentListenerTests: StoreTestCase {
    private func listen(_ path: String = "books/hitchhiker") -> ListenerRecorder<DocumentSnapshot> {
        let recorder = ListenerRecorder<DocumentSnapshot>()
        track(db.document(path).addSnapshotListener(recorder.listener))
        return recorder
    }

    func testAnExistingDocumentArrivesAtOnceThenWritesThroughTheStore() throws {
        try store.writeFile("books/hitchhiker.json", #"{"title": "one", "numberOfPages": 816}"#)
        let recorder = listen()
        XCTAssertEqual(recorder.snapshot(1)?.get("numberOfPages") as? Int, 816)
        let ref = db.document("books/hitchhiker")
        try ref.update(["numberOfPages": 42])
        XCTAssertEqual(recorder.snapshot(2)?.get("numberOfPages") as? Int, 42)
        try ref.deleteDocument()
        XCTAssertEqual(recorder.snapshot(3)?.exists, false)
        try ref.write(["title": "back"])
        XCTAssertEqual(recorder.snapshot(4)?.get("title") as? String, "back")
    }

    // Folder mechanics (in-place edits, modification times): PostgreSQL has its own tests of
    // other clients' writes (PostgresStoreTests).
    #if !SHELF_POSTGRES_TESTS
    /// Another program writes books/hitchhiker with `title`: a change its listeners are told
    /// of after whatever was coming before it (`ListenerRecorder.expectNothing`).
    private func probe(_ title: String) -> () throws -> Void {
        { [store] in try store!.writeFile("books/hitchhiker.json", "{\"title\": \"\(title)\"}") }
    }

    private func isProbe(_ title: String) -> (DocumentSnapshot) -> Bool {
        { $0.get("title") as? String == title }
    }

    func testCreateModifyDeleteByAnotherProgram() throws {
        let recorder = listen()
        let first = try XCTUnwrap(recorder.snapshot(1))
        XCTAssertFalse(first.exists)
        XCTAssertEqual(first.documentID, "hitchhiker")
        XCTAssertEqual(first.reference.path, "books/hitchhiker")

        try store.writeFile("books/hitchhiker.json", #"{"title": "one"}"#)
        let created = try XCTUnwrap(recorder.snapshot(2))
        XCTAssertTrue(created.exists)
        XCTAssertEqual(created.get("title") as? String, "one")

        try store.writeFile("books/hitchhiker.json", #"{"title": "two!"}"#)
        XCTAssertEqual(recorder.snapshot(3)?.get("title") as? String, "two!")

        try store.overwriteInPlace("books/hitchhiker.json", with: #"{"title": "six!"}"#)
        XCTAssertEqual(recorder.snapshot(4)?.get("title") as? String, "six!")

        try store.deleteFile("books/hitchhiker.json")
        let deleted = try XCTUnwrap(recorder.snapshot(5))
        XCTAssertFalse(deleted.exists)
        XCTAssertNil(deleted.data())
        try recorder.expectNothing("after the delete", before: probe("probe"), isProbe: isProbe("probe"))
    }

    func testNothingIsDeliveredWhenNothingChanged() throws {
        try store.writeFile("books/hitchhiker.json", #"{"title": "one"}"#)
        let recorder = listen()
        XCTAssertNotNil(recorder.snapshot(1))
        try recorder.expectNothing("quiet ticks", before: {
            try store.waitForLooks(at: "books/hitchhiker")
            try probe("two")()
        }, isProbe: isProbe("two"))
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 10)], ofItemAtPath: store.path("books/hitchhiker.json"))
        try store.writeFile("books/hitchhiker.json", #"{"title": "two"}"#)
        try db.document("books/hitchhiker").write(["title": "two"])
        try store.writeFile("books/other.json", #"{"title": "another document"}"#)
        try recorder.expectNothing("touched, rewritten with the same content, a neighbour changed",
                                   before: probe("three"), isProbe: isProbe("three"))
    }

    #endif

    func testAfterRemoveNoCallbackRuns() throws {
        let recorder = ListenerRecorder<DocumentSnapshot>()
        let registration = db.document("books/hitchhiker").addSnapshotListener(recorder.listener)
        XCTAssertNotNil(recorder.snapshot(1))
        XCTAssertEqual(db.activeWatcherCount, 1)
        registration.remove()
        registration.remove()
        XCTAssertEqual(db.activeWatcherCount, 0)
        try store.writeFile("books/hitchhiker.json", #"{"title": "one"}"#)
        try db.document("books/hitchhiker").update(["title": "two"])
        recorder.expectNothingAfter(1, "after remove()", witness: {
            XCTAssertEqual(listen().snapshot(1)?.get("title") as? String, "two")
        }, drain: store.drainCallbacks)
    }

    func testDocumentAndCollectionListenersHaveTheirOwnWatchersAndShareAmongThemselves() throws {
        let one = listen()
        let two = listen()
        let collection = ListenerRecorder<QuerySnapshot>()
        track(db.collection("books").addSnapshotListener(collection.listener))
        XCTAssertEqual(db.activeWatcherCount, 2)
        XCTAssertNotNil(one.snapshot(1))
        XCTAssertNotNil(two.snapshot(1))
        XCTAssertNotNil(collection.snapshot(1))
        try db.document("books/hitchhiker").write(["title": "T"])
        XCTAssertEqual(one.snapshot(2)?.get("title") as? String, "T")
        XCTAssertEqual(two.snapshot(2)?.get("title") as? String, "T")
        XCTAssertEqual(collection.snapshot(2)?.changes, [Change(.added, "hitchhiker", nil, 0)])
    }

    func testAnInvalidPathDeliversAnError() throws {
        let recorder = listen("books/..")
        XCTAssertEqual(recorder.error(1) as? FirestoreErrorCode, DocumentStoreError.invalidPath("books/..", reason: "an id cannot be \".\" or \"..\""))
        XCTAssertEqual(db.activeWatcherCount, 0)
        // No watcher is left to send anything: what was sent is queued by now.
        store.drainCallbacks()
        XCTAssertEqual(recorder.events.count, 1, "after the error")
    }

    func testAListenerInAMissingSubcollectionSeesTheDocumentAppear() throws {
        let recorder = listen("books/hitchhiker/reviews/r1")
        XCTAssertEqual(recorder.snapshot(1)?.exists, false)
        try db.document("books/hitchhiker/reviews/r1").write(["stars": 5])
        XCTAssertEqual(recorder.snapshot(2)?.get("stars") as? Int, 5)
    }
}
