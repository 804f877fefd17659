@testable import DocumentStore
@testable import DocumentStorePostgres
import Foundation
import XCTest

/// PostgreSQL orders ids as Firestore does, numeric ids (`__id<n>__`) first by their number,
/// exactly as `IDOrder` says: its keys sort ids and paths alike; the pages it cuts (by id both
/// ways, limits from either end, cursors, ranges on the id, collection groups, ties on a field
/// broken by id) and the doubles it adds up are the folder backend's; indexes serve those pages;
/// and a database made before the keys gets them when a client opens it.
final class PostgresIDOrderTests: PushdownTestCase {
    /// Ids the store takes: numeric ones at both ends of 64 bits and one number spelled two ways,
    /// beside ids whose bytes sort before and after "_".
    static let ids = ["__id-5__", "__id2__", "__id10__", "a", "__id9223372036854775807__", "__idx", "B", "é",
                      "__id-9223372036854775808__", "__id007__", "__id7__", "__id-0__", "__id0__", "_", "__id1_", "e\u{301}", "0"]
    /// Ids the store refuses (`__…__` without a 64-bit number) that another writer can still put in
    /// the table: they sort among the other ids, by their bytes.
    static let reserved = ["__idx__", "__id__", "__id-__", "__id9223372036854775808__", "__id-9223372036854775809__",
                           "__id+1__", "__id 1__", "__id1__\n", "__id0000000000000000000000000000001__"]

    private func sorted(_ ids: [String]) -> [String] { ids.sorted { IDOrder.compare($0, $1) < 0 } }

    /// The texts ordered by `key` in SQL (texts given and read back as JSON, any character safe).
    private func ordered(_ texts: [String], by key: String) throws -> [String] {
        let json = String(decoding: try JSONSerialization.data(withJSONObject: texts.shuffled()), as: UTF8.self)
        let answer = try sql("SELECT json_agg(t ORDER BY \(key)(t COLLATE \"C\")) FROM json_array_elements_text($shelf$\(json)$shelf$::json) AS t")
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String])
    }

    func testTheKeysSortIdsAndPathsAsIDOrderDoes() throws {
        let ids = Self.ids + Self.reserved
        XCTAssertEqual(IDOrder.number(of: "__id0000000000000000000000000000001__"), 1, "leading zeros do not make a number too large")
        XCTAssertEqual(try ordered(ids, by: "shelf_id_key"), sorted(ids))
        XCTAssertEqual(try ordered(ids.map { "c/d/e/" + $0 }, by: "shelf_name_key"), sorted(ids).map { "c/d/e/" + $0 })
        let paths = ["a", "a-c", "a/b", "a/__id3__", "a/__id10__", "a/__id3__/x/__id-1__", "a/__id3__/x", "__id1__/b", "__id1__",
                     "a/b/c/d", "b", "a/é", "a/B", "a/__idx", "a/__idx__/b", "__id-2__/a/b", "a b", "a/b/c", "é/__id1__"]
        let bySegments = paths.sorted { IDOrder.compare($0.split(separator: "/").map(String.init), $1.split(separator: "/").map(String.init)) < 0 }
        XCTAssertEqual(try ordered(paths, by: "shelf_path_key"), bySegments)
    }

    /// The same documents in both stores: `mix/<id>` for each id, and a group `mix` with parents
    /// whose ids are numeric too. `n` ties in threes.
    private func seedMix() throws {
        var paths = Self.ids.map { "mix/\($0)" }
        for (index, parent) in ["__id3__", "b", "__id-1__", "__id12__"].enumerated() {
            paths += Self.ids.enumerated().filter { $0.offset % 4 == index }.map { "shelves/\(parent)/mix/\($0.element)" }
        }
        for store in [db, folder!] as [Firestore] {
            let batch = store.batch()
            for (index, path) in paths.enumerated() { batch.setData(["n": index % 3], forDocument: store.document(path)) }
            try batch.commitNow()
        }
    }

    func testPagesByIdWithNumericIdsAreTheFolderBackends() throws {
        try seedMix()
        let server = try XCTUnwrap(db.backend as? DocumentServer)
        let documents = try db.collectionGroup("mix").readSnapshot().documents
        var bases: [(Firestore) -> Query] = [
            { $0.collection("mix").order(by: FieldPath.documentID()) },
            { $0.collection("mix").order(by: FieldPath.documentID(), descending: true) },
            { $0.collection("mix").order(by: "n") },
            { $0.collection("mix").order(by: "n", descending: true) },
            { $0.collectionGroup("mix").order(by: FieldPath.documentID()) },
            { $0.collectionGroup("mix").order(by: FieldPath.documentID(), descending: true) },
            { $0.collectionGroup("mix").order(by: "n").order(by: FieldPath.documentID(), descending: true) },
        ]
        for id in Self.ids {
            bases.append { $0.collection("mix").order(by: FieldPath.documentID()).start(after: [id]) }
            bases.append { $0.collection("mix").order(by: FieldPath.documentID(), descending: true).start(at: [id]) }
            bases.append { $0.collection("mix").order(by: FieldPath.documentID()).end(before: [id]) }
            bases.append { $0.collection("mix").order(by: FieldPath.documentID(), descending: true).end(at: [id]) }
            for op in ["<", "<=", ">", ">="] {
                bases.append { store in
                    let field = FieldPath.documentID(), mix = store.collection("mix")
                    switch op {
                    case "<": return mix.whereField(field, isLessThan: id).order(by: field)
                    case "<=": return mix.whereField(field, isLessThanOrEqualTo: id).order(by: field)
                    case ">": return mix.whereField(field, isGreaterThan: id).order(by: field, descending: true)
                    default: return mix.whereField(field, isGreaterThanOrEqualTo: id).order(by: "n")
                    }
                }
            }
        }
        for document in documents {
            let path = document.reference.path
            bases.append { $0.collectionGroup("mix").order(by: FieldPath.documentID()).start(after: [path]) }
            bases.append { $0.collectionGroup("mix").order(by: FieldPath.documentID(), descending: true).end(before: [path]) }
            bases.append { $0.collectionGroup("mix").order(by: "n").order(by: FieldPath.documentID()).start(at: [document.get("n")!, path]) }
            bases.append { $0.collectionGroup("mix").whereField(FieldPath.documentID(), isLessThan: path).order(by: FieldPath.documentID()) }
        }
        var paged = 0, queries = 0
        for base in bases {
            for limit in [1, 3, 40] {
                for make in [{ base($0).limit(to: limit) }, { base($0).limit(toLast: limit) }] as [(Firestore) -> Query] {
                    queries += 1
                    XCTAssertEqual(try ids(make(db)), try ids(make(folder)), "\(make(db).definition)")
                    if let page = ServerPage(make(db).definition),
                       page.isExact(server.snapshots(try server.readPage(page), store: db)) { paged += 1 }
                }
            }
        }
        XCTAssertEqual(paged, queries, "every one of these is cut by the server")
    }

    /// Doubles whose sum depends on their order (1e16 - 1e16 + 1 is 1, 1 + 1e16 - 1e16 is 0):
    /// added by the client, with compensation, in the order the aggregation reads them (by the
    /// field, then the ids), the same on both backends. (Google's emulator answers 0 or 1 for
    /// these values depending on the collection's name: an order of its own, not copied.)
    func testDoublesAreAddedUpAlikeOnBothBackends() throws {
        for store in [db, folder!] as [Firestore] {
            try store.document("sums/__id1__").write(["x": 1e16])
            try store.document("sums/__id2__").write(["x": -1e16])
            try store.document("sums/B").write(["x": 1.0])
            try store.document("groups/__id-1__/sums/B").write(["x": 1.0])
        }
        for make in [{ $0.collection("sums") }, { $0.collectionGroup("sums") }] as [(Firestore) -> Query] {
            XCTAssertNil(try db.queryingStorage?.aggregate([AggregateField.sum("x").operation], of: make(db)), "added up by the client")
            let sums = try [db, folder!].map { try make($0).aggregate([.sum("x")]).readSnapshot().result(for: .sum("x")) }
            XCTAssertEqual(sums[0], sums[1], "\(make(db).definition)")
        }
    }

    /// Enough rows that reading a page along an index beats sorting them (a few rows would be
    /// sorted whatever the indexes), some of them numeric ids.
    private func seedRows() throws {
        try sql("""
            SELECT set_config('shelf.writer', 'on', false);
            INSERT INTO shelf_documents (path, parent, collection_id, fields)
            SELECT p || CASE WHEN i % 10 = 0 THEN '__id' || i || '__' ELSE 'd' || i END, rtrim(p, '/'), 'big', jsonb_build_object('n', i % 7)
            FROM generate_series(1, 4000) AS i, (VALUES ('big/'), ('shelves/s/big/')) AS parents(p);
            ANALYZE shelf_documents
            """)
    }

    func testPagesByIdAreReadAlongAnIndex() throws {
        try seedRows()
        let server = try XCTUnwrap(db.backend as? DocumentServer)
        let postgres = try XCTUnwrap(server as? PostgresServer)
        let byN = db.collection("big").order(by: "n", descending: true).limit(to: 20)
        let pages: [(Query, String)] = [
            (db.collection("big").limit(to: 20), "Index Scan using shelf_documents_parent_ids"),
            (db.collection("big").order(by: FieldPath.documentID(), descending: true).start(after: ["d2001"]).limit(to: 20),
             "Index Scan Backward using shelf_documents_parent_ids"),
            (db.collection("big").whereField(FieldPath.documentID(), isGreaterThan: "__id2000__").limit(to: 20),
             "Index Scan using shelf_documents_parent_ids"),
            (db.collectionGroup("big").order(by: FieldPath.documentID()).limit(toLast: 20), "Index Scan Backward using shelf_documents_group_ids"),
            (db.collectionGroup("big").order(by: FieldPath.documentID()).start(at: ["shelves/s/big/d5"]).limit(to: 20),
             "Index Scan using shelf_documents_group_ids"),
            (byN, "Index Scan Backward using \(try XCTUnwrap(PostgresPageQuery.orderIndex(XCTUnwrap(ServerPage(byN.definition)))).name)"),
        ]
        for (query, scan) in pages {
            let page = try XCTUnwrap(ServerPage(query.definition))
            XCTAssertEqual(try server.readPage(page).count, 20)  // makes the order index the last one needs
            let plan = try postgres.plan(of: page)
            XCTAssertTrue(plan.contains(scan), "\(query.definition): \(plan)")
            XCTAssertFalse(plan.contains("Sort"), "\(query.definition): \(plan)")
        }
    }

    /// A database at migration 6: ids ordered by their bytes, with an order index ending with the
    /// path (dropping the keys drops the indexes made on them).
    func testADatabaseMadeBeforeTheKeysIsMigratedAndPagesByIdRight() throws {
        try seedMix()
        try sql("""
            DROP FUNCTION shelf_path_key(text), shelf_segment_keys(text), shelf_name_key(text), shelf_id_key(text) CASCADE;
            CREATE INDEX shelf_documents_group_segments ON shelf_documents (collection_id, string_to_array(path, '/'));
            CREATE INDEX shelf_order_old ON shelf_documents (parent, shelf_order_rank(fields -> 'n'), path);
            UPDATE shelf_schema SET version = 6
            """)
        let rows = try sql("SELECT count(*) FROM shelf_documents")
        let other = try anotherClient()
        XCTAssertEqual(try sql("SELECT version FROM shelf_schema"), "12")
        XCTAssertEqual(try sql("SELECT count(*) FROM shelf_documents"), rows, "no document lost")
        XCTAssertEqual(try sql("SELECT string_agg(indexname, ',' ORDER BY indexname) FROM pg_indexes WHERE indexname LIKE 'shelf\\_order\\_%' OR indexname LIKE '%segments'"),
                       "", "the order indexes ending with the path are gone, as is the index of segments")
        for make in [{ $0.collection("mix").limit(to: 5) }, { $0.collectionGroup("mix").order(by: "n").limit(toLast: 7) }] as [(Firestore) -> Query] {
            XCTAssertEqual(try ids(make(other)), try ids(make(folder)))
        }
        XCTAssertEqual(try ids(other.collection("mix").limit(to: 3)), ["mix/__id-9223372036854775808__", "mix/__id-5__", "mix/__id-0__"])
    }
}
