@testable import DocumentStore
import Foundation
import XCTest

/// A listener's first read of a large collection reports each slice as it is read,
/// with the documents of that slice, before the first snapshot (which still holds them all).
final class LoadProgressTests: StoreTestCase {
    private let count = 3_000

    override func setUpWithError() throws {
        try super.setUpWithError()
        // Plain files, as another program would leave them; faster to make than 3,000 writes.
        let books = store.root.appendingPathComponent("books")
        try FileManager.default.createDirectory(at: books, withIntermediateDirectories: true)
        for index in 0..<count {
            try Data(#"{"n": \#(index)}"#.utf8).write(to: books.appendingPathComponent(String(format: "b%05d.json", index)))
        }
    }

    /// What a listener was told, in the order it was told.
    private enum Event { case progress(LoadProgress), snapshot(QuerySnapshot) }

    private func events(of query: Query) throws -> [Event] {
        let events = Locked<[Event]>([])
        let first = expectation(description: "first snapshot")
        track(query.addSnapshotListener(progress: { progress in
            events.withLock { $0.append(.progress(progress)) }
        }) { snapshot, error in
            guard let snapshot else { return XCTFail("\(String(describing: error))") }
            let isFirst = events.withLock { events in
                defer { events.append(.snapshot(snapshot)) }
                return !events.contains { if case .snapshot = $0 { true } else { false } }
            }
            if isFirst { first.fulfill() }
        })
        wait(for: [first], timeout: 30)
        return events.withLock { $0 }
    }

    /// A first read takes its files into the tables unhashed, then indexes them once its
    /// snapshot is sent: neither while the readers need the cores nor at the first change.
    func testAFirstReadsTablesAreIndexedOnceItsSnapshotIsSent() throws {
        let books = db.collection("books")
        let first = expectation(description: "first snapshot")
        first.assertForOverFulfill = false
        track(books.addSnapshotListener { snapshot, _ in if snapshot != nil { first.fulfill() } })
        wait(for: [first], timeout: 30)
        let watcher = try XCTUnwrap(db.activeWatcher(.collection(books.collectionPath)))
        let changes = try XCTUnwrap(watcher.source as? CollectionFolderChanges)
        // On the watcher's queue, after the look that sent the snapshot.
        let (stamps, documents, unindexedStamps, unindexedDocuments) = watcher.queue.sync {
            (changes.stamps.count, watcher.documents.keys.count, changes.stamps.unindexed, watcher.documents.unindexed)
        }
        XCTAssertEqual(stamps, count)
        XCTAssertEqual(documents, count)
        XCTAssertEqual(unindexedStamps, 0)
        XCTAssertEqual(unindexedDocuments, 0)
        // A change is then found through the index.
        try Data(#"{"n": -1}"#.utf8).write(to: store.root.appendingPathComponent("books/b00007.json"))
        let seen = expectation(description: "the change")
        seen.assertForOverFulfill = false
        track(books.addSnapshotListener { snapshot, _ in
            if snapshot?.documents.first(where: { $0.documentID == "b00007" })?.data()["n"] as? Int == -1 { seen.fulfill() }
        })
        wait(for: [seen], timeout: 10)
        XCTAssertEqual(watcher.queue.sync { watcher.documents.keys.count }, count)
    }

    func testEachSliceIsReportedWithItsDocumentsBeforeTheFirstSnapshot() throws {
        let events = try events(of: db.collection("books"))
        let reports = events.compactMap { if case .progress(let progress) = $0 { progress } else { nil } }
        guard case .snapshot(let snapshot) = events.last else { return XCTFail("the first snapshot comes last") }
        XCTAssertEqual(snapshot.count, count)
        XCTAssertGreaterThanOrEqual(reports.count, 2, "a small first slice, then the rest")
        // The folder's first files are read before it is listed whole: its size is not known yet.
        XCTAssertEqual(reports.first?.read, ParallelReading.firstSlice, "the first slice is reported on its own")
        XCTAssertNil(reports.first?.total)
        XCTAssertEqual(reports.map(\.read), reports.map(\.read).sorted())
        XCTAssertEqual(reports.last?.read, count)
        XCTAssertTrue(reports.dropFirst().allSatisfy { $0.total == count })
        let reported = reports.flatMap(\.documents)
        XCTAssertEqual(reported.count, count, "each document reported once")
        XCTAssertEqual(db.files.filesRead.withLock { $0 }, count, "each file read once: the first ones, read before the listing, not again")
        XCTAssertEqual(Set(reported.map(\.documentID)), Set(snapshot.documents.map(\.documentID)))
        // The same snapshot objects: what an app derived from them while loading stays valid.
        let first = Dictionary(uniqueKeysWithValues: snapshot.documents.map { ($0.documentID, $0) })
        XCTAssertTrue(reported.allSatisfy { first[$0.documentID] === $0 })
    }

    func testAFilteredQueryIsToldOnlyItsDocuments() throws {
        let filtered = try events(of: db.collection("books").whereField("n", isLessThan: 100))
        let matching = filtered.flatMap { event -> [QueryDocumentSnapshot] in
            if case .progress(let progress) = event { progress.documents } else { [] }
        }
        XCTAssertEqual(Set(matching.map { $0.get("n") as? Int ?? -1 }), Set(0..<100))
    }

    func testALimitedQueryIsToldHowFarButNoDocuments() throws {
        let limited = try events(of: db.collection("books").order(by: "n").limit(to: 5))
        let reports = limited.compactMap { if case .progress(let progress) = $0 { progress } else { nil } }
        XCTAssertFalse(reports.isEmpty, "progress is still told")
        XCTAssertTrue(reports.allSatisfy(\.documents.isEmpty), "a limit's results need every document")
    }
}
