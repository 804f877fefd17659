import DocumentStore
import PostgresNIO

/// The SQL of a `ServerPage`: the collection's rows (`parent`), the containment, the ordered
/// field present, the cursors as row comparisons, ordered and cut by the server.
///
/// By id: `ORDER BY path` (bytes, `COLLATE "C"`), served by the index on (parent, path).
/// By a field: `ORDER BY shelf_order_rank(v), shelf_order_key(v), path` where `v` is the field
/// (`fields -> 'a' -> 'b'`, written out as literals so that the index `orderIndex` makes on the
/// same expressions serves it).
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
            let value = Self.value(field)
            conditions.append("\(value) IS NOT NULL")
            keys = ["shelf_order_rank(\(value))", "shelf_order_key(\(value))", "path"]
            for range in page.ranges {
                conditions.append("\(keys[0]) BETWEEN 3 AND 7")
                conditions.append("(\(keys[0]), \(keys[1])) \(range.op) (5, \(bind(range.key, as: "numeric")))")
            }
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

    /// The field's value in a row, as SQL.
    static func value(_ field: [String]) -> String {
        "fields" + field.map { " -> " + literal($0) }.joined()
    }

    /// The index that orders a collection's rows by `field` then path, as Firestore's automatic
    /// single-field indexes do; named by a hash of the field, the same in every client.
    static func orderIndex(_ field: [String]) -> String {
        let value = value(field)
        return "CREATE INDEX IF NOT EXISTS \(orderIndexName(field)) ON shelf_documents (parent, shelf_order_rank(\(value)), shelf_order_key(\(value)), path)"
    }

    static func orderIndexName(_ field: [String]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a
        for byte in field.joined(separator: "\u{1}").utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return "shelf_order_" + String(hash, radix: 16)
    }

    /// A string literal (standard_conforming_strings, on since PostgreSQL 9.1: no backslash escapes).
    static func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }
}
