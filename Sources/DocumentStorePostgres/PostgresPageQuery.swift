import DocumentStore
import PostgresNIO

/// The SQL of a `ServerPage`: the collection's rows (`parent`), the containment, the ordered
/// field present, the cursors as row comparisons, ordered and cut by the server.
///
/// By id: `ORDER BY path` (bytes, `COLLATE "C"`), served by the index on (parent, path).
/// By a field: `ORDER BY shelf_order_rank(v), shelf_order_key(v), path` where `v` is the field
/// (`fields -> 'a' -> 'b'`, written out as literals so that an index on the same expressions,
/// `CREATE INDEX ON shelf_documents (parent, shelf_order_rank(fields -> 'price'),
/// shelf_order_key(fields -> 'price'), path)`, serves it).
struct PostgresPageQuery {
    let query: PostgresQuery

    init(_ page: ServerPage) {
        var binds = PostgresBindings()
        func bind(_ text: String, as type: String = "text") -> String {
            binds.append(text)
            return "$\(binds.count)::\(type)"
        }
        var conditions = ["parent = \(bind(page.collection))"]
        if let containing = page.containing { conditions.append("fields @> \(bind(containing, as: "jsonb"))") }
        var keys = ["path"]
        if let field = page.field {
            let value = "fields" + field.map { " -> " + Self.literal($0) }.joined()
            conditions.append("\(value) IS NOT NULL")
            keys = ["shelf_order_rank(\(value))", "shelf_order_key(\(value))", "path"]
        }
        func comparison(_ cursor: ServerCursor, after: Bool) -> String {
            var left: [String] = [], right: [String] = []
            if let rank = cursor.rank, let key = cursor.key {
                left += keys.prefix(2)
                right += [bind(String(rank), as: "integer"), bind(key, as: "numeric")]
            }
            if let path = cursor.path {
                left.append("path")
                right.append(bind(path))
            }
            let greater = after != page.descending
            let op = (greater ? ">" : "<") + (cursor.inclusive ? "=" : "")
            return "(\(left.joined(separator: ", "))) \(op) (\(right.joined(separator: ", ")))"
        }
        if let start = page.start { conditions.append(comparison(start, after: true)) }
        if let end = page.end { conditions.append(comparison(end, after: false)) }
        let direction = page.descending != page.fromEnd ? " DESC" : ""
        let sql = """
            SELECT path, fields::text FROM shelf_documents WHERE \(conditions.joined(separator: " AND ")) \
            ORDER BY \(keys.map { $0 + direction }.joined(separator: ", ")) LIMIT \(page.limit)
            """
        query = PostgresQuery(unsafeSQL: sql, binds: binds)
    }

    /// A string literal (standard_conforming_strings, on since PostgreSQL 9.1: no backslash escapes).
    static func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }
}
