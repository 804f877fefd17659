@testable import DocumentStore
@testable import DocumentStorePostgres
import Foundation
import XCTest

/// Every filter kind narrowed in SQL, collection group pages, several orders, and sums and
/// averages computed by PostgreSQL give exactly the folder backend's answers on tricky data
/// (1 and 1.0, -0.0, NaN, integers beyond 2^53, mixed types, missing fields, nested maps and
/// arrays, non-ASCII strings), and the server does the work: it returns only the matches.
final class PostgresFilterPushdownTests: PushdownTestCase {
    private var server: DocumentServer { get throws { try XCTUnwrap(db.backend as? DocumentServer) } }

    /// Filters of every kind on `collection`, some of them exact.
    private func filtered(_ source: @escaping (Firestore) -> Query) -> [(Firestore) -> Query] {
        [
            { source($0).whereField("n", isEqualTo: 1) },
            { source($0).whereField("n", isEqualTo: 0) },
            { source($0).whereField("n", isEqualTo: -0.0) },
            { source($0).whereField("n", isEqualTo: 9_007_199_254_740_992.0) },
            { source($0).whereField("n", isEqualTo: 9_007_199_254_740_993 as Int64) },
            { source($0).whereField("n", isEqualTo: Double.nan) },
            { source($0).whereField("n", isEqualTo: NSNull()) },
            { source($0).whereField("n", in: [1, "text", 7.0, NSNull(), Double.nan]) },
            { source($0).whereField("n", in: [0, true]) },
            { source($0).whereField("n", in: [-0.0, 2.5, "1"]) },
            { source($0).whereField("n", in: [["a": 1], [1, 2]]) },
            { source($0).whereField("n", notIn: [1, "text"]) },
            { source($0).whereField("n", notIn: [0]) },
            { source($0).whereField("n", notIn: [NSNull()]) },
            { source($0).whereField("n", isNotEqualTo: 7) },
            { source($0).whereField("n", isNotEqualTo: NSNull()) },
            { source($0).whereField("n", isNotEqualTo: Double.nan) },
            { source($0).whereField("n", isGreaterThan: 1).whereField("n", isLessThanOrEqualTo: 7) },
            { source($0).whereField("n", isGreaterThanOrEqualTo: 0) },
            { source($0).whereField("n", isLessThan: 9_007_199_254_740_993 as Int64) },
            { source($0).whereField("n", isLessThan: Double.infinity) },
            { source($0).whereField("n", isGreaterThan: Timestamp(seconds: 1, nanoseconds: 0)) },
            { source($0).whereField("t", arrayContains: 1) },
            { source($0).whereField("t", arrayContains: 0) },
            { source($0).whereField("t", arrayContains: "a") },
            { source($0).whereField("t", arrayContains: NSNull()) },
            { source($0).whereField("t", arrayContains: 9_007_199_254_740_993 as Int64) },
            { source($0).whereField("t", arrayContains: ["x": 1]) },
            { source($0).whereField("t", arrayContainsAny: ["é", 2.5, true]) },
            { source($0).whereField("t", arrayContainsAny: [-0.0, 1e300]) },
            { source($0).whereField("s", isGreaterThan: "a") },
            { source($0).whereField("s", isLessThan: "é") },
            { source($0).whereField("s", isGreaterThanOrEqualTo: "B").whereField("s", isLessThan: "b") },
            { source($0).whereField("s", isGreaterThan: "") },
            { source($0).whereField("s", isEqualTo: "日本") },
            { source($0).whereField("s", in: ["e\u{301}", "é", "A"]) },
            { source($0).whereField("m.x", isGreaterThan: 1).whereField("kind", isEqualTo: "b") },
            { source($0).whereField("m", isEqualTo: ["x": 1]) },
            { source($0).whereField("kind", isEqualTo: "a").order(by: "s") },
            { source($0).whereField("kind", isNotEqualTo: "a").order(by: "n", descending: true) },
            { source($0).whereField("s", isGreaterThan: "a").order(by: "s").order(by: "n") },
            { source($0).order(by: "kind").order(by: "n") },
            { source($0).order(by: "kind", descending: true).order(by: "m.x", descending: true).order(by: "n", descending: true) },
            { source($0).whereFilter(Filter.orFilter([Filter.whereField("n", isEqualTo: 1), Filter.whereField("s", isEqualTo: "a")])) },
            { source($0).whereFilter(Filter.orFilter([Filter.whereField("n", isLessThan: 2), Filter.whereField("s", isEqualTo: "b")])) },
            { source($0).whereFilter(Filter.orFilter([Filter.andFilter([Filter.whereField("kind", isEqualTo: "a"), Filter.whereField("t", arrayContains: 1)]),
                                                      Filter.whereField("n", in: [7, "text"])])) },
            { source($0).whereFilter(Filter.orFilter([Filter.whereField("n", isEqualTo: 0), Filter.whereField("m.x", isEqualTo: 3)])).order(by: "s") },
            { source($0).whereFilter(Filter.orFilter([Filter.whereField("s", isEqualTo: "a"), Filter.whereField("n", isEqualTo: 9_007_199_254_740_993 as Int64)])) },
            { source($0).whereField(FieldPath.documentID(), isGreaterThan: "d05") },
            { source($0).whereField(FieldPath.documentID(), isLessThanOrEqualTo: "d05é").whereField("kind", isEqualTo: "b") },
            { source($0).whereField(FieldPath.documentID(), in: ["d01", "d02é", "d03", "zz"]) },
            { source($0).whereField(FieldPath.documentID(), notIn: ["d01", "d02é"]) },
            { source($0).whereField(FieldPath.documentID(), isNotEqualTo: "d04") },
            { source($0).whereField(FieldPath.documentID(), isEqualTo: "d03") },
            { source($0).whereFilter(Filter.orFilter([Filter.whereField(FieldPath.documentID(), isEqualTo: "d03"), Filter.whereField("s", isEqualTo: "a")])) },
        ]
    }

    /// Results, counts, sums and averages of `query` with and without limits.
    private func assertSame(_ make: @escaping (Firestore) -> Query, file: StaticString = #filePath, line: UInt = #line) throws {
        for limited in [make, { make($0).limit(to: 3) }, { make($0).limit(toLast: 2) }, { make($0).order(by: FieldPath.documentID(), descending: true).limit(to: 4) }] as [(Firestore) -> Query] {
            let server = limited(db), local = limited(folder)
            let (serverIDs, localIDs) = (Result { try ids(server) }, Result { try ids(local) })
            XCTAssertEqual(try? serverIDs.get(), try? localIDs.get(), "\(server.definition)", file: file, line: line)
            if case .failure = localIDs { continue }  // a query Firestore refuses (an order after an inequality)
            for aggregations in [[AggregateField.count()], [.sum("n"), .average("n"), .count()], [.average("m.x"), .sum("s")]] {
                // Both answer, or both refuse alike (a sum after an order by the document id).
                let answer = Result { try server.aggregate(aggregations).readSnapshot() }, expected = Result { try local.aggregate(aggregations).readSnapshot() }
                guard case .success(let answered) = answer, case .success(let wanted) = expected else {
                    XCTAssertEqual("\(answer.map { _ in "answered" })", "\(expected.map { _ in "answered" })", "\(aggregations) of \(server.definition)", file: file, line: line)
                    continue
                }
                for aggregation in aggregations {
                    XCTAssertEqual("\(try answered.result(for: aggregation))", "\(try wanted.result(for: aggregation))",
                                   "\(aggregation) of \(server.definition)", file: file, line: line)
                }
            }
        }
    }

    func testEveryFilterKindGivesTheFolderBackendsAnswers() throws {
        try seed("tricky", Self.tricky)
        try seed("clean", Self.clean)
        for collection in ["tricky", "clean"] {
            for make in filtered({ $0.collection(collection) }) { try assertSame(make) }
        }
    }

    func testTheServerReturnsOnlyTheMatchesOfExactFilters() throws {
        try seed("tricky", Self.tricky)
        let server = try server
        var exact = 0
        for make in filtered({ $0.collection("tricky") }) {
            let definition = make(db).definition
            let (conditions, isExact) = ServerPrefilter.conditions(definition)
            let rows = try server.read(ServerSelection(definition.source, conditions: conditions))
            guard let matches = try? make(db).readSnapshot().documents.map(\.reference.path) else { continue }  // refused
            XCTAssertTrue(Set(matches).isSubset(of: rows.map(\.path)), "never fewer than the matches: \(definition)")
            if isExact {
                XCTAssertEqual(rows.count, matches.count, "exactly the matches: \(definition)")
                exact += 1
            }
        }
        XCTAssertGreaterThanOrEqual(exact, 25, "most of these filters are exact")
        let all = try server.read(ServerSelection(collection: "tricky", isGroup: false, conditions: []))
        let inList = try server.read(ServerSelection(db.collection("tricky").whereField("s", in: ["a", "b"]).definition.source,
                                                            conditions: ServerPrefilter.conditions(db.collection("tricky").whereField("s", in: ["a", "b"]).definition).conditions))
        XCTAssertLessThan(inList.count, all.count / 4, "an in filter is not read whole")
    }

    /// Collection ids at several depths, with parents that order differently by segments than
    /// by the bytes of the joined path ("p/a/g" before "p/a-c/g", though "-" < "/").
    private func seedGroup() throws {
        let parents = ["g", "p/a/g", "p/a-c/g", "p/a/b/x/g", "p/a b/g", "p/é/g", "q/a/g"]
        for (index, value) in (Self.tricky + Self.clean).enumerated() {
            let path = "\(parents[index % parents.count])/d\(index % 4)\(index % 3 == 0 ? "é" : "")"
            var data: [String: Any] = ["n": value, "kind": index % 2 == 0 ? "a" : "b", "t": Self.arrays[index % Self.arrays.count]]
            if index % 6 != 5 { data["s"] = Self.strings[index % Self.strings.count] }
            for store in [db, folder!] as [Firestore] { try store.document(path).write(data) }
        }
    }

    func testCollectionGroupPagesAreOrderedAsFirestoreOrdersPaths() throws {
        try seedGroup()
        let server = try server
        var paged = 0
        let orders: [(Firestore) -> Query] = [
            { $0.collectionGroup("g") },
            { $0.collectionGroup("g").order(by: FieldPath.documentID(), descending: true) },
            { $0.collectionGroup("g").whereField("kind", isEqualTo: "a") },
            { $0.collectionGroup("g").order(by: "n") },
            { $0.collectionGroup("g").order(by: "s", descending: true) },
            { $0.collectionGroup("g").whereField("n", isGreaterThan: 0).order(by: "n") },
            { $0.collectionGroup("g").order(by: FieldPath.documentID()).start(after: ["p/a/g/d1"]) },
            { $0.collectionGroup("g").order(by: "n").start(at: [1]).end(before: [7]) },
            { $0.collectionGroup("g").whereField(FieldPath.documentID(), isGreaterThan: "p/a/g/d1") },
            { $0.collectionGroup("g").whereField(FieldPath.documentID(), isLessThan: "p/a-c/g/d2") },
            { $0.collectionGroup("g").whereField(FieldPath.documentID(), in: ["p/a/g/d1", "g/d0", "q/a/g/d2é"]) },
        ]
        for make in orders {
            for limit in [1, 2, 5, 9, 30, 100] {
                for query in [{ make($0).limit(to: limit) }, { make($0).limit(toLast: limit) }] as [(Firestore) -> Query] {
                    // limit(toLast:) without an order is refused by both.
                    XCTAssertEqual(try? ids(query(db)), try? ids(query(folder)), "\(query(db).definition)")
                    if let page = ServerPage(query(db).definition),
                       page.isExact(server.snapshots(try server.readPage(page), store: db)) { paged += 1 }
                }
            }
            try assertSame(make)
        }
        XCTAssertGreaterThan(paged, 40, "group queries are paged by the server")
        let page = try XCTUnwrap(ServerPage(db.collectionGroup("g").limit(to: 3).definition))
        XCTAssertEqual(try server.readPage(page).count, 3, "only the page is read")
        XCTAssertEqual(try ids(db.collectionGroup("g").limit(to: 3)), ["g/d0", "g/d0é", "g/d1"])
    }

    func testSeveralOrdersArePagedByTheServer() throws {
        try seed("clean", Self.clean)
        let make = { (store: Firestore) in store.collection("clean").order(by: "kind").order(by: "n", descending: false).limit(to: 4) }
        let page = try XCTUnwrap(ServerPage(make(db).definition))
        XCTAssertEqual(page.fields, [["kind"], ["n"]])
        XCTAssertEqual(try server.readPage(page).count, 4)
        XCTAssertEqual(try ids(make(db)), try ids(make(folder)))
        for limit in [1, 3, 4, 7, 30] {
            for make in [{ $0.collection("clean").order(by: "kind").order(by: "n", descending: true).limit(to: limit) },
                         { $0.collection("clean").order(by: "kind", descending: true).order(by: "n").limit(toLast: limit) },
                         { $0.collection("clean").order(by: "n", descending: true).order(by: FieldPath.documentID()).limit(to: limit) }] as [(Firestore) -> Query] {
                let page = try XCTUnwrap(ServerPage(make(db).definition), "mixed directions are paged")
                XCTAssertEqual(try server.readPage(page).count, min(limit, Self.clean.count - 3))
                XCTAssertEqual(try ids(make(db)), try ids(make(folder)), "\(make(db).definition)")
            }
        }
        XCTAssertNil(ServerPage(db.collection("clean").order(by: "kind").order(by: "n", descending: true).start(at: ["a"]).limit(to: 4).definition),
                     "a cursor in mixed directions is left to the evaluator")
    }

    func testStringOrdersArePagedByTheServer() throws {
        let names = ["b", "a", "é", "e\u{301}", "B", "", "ab", "日本", "😀", "a b", "z", "A"]
        for (index, name) in names.enumerated() {
            for store in [db, folder!] as [Firestore] { try store.document("names/d\(index % 5)\(index)").write(["s": name, "k": index % 2]) }
        }
        for (id, value) in [("t", Timestamp(seconds: 3, nanoseconds: 0)), ("m", ["$timestamp": "x", "y": 1]), ("b", Data([1]))] as [(String, Any)] {
            for store in [db, folder!] as [Firestore] { try store.document("names/\(id)").write(["s": value]) }
        }
        let server = try server
        for limit in [1, 2, 5, 11, 12] {
            for make in [{ $0.collection("names").whereField("s", isGreaterThan: "").order(by: "s").limit(to: limit) },
                         { $0.collection("names").whereField("s", isLessThan: "é").order(by: "s", descending: true).limit(to: limit) },
                         { $0.collection("names").whereField("k", isEqualTo: 1).order(by: "s").start(after: ["a"]).limit(to: limit) },
                         { $0.collection("names").order(by: "k").order(by: "s", descending: true).limit(toLast: limit) }] as [(Firestore) -> Query] {
                let page = try XCTUnwrap(ServerPage(make(db).definition))
                let rows = try server.readPage(page)
                XCTAssertTrue(page.isExact(server.snapshots(rows, store: db)), "strings order exactly: \(make(db).definition)")
                XCTAssertEqual(try ids(make(db)), try ids(make(folder)), "\(make(db).definition)")
            }
        }
        for make in [{ $0.collection("names").order(by: "s").limit(to: 20) }, { $0.collection("names").order(by: "s", descending: true).limit(to: 3) }] as [(Firestore) -> Query] {
            XCTAssertEqual(try ids(make(db)), try ids(make(folder)), "a timestamp and a map among the strings")
        }
    }

    /// Pushed: added up in SQL where no addition rounds (integers, whole doubles); doubles
    /// whose plain sum could round are added by the client, with compensation as Firestore.
    func testSumsAndAveragesAreComputedByTheServerWhenExact() throws {
        let values: [Any] = [1, 2.0, 3, Int64.max, Int64.max, -5.0, 1e15, 7]
        for (index, value) in values.enumerated() {
            for store in [db, folder!] as [Firestore] {
                try store.document("sums/d\(index)").write(["n": value, "w": index, "f": Double(index) / 4, "kind": index % 2 == 0 ? "a" : "b"])
            }
        }
        try store(NSNull(), and: "text", in: "sums/x")
        // Added plainly in the order written, 0.6000000000000001; with compensation, 0.6.
        for (id, n) in [("c", 0.1), ("b", 0.2), ("a", 0.3)] { try store(n, and: "x", in: "fractions/\(id)") }
        for (id, n) in [("a", -0.0), ("b", -0.0)] as [(String, Any)] { try store(n, and: "x", in: "zeros/\(id)") }
        for (id, n) in [("a", 1.5), ("b", Double.nan), ("c", -Double.infinity), ("d", 4)] as [(String, Any)] { try store(n, and: "x", in: "odd/\(id)") }
        let server = try server
        let cases: [(Query, [AggregateField], Bool)] = [
            (db.collection("sums"), [.sum("n"), .average("n")], true),
            (db.collection("sums").whereField("kind", isEqualTo: "a"), [.sum("w"), .average("w"), .count()], true),
            (db.collection("sums").whereField("w", isGreaterThan: 2), [.sum("n"), .sum("w")], true),
            (db.collection("sums"), [.sum("f"), .average("f")], false),
            (db.collection("sums").whereField("f", isGreaterThan: 0), [.sum("f")], false),
            (db.collection("sums").whereField("w", isLessThan: 4), [.sum("n"), .average("w")], true),
            (db.collection("sums").limit(to: 2), [.sum("w")], false),
            (db.collection("fractions"), [.sum("n"), .average("n")], false),
            (db.collection("fractions").order(by: "n", descending: true), [.sum("n")], false),
            (db.collection("zeros"), [.sum("n"), .average("n")], false),
            (db.collection("odd"), [.sum("n"), .average("n")], false),
            (db.collection("odd").whereField("n", isLessThan: 2), [.sum("n")], false),  // ordered by n, -Infinity
        ]
        for (query, aggregations, pushed) in cases {
            let operations = aggregations.map(\.operation)
            XCTAssertEqual(try server.aggregate(operations, of: query) != nil, pushed, "\(aggregations) of \(query.definition)")
            let local = Query(firestore: folder, definition: query.definition, invalid: nil)
            let answer = try query.aggregate(aggregations).readSnapshot(), expected = try local.aggregate(aggregations).readSnapshot()
            for aggregation in aggregations {
                XCTAssertEqual("\(try answer.result(for: aggregation))", "\(try expected.result(for: aggregation))", "\(aggregation)")
            }
        }
        XCTAssertEqual(try db.collection("fractions").aggregate([.sum("n")]).readSnapshot().result(for: .sum("n")), .double(0.6))
        // A sum after an order by the document id is refused, as Google's emulator refuses it.
        XCTAssertThrowsError(try db.collection("fractions").order(by: FieldPath.documentID(), descending: true).aggregate([.sum("n")]).readSnapshot())
        XCTAssertEqual("\(try db.collection("zeros").aggregate([.sum("n")]).readSnapshot().result(for: .sum("n")))", "\(FirestoreValue.double(0.0))", "a sum of -0.0 alone is 0.0")
    }

    private func store(_ n: Any, and s: Any, in path: String) throws {
        for store in [db, folder!] as [Firestore] { try store.document(path).write(["n": n, "s": s]) }
    }
}
