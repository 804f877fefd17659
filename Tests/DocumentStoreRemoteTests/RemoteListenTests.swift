@testable import DocumentStore
import DocumentStoreRemote
import Foundation
import XCTest

/// Listeners through one Listen stream: each query a target of its own, and listeners that
/// carry on when the server comes back.
final class RemoteListenTests: StoreTestCase {
    private func seedBooks() throws {
        let batch = db.batch()
        for (id, pages) in [("dune", 412), ("emma", 50), ("ulysses", 730)] {
            batch.setData(["pages": pages], forDocument: db.document("books/\(id)"))
        }
        try batch.commitNow()
    }

    func testAListenedQueryHoldsOnlyItsOwnDocumentsNotItsCollection() throws {
        try seedBooks()
        let long = db.collection("books").whereField("pages", isGreaterThan: 400)
        let recorder = ListenerRecorder<QuerySnapshot>()
        track(long.addSnapshotListener(recorder.listener))
        XCTAssertEqual(recorder.snapshot(1)?.documents.map(\.documentID), ["dune", "ulysses"])
        let watcher = try XCTUnwrap(db.activeWatcher(.query(long.definition)), "the query is followed on its own")
        XCTAssertEqual(Set(watcher.currentDocuments.map(\.documentID)), ["dune", "ulysses"], "the server sent only the matches")
        db.document("books/emma").updateData(["pages": 500])
        XCTAssertEqual(recorder.snapshot(2)?.documentChanges.map { "\($0.type) \($0.document.documentID)" }, ["added emma"])
    }

    func testTwoQueriesOfOneCollectionAreTwoTargetsAndRemovingOneKeepsTheOther() throws {
        try seedBooks()
        let long = ListenerRecorder<QuerySnapshot>(), short = ListenerRecorder<QuerySnapshot>()
        let longRegistration = db.collection("books").whereField("pages", isGreaterThan: 400).addSnapshotListener(long.listener)
        track(db.collection("books").whereField("pages", isLessThan: 400).addSnapshotListener(short.listener))
        XCTAssertEqual(long.snapshot(1)?.count, 2)
        XCTAssertEqual(short.snapshot(1)?.documents.map(\.documentID), ["emma"])
        XCTAssertEqual(db.activeWatcherCount, 2)
        longRegistration.remove()
        XCTAssertEqual(db.activeWatcherCount, 1)
        try db.document("books/war").write(["pages": 1200])  // one the removed listener would be sent
        try db.document("books/persuasion").write(["pages": 250])
        // The server sends the targets' changes in the order they were made, on one stream.
        long.expectNothingAfter(1, "a removed listener", witness: {
            XCTAssertEqual(short.snapshot(2)?.documents.map(\.documentID), ["emma", "persuasion"])
        }, drain: store.drainCallbacks)
    }

    func testAListenerCarriesOnWhenTheServerComesBackAndSeesWhatChangedMeanwhile() throws {
        try seedBooks()
        let recorder = ListenerRecorder<QuerySnapshot>()
        track(db.collection("books").addSnapshotListener(recorder.listener))
        XCTAssertEqual(recorder.snapshot(1)?.count, 3)
        let served = try XCTUnwrap(store.served)
        let port = try XCTUnwrap(Int(served.address.split(separator: ":").last ?? ""))
        served.stopAndWait()
        XCTAssertThrowsError(try db.document("books/dune").readDocument(), "the server is gone")
        // Meanwhile another program changes the folder.
        try store.writeFile("books/persuasion.json", #"{"pages": 250}"#)
        try store.deleteFile("books/emma.json")
        let again = try ServedFolder(root: store.root, port: port)
        defer { again.stop() }
        recorder.latest("the changes made while the server was away", timeout: 20) { $0.documents.map(\.documentID) == ["dune", "persuasion", "ulysses"] }
        XCTAssertEqual(recorder.snapshots.dropFirst().flatMap(\.documentChanges).map { "\($0.type) \($0.document.documentID)" }.sorted(),
                       ["added persuasion", "removed emma"], "only what changed, once")
    }

    /// Another program writes a file into the folder `shelf serve` serves (settings as the
    /// command's): a collection listener of a client sees it, as the Python client's does.
    func testAFileWrittenIntoTheServedFolderReachesACollectionListener() throws {
        let served = try TemporaryStore(pollingInterval: FirestoreSettings().pollingInterval)
        defer { served.remove() }
        try served.db.document("books/dune").write(["pages": 412])
        let recorder = ListenerRecorder<QuerySnapshot>()
        let registration = served.db.collection("books").addSnapshotListener(recorder.listener)
        defer { registration.remove() }
        XCTAssertEqual(recorder.snapshot(1)?.documents.map(\.documentID), ["dune"])
        try served.writeFile("books/persuasion.json", #"{"pages": 250}"#)
        recorder.latest("the file written into the folder", timeout: 30) { $0.documents.map(\.documentID) == ["dune", "persuasion"] }
        try served.writeFile("books/emma.json", #"{"pages": 50}"#)
        recorder.latest("a second file", timeout: 30) { $0.documents.map(\.documentID) == ["dune", "emma", "persuasion"] }
    }
}
