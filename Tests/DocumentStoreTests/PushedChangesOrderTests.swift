@testable import DocumentStore
import Foundation
import XCTest

/// A Firestore server answers a commit and pushes its listeners' changes on separate streams,
/// so a push older than this store's own commit can come after the commit's answer. The
/// listeners keep what the commit showed until the server's pushes reach the commit's time, as
/// Firebase's SDK keeps an acknowledged write; an older push never takes them back in time.
final class PushedChangesOrderTests: XCTestCase {
    /// Stores in a folder; its pushes are the test's.
    private final class PushingFolder: ChangePushingBackend, @unchecked Sendable {
        private let folder: StorageBackend
        private let receivers = Locked<[@Sendable (Result<PushedChanges, Error>) -> Void]>([])

        init(_ folder: StorageBackend) { self.folder = folder }

        var description: String { "a pushing folder" }
        var isReadOnly: Bool { false }
        func documents(at paths: [ResourcePath], store: Firestore) throws -> [StoredDocument] { try folder.documents(at: paths, store: store) }
        func documentTimes(_ paths: [ResourcePath]) throws -> [DocumentTimes?] { try folder.documentTimes(paths) }
        func commit(_ writes: [DocumentWrite], expecting expected: [ResourcePath: StoredDocument], store: Firestore) throws -> [WrittenDocument] {
            try folder.commit(writes, expecting: expected, store: store)
        }
        func results(of query: Query) throws -> [QueryDocumentSnapshot] { try folder.results(of: query) }
        func documentIDs(in collection: ResourcePath) throws -> Set<ExactID> { try folder.documentIDs(in: collection) }
        func collectionIDs(under parent: ResourcePath) throws -> [String] { try folder.collectionIDs(under: parent) }
        func close() { folder.close() }

        func follow(_ key: Firestore.WatchKey, store: Firestore,
                    receive: @escaping @Sendable (Result<PushedChanges, Error>) -> Void) -> @Sendable () -> Void {
            receivers.withLock { $0.append(receive) }
            return {}
        }

        func push(_ documents: [(String, StoredDocument)], everything: Bool = false, at readTime: Timestamp) throws {
            let changes = PushedChanges(isEverything: everything, documents: try documents.map { (try ResourcePath.parse($0.0, expectDocument: true), $0.1) }, readTime: readTime)
            for receive in receivers.withLock({ $0 }) { receive(.success(changes)) }
        }
    }

    private func pages(_ count: Int64) -> StoredDocument { .fields(Fields(["pages": .integer(count)])) }

    func testAPushOlderThanTheStoresOwnCommitDoesNotTakeItsDocumentBack() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pushed-order-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let backend = PushingFolder(try Firestore(directory: folder).backend)
        let db = Firestore(opened: StorePlace.Opened(backend: backend, directory: folder, location: folder), settings: FirestoreSettings(), app: nil,
                           databaseID: Firestore.defaultDatabaseID)
        let recorder = ListenerRecorder<QuerySnapshot>()
        let registration = db.collection("books").addSnapshotListener(recorder.listener)
        defer { registration.remove() }
        let start = Timestamp(seconds: 1_000, nanoseconds: 0)
        try backend.push([], everything: true, at: start)
        XCTAssertEqual(recorder.snapshot(1)?.count, 0)

        try db.document("books/dune").write(["pages": 412])
        XCTAssertEqual(recorder.snapshot(2)?.documents.first?.get("pages") as? Int, 412)
        let committed = try XCTUnwrap(try backend.documentTimes([ResourcePath.parse("books/dune", expectDocument: true)]).first??.updated)

        // The server's push of an older state (another client's write, before ours) comes late.
        try backend.push([("books/dune", pages(100))], at: Timestamp(seconds: committed.seconds - 1, nanoseconds: 0))
        // Then the server's push at our commit, then a later change: only that one is news.
        try backend.push([("books/dune", pages(412))], at: committed)
        try backend.push([("books/dune", pages(500))], at: Timestamp(seconds: committed.seconds + 1, nanoseconds: 0))
        XCTAssertEqual(recorder.snapshot(3)?.documents.first?.get("pages") as? Int, 500,
                       "the next snapshot is the later change, not the older push")
    }
}
