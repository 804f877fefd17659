import DocumentStore
import PostgresNIO

/// The SQL of `DocumentServer.sums`: for each field, its integers' exact sum split as
/// `NumericSum` keeps it (`wraps * 2^64 + low`), its doubles' exact sum and magnitude and
/// whether they are whole, and how many numbers are tagged. Numbers are told apart as
/// `DocumentJSON` reads `jsonb`'s text of them: an integer has no "." and fits 64 bits.
/// (A plain number that is not an integer is a double; NULL `i` is no number: neither.)
enum PostgresSums {
    private static let wrap = "18446744073709551616"  // 2^64
    private static let half = "9223372036854775808"  // 2^63

    /// Each field's value is taken out once (`v`), then read as a number once (`x`, with `i`:
    /// an integer, `t`: tagged); OFFSET 0 keeps PostgreSQL from writing the expressions out again
    /// in every aggregate, which made it three times slower.
    static func query(_ selection: ServerSelection, fields: [[String]], sql: inout PostgresSelectionSQL) -> PostgresQuery {
        var values: [String] = [], numbers: [String] = [], kinds: [String] = []
        var sums = ["count(*) AS n"], texts = ["n::text"]
        for (index, field) in fields.enumerated() {
            let (v, x, i, t) = ("v\(index)", "x\(index)", "i\(index)", "t\(index)")
            values.append("\(PostgresSelectionSQL.value(field)) AS \(v)")
            numbers += [v, "CASE WHEN jsonb_typeof(\(v)) = 'number' THEN \(v)::numeric END AS \(x)"]
            // No "." in jsonb's text of a number (no display scale): an integer, if it fits.
            kinds += [x, "scale(\(x)) = 0 AND \(x) BETWEEN -\(half) AND \(half) - 1 AS \(i)",
                      "jsonb_typeof(\(v)) = 'object' AND \(v) ? '$double' AS \(t)"]
            sums += [
                "count(*) FILTER (WHERE \(i)) AS i\(index)",
                "coalesce(sum(\(x)) FILTER (WHERE \(i)), 0) AS s\(index)",
                "count(*) FILTER (WHERE NOT \(i)) AS d\(index)",
                "coalesce(sum(\(x)) FILTER (WHERE NOT \(i)), 0) AS ds\(index)",
                "coalesce(sum(abs(\(x))) FILTER (WHERE NOT \(i)), 0) AS dm\(index)",
                "coalesce(bool_and(\(x) = trunc(\(x))) FILTER (WHERE NOT \(i)), true) AS dw\(index)",
                "count(*) FILTER (WHERE \(t)) AS t\(index)",
            ]
            let low = "(mod(mod(s\(index), \(wrap)) + \(wrap) + \(half), \(wrap)) - \(half))"
            texts += ["i\(index)::text", "\(low)::text", "((s\(index) - \(low)) / \(wrap))::bigint::text",
                      "d\(index)::text", "ds\(index)::text", "dm\(index)::text", "dw\(index)::text", "t\(index)::text"]
        }
        let conditions = sql.conditions(selection)
        return PostgresQuery(unsafeSQL: """
            SELECT \(texts.joined(separator: ", ")) FROM (SELECT \(sums.joined(separator: ", ")) FROM (\
            SELECT \(kinds.joined(separator: ", ")) FROM (\
            SELECT \(numbers.joined(separator: ", ")) FROM (\
            SELECT \(values.joined(separator: ", ")) FROM shelf_documents WHERE \(conditions) OFFSET 0\
            ) AS fields OFFSET 0) AS numbers) AS kinds) AS sums
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
