@testable import DocumentStore
@testable import DocumentStorePostgres
import Foundation
import XCTest

/// What the PostgreSQL backend must do beyond the shared store tests: its rows, atomic
/// batches, transactions from several clients, live changes between clients, recovery of a
/// listener whose connection dies, and clear errors about the server.
final class PostgresStoreTests: PostgresTestCase {
    func testDocumentsAreRowsThatReadWriteAndDelete() throws {
        try db.document("books/dune").write(["title": "Dune", "pages": 412, "ratio": 1e16, "zero": -0.0, "tags": ["sf"]])
        try db.document("books/dune/reviews/r1").write(["stars": 5])
        XCTAssertEqual(try sql("SELECT parent || ' ' || collection_id FROM shelf_documents WHERE path = 'books/dune/reviews/r1'"), "books/dune/reviews reviews")
        let read = try db.document("books/dune").readSnapshot()
        XCTAssertEqual(read.get("title") as? String, "Dune")
        XCTAssertEqual(read.stored.fields?["pages"], .integer(412))
        XCTAssertEqual(read.stored.fields?["ratio"], .double(1e16), "a double with an exponent stays a double through jsonb")
        XCTAssertEqual(read.stored.fields?["zero"], .double(-0.0), "-0.0 keeps its sign through jsonb")
        try db.batch().updateData(["pages": 413], forDocument: db.document("books/dune")).commitNow()
        XCTAssertEqual(try db.document("books/dune").readSnapshot().get("pages") as? Int, 413)
        XCTAssertEqual(try db.listCollections().map(\.collectionID), ["books"])
        XCTAssertEqual(try db.document("books/dune").listCollections().map(\.collectionID), ["reviews"])
        try db.document("books/dune").deleteDocument()
        XCTAssertFalse(try db.document("books/dune").readSnapshot().exists)
        XCTAssertEqual(try sql("SELECT count(*) FROM shelf_documents"), "1", "the subcollection's document stays, as in Firestore")
        XCTAssertEqual(try sql("SELECT version FROM shelf_schema"), "12", "every migration applied")
    }

    func testDocumentsWrittenBeforeCreateTimesWereKeptWereCreatedWhenLastWritten() throws {
        try db.document("books/old").write(["n": 1])
        // The database as migration 5 left it, with a document last written at a known time.
        try sql("""
            DROP TRIGGER shelf_documents_stamp_times ON shelf_documents; DROP FUNCTION shelf_stamp_times();
            DROP TRIGGER shelf_documents_keep_version ON shelf_documents;
            ALTER TABLE shelf_documents DROP COLUMN create_time;
            UPDATE shelf_documents SET update_time = '2020-01-02 03:04:05.678901+00'; UPDATE shelf_schema SET version = 5
            """)
        let times = try XCTUnwrap(try anotherClient().documentTimes(["books/old"]).first ?? nil)
        let written = try XCTUnwrap(Timestamp(rfc3339: "2020-01-02T03:04:05.678901Z"))
        XCTAssertEqual(times, DocumentTimes(created: written, updated: written))
        XCTAssertEqual(try sql("SELECT version FROM shelf_schema"), "12")
        try db.document("books/old").write(["n": 2])
        let rewritten = try XCTUnwrap(try db.documentTimes(["books/old"]).first ?? nil)
        XCTAssertEqual(rewritten.created, written, "the trigger keeps it from then on")
        XCTAssertGreaterThan(rewritten.updated, written)
    }

    func testABatchThatFailsWritesNothing() throws {
        try db.document("books/kept").write(["n": 1])
        let batch = db.batch()
        batch.setData(["n": 2], forDocument: db.document("books/kept"))
        batch.setData(["n": 3], forDocument: db.document("books/new"))
        batch.updateData(["n": 4], forDocument: db.document("books/missing"))
        let error = thrownError { try batch.commitNow() } as? FirestoreErrorCode
        XCTAssertEqual(error?.code, FirestoreErrorCode.notFound.rawValue)
        XCTAssertEqual(try sql("SELECT string_agg(path || '=' || (fields->>'n'), ',' ORDER BY path) FROM shelf_documents"), "books/kept=1")
    }

    func testFourClientsIncrementingInTransactionsEndAtExactlyOneThousand() throws {
        let counter = "counters/shared"
        try db.document(counter).write(["count": 0])
        let clients = try [db] + (0..<3).map { _ in try anotherClient() }
        let failures = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: clients.count) { index in
            let client = clients[index]
            let options = TransactionOptions()
            options.maxAttempts = 1000
            for _ in 0..<250 {
                do {
                    _ = try TransactionRunner(store: client, options: options).attempts { transaction, _ in
                        guard let snapshot = try? transaction.getDocument(client.document(counter)),
                              let count = snapshot.get("count") as? Int else { return nil }
                        transaction.updateData(["count": count + 1], forDocument: client.document(counter))
                        return nil
                    }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        XCTAssertEqual(failures.withLock { $0 }, [])
        XCTAssertEqual(try db.document(counter).readSnapshot().get("count") as? Int, 1000)
    }

    func testConcurrentIncrementsFromSeveralClientsLoseNone() throws {
        let clients = try [db] + (0..<3).map { _ in try anotherClient() }
        DispatchQueue.concurrentPerform(iterations: clients.count) { index in
            for _ in 0..<50 {
                try? clients[index].document("counters/hits").write(["hits": FieldValue.increment(Int64(1))], merge: true)
            }
        }
        XCTAssertEqual(try db.document("counters/hits").readSnapshot().get("hits") as? Int, 200)
    }

    func testTwoClientsSeeEachOthersWritesLive() throws {
        let other = try anotherClient()
        let here = ListenerRecorder<QuerySnapshot>()
        let there = ListenerRecorder<DocumentSnapshot>()
        track(db.collection("books").addSnapshotListener(here.listener))
        track(other.document("books/dune").addSnapshotListener(there.listener))
        XCTAssertEqual(here.snapshot(1)?.count, 0)
        XCTAssertEqual(there.snapshot(1)?.exists, false)
        try other.document("books/dune").write(["title": "Dune"])
        XCTAssertEqual(here.snapshot(2)?.changes, [Change(.added, "dune", nil, 0)], "the other client's write arrives here")
        XCTAssertEqual(there.snapshot(2)?.get("title") as? String, "Dune")
        try db.document("books/dune").write(["title": "Dune Messiah"])
        XCTAssertNotNil(there.latest("this client's write arrives there") { $0.get("title") as? String == "Dune Messiah" })
        XCTAssertEqual(here.snapshot(3)?.changes, [Change(.modified, "dune", 0, 0)])
    }

    func testAListenerWhoseConnectionIsKilledReconnectsAndMissesNothing() throws {
        let other = try anotherClient()
        let recorder = ListenerRecorder<QuerySnapshot>()
        track(db.collection("books").addSnapshotListener(recorder.listener))
        XCTAssertEqual(recorder.snapshot(1)?.count, 0)
        try other.document("books/a").write(["n": 1])
        XCTAssertEqual(recorder.snapshot(2)?.changes, [Change(.added, "a", nil, 0)])
        let listening = "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'"
        XCTAssertEqual(try sql(listening), "1", "one connection listens for this store")
        XCTAssertEqual(try sql("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'"), "1")
        // Written while nobody listens: the listener reads again when it is back.
        try other.document("books/b").write(["n": 2])
        try other.document("books/a").write(["n": 3])
        let caughtUp = try XCTUnwrap(recorder.latest("both changes after the reconnection") { snapshot in
            snapshot.documents.map { $0.get("n") as? Int } == [3, 2]
        })
        XCTAssertEqual(caughtUp.documents.map(\.documentID), ["a", "b"])
        let changes = recorder.snapshots.dropFirst().flatMap { $0.changes }
        XCTAssertEqual(changes.filter { $0.type == .added }.map { $0.id }, ["a", "b"], "each document is added once")
        try other.document("books/c").write(["n": 4])
        XCTAssertEqual(recorder.latest("a write after the reconnection") { $0.count == 3 }?.count, 3)
    }

    /// Issue 51: a folder's id rules (250 bytes, no leading dot) were PostgreSQL's too; a
    /// database holds the ids Firestore holds, up to 1,500 bytes.
    func testIDsTakeFirestoresRulesNotAFoldersOnes() async throws {
        let ids = [".hidden", String(repeating: "é", count: 750), ".." + "x"]
        for id in ids {
            try await db.collection("books").document(id).setData(["id": id])
            let read = try await db.collection("books").document(id).getDocument()
            XCTAssertEqual(read.get("id") as? String, id, "\(id.prefix(20)) (\(id.utf8.count) bytes)")
            try await db.document("books/\(id)/reviews/r").setData(["ok": true])
        }
        let listed = try await db.collection("books").getDocuments().documents.map(\.documentID)
        XCTAssertEqual(Set(listed), Set(ids))
        XCTAssertEqual(ResourcePath.problem(withID: ".x", rules: db.idRules), nil)
        let over = thrownError { try self.db.collection("books").document(String(repeating: "a", count: 1_501)).write(["x": 1]) }
        XCTAssertEqual((over as? FirestoreErrorCode)?.description.contains("at most 1,500 bytes"), true, "\(String(describing: over))")
    }

    func testAStoreOnTheServerHasNoFilesAndIsNamedByItsURLWithoutPassword() throws {
        XCTAssertNil(db.fileURL(for: "books/dune"))
        XCTAssertNil(db.fileURL(for: "books"))
        XCTAssertEqual(db.placeName, "postgresql://\(try cluster.user)@\(try cluster.host):\(try cluster.port)/\(database)")
    }

    func testAWrongPasswordNamesTheServerAndTheReason() throws {
        let url = try cluster.url(database: database, password: "wrong")
        let error = thrownError { _ = try Firestore(url: url) } as? FirestoreErrorCode
        XCTAssertEqual(error?.code, FirestoreErrorCode.permissionDenied.rawValue)
        let server = "postgresql://\(try cluster.user)@\(try cluster.host):\(try cluster.port)/\(database)"
        XCTAssertTrue(error?.description.contains(server) == true, error?.description ?? "no error")
        XCTAssertTrue(error?.description.contains("password authentication failed") == true, error?.description ?? "no error")
        XCTAssertFalse(error?.description.contains("wrong") == true, "the password is never shown")
    }

    func testAMissingDatabaseAndAnUnreachableServerAreSaidClearly() throws {
        let missing = thrownError { _ = try Firestore(url: try cluster.url(database: "no_such_database")) } as? FirestoreErrorCode
        XCTAssertEqual(missing?.code, FirestoreErrorCode.notFound.rawValue)
        XCTAssertTrue(missing?.description.contains("/no_such_database") == true, missing?.description ?? "no error")
        XCTAssertTrue(missing?.description.contains("does not exist") == true, missing?.description ?? "no error")
        let port = try PostgresCluster.freePort()  // no server listens there
        let closed = URL(string: "postgresql://shelf:secret@127.0.0.1:\(port)/shelf")!
        let unreachable = thrownError { _ = try Firestore(url: closed) } as? FirestoreErrorCode
        XCTAssertEqual(unreachable?.code, FirestoreErrorCode.unavailable.rawValue)
        XCTAssertEqual(unreachable?.description, "cannot open the store at postgresql://shelf@127.0.0.1:\(port)/shelf: Connection refused")
        XCTAssertEqual(unreachable?.errorUserInfo[NSLocalizedFailureReasonErrorKey] as? String, "Connection refused",
                       "the reason alone, for an app to say beside the server")
    }
}

/// A client whose connection dies in the middle of a commit.
final class PostgresKilledClientTests: PostgresTestCase {
    func testAClientKilledInTheMiddleOfACommitLeavesNothingAndTheStoreReconnects() throws {
        try db.document("books/kept").write(["n": 1])
        let server = try XCTUnwrap(db.backend as? DocumentServer)
        let error = thrownError {
            _ = try server.transact(locking: ["books/kept", "books/new"]) { current, _ in
                XCTAssertEqual(current.map(\.path), ["books/kept"])
                // The store's connection holds the locks, idle in its transaction: kill it.
                XCTAssertEqual(try self.sql("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = current_database() AND state = 'idle in transaction'"), "1")
                return [ServerDocument(path: "books/kept", json: #"{"n": 2}"#), ServerDocument(path: "books/new", json: #"{"n": 3}"#)]
            }
        } as? FirestoreErrorCode
        XCTAssertEqual(error?.code, FirestoreErrorCode.unavailable.rawValue)
        XCTAssertTrue(error?.description.hasPrefix("cannot commit to postgresql://") == true, error?.description ?? "no error")
        XCTAssertEqual(try sql("SELECT string_agg(path || '=' || (fields->>'n'), ',' ORDER BY path) FROM shelf_documents"), "books/kept=1")
        try db.document("books/new").write(["n": 4])
        XCTAssertEqual(try db.document("books/new").readSnapshot().get("n") as? Int, 4, "the next call connects again")
    }
}

/// `listDocuments` and `listCollections` on PostgreSQL, as a tool walking a store uses them.
final class PostgresListingTests: PostgresTestCase {
    func testDocumentsAndCollectionsAreListedWithMissingParentsAndUnicodeIds() throws {
        try db.document("books/dune").write(["n": 1])
        try db.document("books/caf\u{E9}/reviews/r1").write(["n": 2])    // café: its parent is missing
        try db.document("books/cafe\u{301}").write(["n": 3])              // café decomposed: another id
        try db.document("films/alien").write(["n": 4])
        let ids = try db.collection("books").listDocuments().map(\.documentID)
        XCTAssertEqual(Set(ids.map { Array($0.utf8) }), Set(["dune", "caf\u{E9}", "cafe\u{301}"].map { Array($0.utf8) }))
        XCTAssertEqual(try db.listCollections().map(\.collectionID), ["books", "films"])
        XCTAssertEqual(try db.document("books/caf\u{E9}").listCollections().map(\.collectionID), ["reviews"])
        XCTAssertEqual(try db.document("books/cafe\u{301}/reviews/r1").parent.listDocuments().count, 0)
    }

    /// Collections are listed by skipping through the index from one id to the next: ids that
    /// sort between "a" and "a/…" ("a-b", "a.b"), after them ("a0", "ab"), nested ones, and
    /// collections of documents whose ids extend one another are all found, each once.
    func testCollectionsAreListedPastIdsThatSortAmongTheirSubcollections() throws {
        let paths = ["a/1", "a/1/x/1", "a/1/x-y/1", "a/1/x0/1", "a-b/1", "a.b/1", "a0/1", "ab/1", "a/1/sub/2/deep/3",
                     "a/10/y/1", "\u{E9}t\u{E9}/1", "z/1"]
        for path in paths { try db.document(path).write(["n": 1]) }
        XCTAssertEqual(try db.listCollections().map(\.collectionID), ["a", "a-b", "a.b", "a0", "ab", "z", "\u{E9}t\u{E9}"])
        XCTAssertEqual(try db.document("a/1").listCollections().map(\.collectionID), ["sub", "x", "x-y", "x0"])
        XCTAssertEqual(try db.document("a/10").listCollections().map(\.collectionID), ["y"])
        XCTAssertEqual(try db.document("a/1/sub/2").listCollections().map(\.collectionID), ["deep"])
        XCTAssertEqual(try db.document("a/2").listCollections().map(\.collectionID), [])
    }

    /// The documents with collections below them are found by the same kind of walk, in one
    /// statement (asking each document would be a query per document): ids that sort between
    /// "b" and "b/…", after them, nested collections, a missing document, and none of the
    /// collections beside this one.
    func testDocumentsWithCollectionsAreFoundPastIdsThatSortAmongTheirSubcollections() throws {
        let paths = ["s/plain", "s/b", "s/b/reviews/r1", "s/b/reviews/r1/comments/c1", "s/b-c/x/1", "s/b.c/x/1", "s/b0/x/1",
                     "s/ghost/x/1", "s/\u{E9}/x/1", "s2/other/x/1", "s-t/q/x/1"]
        for path in paths { try db.document(path).write(["n": 1]) }
        XCTAssertEqual(try db.collection("s").listDocumentsWithCollections().map(\.documentID), ["b", "b-c", "b.c", "b0", "ghost", "\u{E9}"],
                       "each once, by their bytes")
        XCTAssertEqual(try db.collection("s/b/reviews").listDocumentsWithCollections().map(\.documentID), ["r1"])
        XCTAssertEqual(try db.collection("s2").listDocumentsWithCollections().map(\.documentID), ["other"])
        XCTAssertEqual(try db.collection("none").listDocumentsWithCollections().map(\.documentID), [])
    }
}
