@testable import DocumentStore
@testable import DocumentStorePostgres
import Foundation
import XCTest

/// Queries ordered, cut and counted by PostgreSQL (`ServerPage`, `DocumentServer.count(of:)`) give
/// exactly the folder backend's answers, on data made to catch them out: every type in the
/// ordered field, missing fields, NaN, ±Infinity, -0.0, ties of 1 and 1.0, numbers beyond 2^53,
/// arrays of strings that are prefixes of one another or hold the characters ending their elements.
final class PostgresQueryPushdownTests: PushdownTestCase {
    /// Each query, made for a store, gives the same paths on both, and the server counts every
    /// query it pages (cursors included: a list's position) as many as the folder finds;
    /// returns whether the server paged it.
    @discardableResult
    private func assertSameAnswers(_ make: (Firestore) -> Query, file: StaticString = #filePath, line: UInt = #line) throws -> Bool {
        let server = make(db), local = make(folder)
        let expected = try ids(local)
        XCTAssertEqual(try ids(server), expected, "\(server.definition)", file: file, line: line)
        guard ServerPage(server.definition) != nil else { return false }
        XCTAssertEqual(try db.queryingStorage?.count(of: server), expected.count, "counted by the server: \(server.definition)", file: file, line: line)
        return true
    }

    private func variants(_ base: @escaping (Firestore) -> Query) -> [(Firestore) -> Query] {
        var queries: [(Firestore) -> Query] = []
        for limit in [1, 2, 3, 5, 8, 13, 40] {
            queries.append { base($0).limit(to: limit) }
            queries.append { base($0).limit(toLast: limit) }
            queries.append { base($0).offset(3).limit(to: limit) }
            queries.append { base($0).offset(2).limit(toLast: limit) }
        }
        queries.append { base($0).offset(4) }
        return queries
    }

    private func assertAll(in collection: String) throws -> Int {
        var paged = 0
        let orders: [(Firestore) -> Query] = [
            { $0.collection(collection).order(by: FieldPath.documentID()) },
            { $0.collection(collection).order(by: FieldPath.documentID(), descending: true) },
            { $0.collection(collection).order(by: "n") },
            { $0.collection(collection).order(by: "n", descending: true) },
            { $0.collection(collection).order(by: "m.x") },
            { $0.collection(collection).order(by: "t") },
            { $0.collection(collection).order(by: "t", descending: true) },
            { $0.collection(collection).order(by: "t").start(after: [["a"]]) },
            { $0.collection(collection).order(by: "t").start(at: [["a", "b"]]).end(before: [["b"]]) },
            { $0.collection(collection).whereField("kind", isEqualTo: "a").order(by: "n") },
            { $0.collection(collection).whereField("kind", isEqualTo: "b").order(by: "n", descending: true) },
            { $0.collection(collection).order(by: "n").start(at: [1]) },
            { $0.collection(collection).order(by: "n").start(after: [1]) },
            { $0.collection(collection).order(by: "n").order(by: FieldPath.documentID()).start(after: [1, "d05é"]) },
            { $0.collection(collection).order(by: "n").end(at: [7]) },
            { $0.collection(collection).order(by: "n").order(by: FieldPath.documentID()).end(before: [7.0, "d03"]) },
            { $0.collection(collection).order(by: "n", descending: true).start(at: [7]).end(before: [-0.0]) },
            { $0.collection(collection).order(by: "n").start(after: [NSNull()]).end(at: [Double.infinity]) },
            { $0.collection(collection).order(by: "n").start(at: [false]) },
            { $0.collection(collection).order(by: "n").start(after: [Double.nan]) },
            { $0.collection(collection).order(by: "n").start(at: ["text"]) },
            { $0.collection(collection).order(by: "n").order(by: FieldPath.documentID(), descending: true) },
            { $0.collection(collection).order(by: FieldPath.documentID()).start(after: ["d05"]) },
            { $0.collection(collection).order(by: FieldPath.documentID(), descending: true).end(at: ["d03é"]) },
            { $0.collection(collection).whereField("n", isEqualTo: 1).order(by: "n") },
            { $0.collection(collection).whereField("n", isGreaterThan: 0).order(by: "n") },
            { $0.collection(collection).whereField("n", isLessThan: 7).order(by: "n", descending: true) },
            { $0.collection(collection).whereField("n", isLessThanOrEqualTo: 7.0).whereField("n", isGreaterThanOrEqualTo: -0.0).order(by: "n") },
            { $0.collection(collection).whereField("n", isGreaterThan: -3).whereField("kind", isEqualTo: "b").order(by: "n") },
            { $0.collection(collection).whereField("n", isGreaterThan: true).order(by: "n") },
            { $0.collection(collection).whereField("n", isGreaterThan: 1e300).order(by: "n") },
            { $0.collection(collection).whereField("m.x", isGreaterThanOrEqualTo: 2).order(by: "m.x", descending: true) },
        ]
        try assertSameAnswers { $0.collection(collection).limit(to: 3) }
        for order in orders {
            try assertSameAnswers(order)
            for query in variants(order) where try assertSameAnswers(query) { paged += 1 }
        }
        return paged
    }

    func testPagesOrderedByTheServerEqualTheFolderBackendsOnTrickyData() throws {
        try seed("tricky", Self.tricky)
        try seed("clean", Self.clean)
        let paged = try assertAll(in: "tricky") + assertAll(in: "clean")
        XCTAssertGreaterThan(paged, 300, "most of these queries are paged by the server")
    }

    func testWordsAreFoundByTheServerExactlyAsTheFolderFindsThem() throws {
        try seed("tricky", Self.tricky)
        let wordLists: [[String]] = [["a"], ["A"], ["é"], ["E"], ["e\u{301}"], ["日本"], ["a b"], ["b", "a"], ["text"], ["t"], ["x"], ["%"], ["_"], [""]]
        for words in wordLists {
            try assertSameAnswers { $0.collection("tricky").containing(words: words) }
            XCTAssertTrue(try assertSameAnswers { $0.collection("tricky").containing(words: words).order(by: "n").limit(to: 3) })
            let query = db.collection("tricky").containing(words: words)
            XCTAssertTrue(ServerPrefilter.isExact(query.definition), "\(words) matched by the server alone")
            XCTAssertEqual(try db.queryingStorage?.count(of: query), try ids(folder.collection("tricky").containing(words: words)).count, "\(words) counted by the server")
        }
        XCTAssertFalse(ServerPrefilter.isExact(db.collection("tricky").containing(words: ["a\nb"]).definition), "a control character is left to the evaluator")
        XCTAssertEqual(try sql("SELECT count(*) FROM pg_indexes WHERE indexname = 'shelf_documents_words'"), "1", "a trigram index finds words")
    }

    func testTheServerReadsOnlyAPageWhenItsOrderIsExact() throws {
        try seed("clean", Self.clean)
        let server = try XCTUnwrap(db.backend as? DocumentServer)
        for make in [{ $0.collection("clean").order(by: "n").limit(to: 4) },
                     { $0.collection("clean").order(by: FieldPath.documentID()).limit(toLast: 3) },
                     { $0.collection("clean").order(by: "n", descending: true).start(after: [7]).limit(to: 2) },
                     { $0.collection("clean").order(by: "n").offset(3).limit(to: 2) },
                     { $0.collection("clean").order(by: "n").offset(3).limit(toLast: 2) }] as [(Firestore) -> Query] {
            let page = try XCTUnwrap(ServerPage(make(db).definition))
            let rows = try server.readPage(page)
            XCTAssertEqual(rows.count, page.limit, "only the page's rows are read")
            XCTAssertTrue(page.isExact(server.snapshots(rows, store: db)))
            XCTAssertEqual(Set(rows.map(\.path)), Set(try ids(make(db))))
            XCTAssertEqual(try ids(make(db)), try ids(make(folder)))
        }
        XCTAssertEqual(try sql("SELECT string_agg(indexdef, ';') FROM pg_indexes WHERE left(indexname, 12) = 'shelf_order_'"),
                       "CREATE INDEX shelf_order_add4f9185364b5d6 ON public.shelf_documents USING btree (parent, shelf_order_rank((fields -> 'n'::text)), "
                        + "shelf_order_key((fields -> 'n'::text)), shelf_order_text((fields -> 'n'::text)) COLLATE \"C\", shelf_name_key(path)) "
                        + "WHERE ((fields -> 'n'::text) IS NOT NULL)",
                       "the first page ordered by n made its index, of the documents that have n")
    }

    func testCountsWithEqualityFiltersAreTheFolderBackends() throws {
        try seed("tricky", Self.tricky)
        try seed("clean", Self.clean)
        try seed("a/b/tricky", Self.clean)
        let queries: [(Firestore) -> Query] = [
            { $0.collection("tricky") },
            { $0.collection("tricky").whereField("kind", isEqualTo: "a") },
            { $0.collection("tricky").whereField("kind", isEqualTo: "a").limit(to: 3) },
            { $0.collection("tricky").whereField("kind", isEqualTo: "a").whereField("kind", isEqualTo: "b") },
            { $0.collection("tricky").whereField("n", isEqualTo: 1) },
            { $0.collection("tricky").whereField("n", isEqualTo: true) },
            { $0.collection("tricky").whereField("m.x", isEqualTo: 1) },
            { $0.collection("tricky").order(by: "n") },
            { $0.collectionGroup("tricky") },
            { $0.collectionGroup("tricky").whereField("kind", isEqualTo: "b") },
        ]
        var counted = 0
        for make in queries {
            let server = make(db).count, local = make(folder).count
            XCTAssertEqual(try server.readSnapshot().count, try local.readSnapshot().count, "\(make(db).definition)")
            if try db.queryingStorage?.count(of: make(db)) != nil { counted += 1 }
        }
        XCTAssertEqual(counted, 10, "counted by the server: every filter here is exact, and an order only needs its field")
    }
}
