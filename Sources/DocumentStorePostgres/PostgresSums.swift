import DocumentStore
import PostgresNIO

/// The SQL of `DocumentServer.sums`: for each field, its integers' exact sum split as
/// `NumericSum` keeps it (`wraps * 2^64 + low`), its doubles' exact sum and magnitude and
/// whether they are whole, and how many numbers are tagged. Numbers are told apart as
/// `DocumentJSON` reads `jsonb`'s text of them: an integer has no "." and fits 64 bits.
enum PostgresSums {
    private static let wrap = "18446744073709551616"  // 2^64
    private static let half = "9223372036854775808"  // 2^63

    static func query(_ selection: ServerSelection, fields: [[String]], sql: inout PostgresSelectionSQL) -> PostgresQuery {
        var inner = ["count(*) AS n"], outer = ["n::text"]
        for (index, field) in fields.enumerated() {
            let value = PostgresSelectionSQL.value(field)
            // CASE, not AND: SQL may test the cast before the type otherwise.
            let number = "(CASE WHEN jsonb_typeof(\(value)) = 'number' THEN (\(value))::numeric END)"
            let integer = "(CASE WHEN jsonb_typeof(\(value)) = 'number' THEN strpos((\(value))::text, '.') = 0 AND \(number) BETWEEN -\(half) AND \(half) - 1 END)"
            let double = "\(integer) = false"
            inner += [
                "count(*) FILTER (WHERE \(integer)) AS i\(index)",
                "coalesce(sum(\(number)) FILTER (WHERE \(integer)), 0) AS s\(index)",
                "count(*) FILTER (WHERE \(double)) AS d\(index)",
                "coalesce(sum(\(number)) FILTER (WHERE \(double)), 0) AS ds\(index)",
                "coalesce(sum(abs(\(number))) FILTER (WHERE \(double)), 0) AS dm\(index)",
                "coalesce(bool_and(\(number) = trunc(\(number))) FILTER (WHERE \(double)), true) AS dw\(index)",
                "count(*) FILTER (WHERE jsonb_typeof(\(value)) = 'object' AND \(value) ? '$double') AS t\(index)",
            ]
            let low = "(mod(mod(s\(index), \(wrap)) + \(wrap) + \(half), \(wrap)) - \(half))"
            outer += ["i\(index)::text", "\(low)::text", "((s\(index) - \(low)) / \(wrap))::bigint::text",
                      "d\(index)::text", "ds\(index)::text", "dm\(index)::text", "dw\(index)::text", "t\(index)::text"]
        }
        let conditions = sql.conditions(selection)
        return PostgresQuery(unsafeSQL: """
            SELECT \(outer.joined(separator: ", ")) FROM (SELECT \(inner.joined(separator: ", ")) \
            FROM shelf_documents WHERE \(conditions)) AS sums
            """, binds: sql.binds)
    }

    /// The server's answer was not the numbers asked for.
    struct Unreadable: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    static func sums(_ rows: [PostgresRow], fields: Int) throws -> ServerSums {
        guard let row = rows.first else { throw Unreadable("no row of sums") }
        let texts = try row.map { try $0.decode(String.self) }
        func integer(_ index: Int) throws -> Int {
            guard let value = Int(texts[index]) else { throw Unreadable("sum \(texts[index])") }
            return value
        }
        var sums = ServerSums(documents: try integer(0), fields: [])
        for field in 0..<fields {
            let at = 1 + 8 * field
            guard let low = Int64(texts[at + 1]) else { throw Unreadable("sum \(texts[at + 1])") }
            sums.fields.append(ServerSums.Field(integers: try integer(at), low: low, wraps: try integer(at + 2),
                                                doubles: try integer(at + 3), doubleSum: texts[at + 4], doubleMagnitude: texts[at + 5],
                                                doublesWhole: texts[at + 6] == "true", tagged: try integer(at + 7)))
        }
        return sums
    }
}
