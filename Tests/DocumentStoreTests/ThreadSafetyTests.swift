@testable import DocumentStore
import Foundation
import XCTest

/// Point 9: the store used from many threads and tasks at once (writes, reads, read-modify-write,
/// listeners added and removed) ends consistent, and runs clean under the thread sanitizer
/// (`swift test --sanitize=thread`).
final class ThreadSafetyTests: StoreTestCase {
    struct Entry: Codable, Equatable {
        @DocumentID var id: String?
        var worker: Int
        var round: Int
        @ServerTimestamp var writtenAt: Date?
    }

    func testManyThreadsWritingReadingAndListeningAtOnce() throws {
        let workers = 8
        let rounds = 25
        let collection = db.collection("busy")
        try collection.document("counter").write(["count": 0])
        let failures = Locked<[String]>([])
        let listenersSeen = Locked(0)

        // A listener that stays for the whole run, to check its final view.
        let steady = ListenerRecorder<QuerySnapshot>()
        track(collection.addSnapshotListener(steady.listener))

        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            do {
                for round in 0..<rounds {
                    let ref = collection.document("w\(worker)-\(round % 5)")
                    try ref.write(Entry(worker: worker, round: round))
                    try collection.document("counter").update(["count": FieldValue.increment(Int64(1))])
                    let snapshot = try ref.readSnapshot()
                    let entry = try snapshot.data(as: Entry.self)
                    if entry.worker != worker || entry.round != round {
                        failures.withLock { $0.append("w\(worker) read back \(entry) in round \(round)") }
                    }
                    if round % 5 == 0 {
                        let registration = collection.addSnapshotListener { snapshot, _ in
                            if snapshot != nil { listenersSeen.withLock { $0 += 1 } }
                        }
                        _ = try collection.readSnapshot()
                        registration.remove()
                    }
                    if round % 7 == 0 {
                        let documentListener = ref.addSnapshotListener { _, _ in }
                        try collection.document("w\(worker)-gone").write(["x": round])
                        try collection.document("w\(worker)-gone").deleteDocument()
                        documentListener.remove()
                    }
                }
            } catch {
                failures.withLock { $0.append("worker \(worker): \(error)") }
            }
        }
        XCTAssertEqual(failures.withLock { $0 }, [])

        let counter = try collection.document("counter").readSnapshot()
        XCTAssertEqual(counter.get("count") as? Int, workers * rounds, "no increment lost")
        let all = try collection.readSnapshot()
        let expectedIDs = ["counter"] + (0..<workers).flatMap { w in (0..<5).map { "w\(w)-\($0)" } }
        XCTAssertEqual(all.ids.sorted(), expectedIDs.sorted())
        for document in all.documents where document.documentID != "counter" {
            let entry = try document.data(as: Entry.self)
            // The last round that wrote this slot.
            let slot = Int(document.documentID.split(separator: "-")[1])!
            XCTAssertEqual(entry.round, (rounds - 1) - ((rounds - 1 - slot) % 5), document.documentID)
            XCTAssertNotNil(entry.writtenAt)
        }
        XCTAssertEqual(store.fileNames(in: "busy").filter { $0.hasPrefix(".") }, [], "no temporary file left")

        // The steady listener converges on the same documents, each with its final content.
        let final = steady.latest("the steady listener's final view") { snapshot in
            snapshot.ids == all.ids && (snapshot.documents.first { $0.documentID == "counter" }?.get("count") as? Int) == workers * rounds
        }
        XCTAssertNotNil(final)
        track(collection.addSnapshotListener { _, _ in })
        XCTAssertEqual(db.activeWatcherCount, 1, "only the steady listeners' watcher is left")
    }

    func testConcurrentTasksUseTheAsyncAPI() async throws {
        let collection = db.collection("tasks")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for round in 0..<10 {
                        let ref = collection.document("t\(worker)")
                        try ref.write(Entry(worker: worker, round: round))
                        let back = try await ref.getDocument(as: Entry.self)
                        XCTAssertEqual(back.worker, worker)
                        XCTAssertEqual(back.round, round)
                        _ = try await collection.getDocuments()
                    }
                }
            }
            try await group.waitForAll()
        }
        let snapshot = try await collection.getDocuments()
        XCTAssertEqual(snapshot.count, 8)
    }

    func testTwoThreadsWritingDifferentDocumentsOfOneCollectionLoseNothing() async throws {
        let collection = db.collection("pair")
        let errors = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { thread in
            for index in 0..<100 {
                do {
                    try collection.document("t\(thread)-\(index)").write(["thread": thread, "index": index])
                } catch {
                    errors.withLock { $0.append("\(error)") }
                }
            }
        }
        XCTAssertEqual(errors.withLock { $0 }, [])
        let snapshot = try await collection.getDocuments()
        XCTAssertEqual(snapshot.count, 200)
        for document in snapshot.documents {
            let thread = document.get("thread") as? Int
            let index = document.get("index") as? Int
            XCTAssertEqual(document.documentID, "t\(thread ?? -1)-\(index ?? -1)")
        }
    }

    func testSettingsFromManyThreads() throws {
        let db = self.db
        DispatchQueue.concurrentPerform(iterations: 8) { i in
            let settings = db.settings
            settings.pollingInterval = 0.05 + Double(i) / 1000
            db.settings = settings
            _ = db.settings.pollingInterval
            _ = db.isReadOnly
        }
        XCTAssertGreaterThanOrEqual(db.settings.pollingInterval, 0.05)
    }
}
