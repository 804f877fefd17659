@testable import DocumentStore
@testable import DocumentStorePostgres
import Foundation
import XCTest

/// Pages ordered by a field are served by that field's index, made once per database, beside
/// writers (`CREATE INDEX CONCURRENTLY`): the first such page waits for it, a list's columns
/// have theirs made ahead (`prepareOrder`), and the planner learns each (ANALYZE), so the next
/// pages read the index instead of sorting the collection (which PostgreSQL would do, guessing
/// from no statistics, after a bulk load that autovacuum has not yet looked at).
final class PostgresOrderIndexTests: PostgresTestCase {
    private let orderIndexes = "SELECT count(*) FROM pg_indexes WHERE indexname LIKE 'shelf\\_order\\_%'"
    private var postgres: PostgresServer { get throws { try XCTUnwrap(db.backend as? PostgresServer) } }

    private func writeBooks() throws {
        let batch = db.batch()
        for index in 0..<300 { batch.setData(["rating": index % 7, "title": "t\(index)"], forDocument: db.document("books/b\(index)")) }
        try batch.commitNow()
    }

    private func index(of query: Query) throws -> PostgresOrderIndexes.Index {
        try XCTUnwrap(PostgresPageQuery.orderIndex(XCTUnwrap(ServerPage(query.definition))))
    }

    func testTheFirstPageByAFieldWaitsForItsIndexAndTheStatisticsOfItsExpressions() async throws {
        try writeBooks()
        XCTAssertEqual(try sql(orderIndexes), "0")
        let page = try await db.collection("books").order(by: "rating", descending: true).limit(to: 5).getDocuments()
        XCTAssertEqual(page.documents.map { $0.get("rating") as? Int }, [6, 6, 6, 6, 6])
        XCTAssertEqual(try sql(orderIndexes), "1", "the index is made")
        XCTAssertEqual(try sql("SELECT bool_and(indisvalid) FROM pg_index WHERE indexrelid::regclass::text LIKE 'shelf\\_order\\_%'"), "t")
        XCTAssertNotEqual(try sql("SELECT count(*) FROM pg_stats WHERE tablename LIKE 'shelf\\_order\\_%'"), "0",
                          "the planner has statistics of the index's expressions")
        _ = try await db.collection("books").order(by: "rating").limit(to: 5).getDocuments()
        XCTAssertEqual(try postgres.orderIndexes.built, 1, "one index serves both directions")
    }

    func testAPageStatesEachOrderedFieldsPresenceOnce() throws {
        let page = try XCTUnwrap(ServerPage(db.collection("books").order(by: "title").order(by: "rating").limit(to: 5).definition))
        let sql = PostgresPageQuery(page).query.sql
        for field in ["title", "rating"] {
            XCTAssertEqual(sql.components(separatedBy: "-> '\(field)' IS NOT NULL").count - 1, 1, sql)
        }
    }

    func testAPreparedOrderIsMadeInTheBackgroundAndItsFirstPageFindsItThere() async throws {
        try writeBooks()
        let byTitle = db.collection("books").order(by: "title")
        byTitle.prepareOrder()
        db.collection("books").order(by: FieldPath.documentID()).prepareOrder()  // by id: the migrations' index
        let page = try await byTitle.limit(to: 2).getDocuments()
        XCTAssertEqual(page.documents.map(\.documentID), ["b0", "b1"])
        XCTAssertEqual(try sql(orderIndexes), "1")
        XCTAssertEqual(try postgres.orderIndexes.built, 1, "the page waited for the build prepared, not a second one")
    }

    /// As Firestore's orders leave out documents without the field, its index holds only those
    /// that have it; pages read along it, filtered on the field or not.
    func testAnOrderIndexHoldsOnlyTheDocumentsThatHaveTheField() async throws {
        // Enough rows that reading along an index beats sorting them; a quarter without "n".
        try sql("""
            SELECT set_config('shelf.writer', 'on', false);
            INSERT INTO shelf_documents (path, parent, collection_id, fields)
            SELECT 'big/d' || i, 'big', 'big', CASE WHEN i % 4 = 0 THEN '{}'::jsonb ELSE jsonb_build_object('n', i % 7) END
            FROM generate_series(1, 8000) AS i;
            ANALYZE shelf_documents
            """)
        let byN = db.collection("big").order(by: "n", descending: true).limit(to: 20)
        let filtered = db.collection("big").whereField("n", isGreaterThan: 2).order(by: "n").limit(to: 20)
        let server = try postgres
        XCTAssertEqual(try server.readPage(XCTUnwrap(ServerPage(byN.definition))).count, 20)  // makes the index
        let index = try index(of: byN)
        XCTAssertEqual(index.name, try self.index(of: filtered).name, "one index serves both")
        XCTAssertEqual(try sql("SELECT reltuples::integer FROM pg_class WHERE oid = '\(index.name)'::regclass"), "6000", "the rows that have n")
        for (query, n) in [(byN, 6), (filtered, 3)] {
            let page = try XCTUnwrap(ServerPage(query.definition))
            let documents = try await query.getDocuments().documents
            XCTAssertEqual(documents.map { $0.get("n") as? Int }, Array(repeating: n, count: 20))
            let plan = try server.plan(of: page)
            XCTAssertTrue(plan.contains("Index Scan") && plan.contains(index.name), "\(query.definition): \(plan)")
            XCTAssertFalse(plan.contains("Sort"), "\(query.definition): \(plan)")
        }
        XCTAssertEqual(server.orderIndexes.built, 1)
    }

    func testAnIndexLeftInvalidByAFailedBuildIsDroppedAndMadeAgain() async throws {
        try writeBooks()
        let byRating = db.collection("books").order(by: "rating")
        let index = try index(of: byRating)
        // What a build cut short leaves (a client gone mid-way): the index, marked invalid.
        try sql(index.creation.replacingOccurrences(of: "CONCURRENTLY ", with: ""))
        try sql("UPDATE pg_index SET indisvalid = false WHERE indexrelid = '\(index.name)'::regclass")
        let page = try await byRating.limit(to: 3).getDocuments()
        XCTAssertEqual(page.documents.map { $0.get("rating") as? Int }, [0, 0, 0])
        XCTAssertEqual(try sql("SELECT indisvalid FROM pg_index WHERE indexrelid = '\(index.name)'::regclass"), "t")
        XCTAssertEqual(try postgres.orderIndexes.built, 1)
    }

    /// Autovacuum runs with an empty search_path: the functions of the indexes' expressions
    /// call one another by their schema's name, or the server's own upkeep of the table fails
    /// (its analyze did, at every try, before migration 10).
    func testTheServersOwnVacuumAndAnalyzeFindTheFunctionsOfEveryIndex() async throws {
        let batch = db.batch()
        for index in 0..<50 { batch.setData(["tags": ["t\(index % 3)", index]], forDocument: db.document("books/b\(index)")) }
        try batch.commitNow()
        let page = try await db.collection("books").order(by: "tags").limit(to: 1).getDocuments()  // an index of arrays' texts
        XCTAssertEqual(page.documents.map(\.documentID), ["b0"])
        for upkeep in ["ANALYZE", "VACUUM"] {
            XCTAssertNoThrow(try cluster.psql("\(upkeep) public.shelf_documents", database: database, options: "-c search_path="), upkeep)
        }
    }

    func testAnotherClientsIndexIsUsedAsItIs() async throws {
        try writeBooks()
        let other = try anotherClient()
        _ = try await other.collection("books").order(by: "rating").limit(to: 1).getDocuments()
        _ = try await db.collection("books").order(by: "rating").limit(to: 1).getDocuments()
        XCTAssertEqual(try sql(orderIndexes), "1")
        XCTAssertEqual(try postgres.orderIndexes.built, 0, "found there, not built again")
        XCTAssertEqual(try postgres.orderIndexes.buildersStarted, 0, "found on the page's own connection: no builder connected to look")
    }

    func testAnIndexTriedWhileTheServerWasDownIsTriedAgainOnceItIsBack() async throws {
        let own = try PostgresCluster.startOwn()
        defer { own.stop() }
        try own.psql("CREATE DATABASE books")
        let store = try Firestore(url: own.url(database: "books"), settings: FirestoreSettings())
        defer { store.backend.close() }
        try await store.document("books/a").setData(["rating": 1])
        let server = try XCTUnwrap(store.backend as? PostgresServer)
        let byRating = store.collection("books").order(by: "rating").limit(to: 1)
        try own.stopServer()
        do {
            _ = try await byRating.getDocuments()
            XCTFail("the server is down")
        } catch {}
        XCTAssertEqual(server.orderIndexes.built, 0)
        try own.startServer()
        var page = try? await byRating.getDocuments()  // the pool's connection from before may fail once
        if page == nil { page = try await byRating.getDocuments() }
        XCTAssertEqual(page?.documents.map(\.documentID), ["a"])
        XCTAssertEqual(server.orderIndexes.built, 1, "tried again, and made")
    }
}
