import DocumentStore
import PostgresNIO

/// The SQL of a `ServerPage`: the selection's rows, the cursors as row comparisons, ordered
/// and cut by the server.
///
/// By id in Firestore's order (numeric ids first, `IDOrder`): a collection's rows by
/// `shelf_name_key(path)`, served by the index on (parent, that key); a group's by
/// `shelf_path_key(path)`, segment by segment as Firestore compares paths, served by the index on
/// (collection_id, that key); see `PostgresSelectionSQL.key(isGroup:)` and migration 7. By
/// fields: each field's `shelf_order_rank`, `shelf_order_key` and `shelf_order_text` first,
/// then the id's key, served by the index `orderIndex` makes on the same expressions, of the
/// rows that have the fields (as Firestore's orders leave out documents without them).
struct PostgresPageQuery {
    let query: PostgresQuery

    /// The page's rows; `counting`: only how many there are.
    init(_ page: ServerPage, counting: Bool = false) {
        var sql = PostgresSelectionSQL()
        // The order index's predicate, said in full so the planner sees that the index serves
        // the page (the selection may say it only as a filter on the field, which it cannot
        // prove), once: the fields the selection already requires are not required again.
        let unstated = page.fields.filter { !page.selection.conditions.contains(.present($0)) }
        var conditions = [sql.conditions(page.selection)] + Self.presentFields(unstated)
        let keys = Self.keys(page)
        func comparison(_ cursor: ServerCursor, after: Bool) -> String {
            var left: [String] = [], right: [String] = []
            for index in cursor.ranks.indices {
                left += keys[(3 * index)...].prefix(3)
                right += [sql.bind(String(cursor.ranks[index]), as: "integer"), sql.bind(cursor.keys[index], as: "numeric"),
                          sql.bind(PostgresNulEscape.storable(orderText: cursor.texts[index])) + " COLLATE \"C\""]
            }
            if let path = cursor.path {
                left.append(keys.last!)
                right.append(sql.key(ofPath: path, isGroup: page.selection.isGroup))
            }
            let greater = after != page.descending
            let op = (greater ? ">" : "<") + (cursor.inclusive ? "=" : "")
            return "(\(left.joined(separator: ", "))) \(op) (\(right.joined(separator: ", ")))"
        }
        if let start = page.start { conditions.append(comparison(start, after: true)) }
        if let end = page.end { conditions.append(comparison(end, after: false)) }
        let reversed = Self.reversed(page)
        let order = zip(keys, reversed).map { key, reversed in key + (reversed != (page.descending != page.fromEnd) ? " DESC" : "") }
        let limit = (page.limit.map { " LIMIT \($0)" } ?? "") + (page.offset > 0 ? " OFFSET \(page.offset)" : "")
        let rows = "FROM shelf_documents WHERE \(conditions.joined(separator: " AND "))"
        query = PostgresQuery(unsafeSQL: counting ? "SELECT count(*) FROM (SELECT 1 \(rows)\(limit)) AS page"
                                                  : "SELECT path, fields::text \(rows) ORDER BY \(order.joined(separator: ", "))\(limit)",
                              binds: sql.binds)
    }

    /// The page's order: each field's rank, key and text, then the path's key.
    private static func keys(_ page: ServerPage) -> [String] {
        page.fields.flatMap { [PostgresSelectionSQL.rank($0), PostgresSelectionSQL.key($0), PostgresSelectionSQL.text($0)] }
            + [PostgresSelectionSQL.key(isGroup: page.selection.isGroup)]
    }

    /// Rows have each of these fields: with the page's ordered fields, the order indexes' predicate.
    private static func presentFields(_ fields: [[String]]) -> [String] {
        fields.map { "\(PostgresSelectionSQL.value($0)) IS NOT NULL" }
    }

    /// For each key, true when it goes the other way than the path.
    private static func reversed(_ page: ServerPage) -> [Bool] {
        page.reversed.flatMap { [$0, $0, $0] } + [false]
    }

    /// The index that orders a collection's or group's rows by the page's fields then id,
    /// as Firestore's automatic indexes do: of the rows that have the fields, so a field few
    /// documents have makes a small index, quickly. Its name, a hash of the fields, the same in
    /// every client, and the SQL that makes it. Nil when ordered by id alone (migrations made
    /// those indexes).
    static func orderIndex(_ page: ServerPage) -> (name: String, creation: String)? {
        guard !page.fields.isEmpty else { return nil }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a
        // "\u{5}4": the fourth kind of index (partial; the third had every row), so that no
        // index of an earlier kind is taken for it.
        var name = "\u{5}4" + (page.selection.isGroup ? "\u{3}" : "") + page.fields.map { $0.joined(separator: "\u{1}") }.joined(separator: "\u{2}")
        if page.reversed.contains(true) { name += "\u{4}" + page.reversed.map { $0 ? "d" : "a" }.joined() }
        for byte in name.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        let column = page.selection.isGroup ? "collection_id" : "parent"
        // Keys going the other way than the path are DESC: scanned forward or backward, the
        // index serves the page in either direction.
        let columns = zip(keys(page), reversed(page)).map { $0 + ($1 ? " DESC" : "") }
        let indexName = "shelf_order_" + String(hash, radix: 16)
        return (indexName, "CREATE INDEX CONCURRENTLY IF NOT EXISTS \(indexName) ON shelf_documents (\(column), \(columns.joined(separator: ", ")))"
                + " WHERE " + presentFields(page.fields).joined(separator: " AND "))
    }
}
