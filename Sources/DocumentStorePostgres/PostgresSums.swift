import DocumentStore
import PostgresNIO

/// The SQL of `DocumentServer.sums`: for each field, its integers' exact sum split as
/// `NumericSum` keeps it (`wraps * 2^64 + low`), and its doubles added up as float8 one by one
/// in Firestore's order of the paths (an ordered aggregate: `sum(f ORDER BY
/// shelf_name_key(path))`, see `PostgresSelectionSQL.key(isGroup:)`); `ServerSums` takes that
/// plain sum only where no addition rounds (`w`), since Firestore adds doubles with
/// compensation, which `NumericSum` does on the client. Numbers are told apart as `DocumentJSON` reads `jsonb`'s text of them: an integer
/// has no "." (no display scale) and fits 64 bits; any other number is a double, and so are the
/// tagged NaN, ±Infinity and -0.0.
enum PostgresSums {
    private static let wrap = "18446744073709551616"  // 2^64
    private static let half = "9223372036854775808"  // 2^63

    /// Each field's value is taken out once (`v`), then read as a number once (`x`, `i`: an
    /// integer, `t`: tagged, `f`: the double, NULL where float8 could not read it as Swift
    /// does); OFFSET 0 keeps PostgreSQL from writing the expressions out again in every
    /// aggregate, which made it three times slower.
    static func query(_ selection: ServerSelection, fields: [[String]], sql: inout PostgresSelectionSQL) -> PostgresQuery {
        let order = PostgresSelectionSQL.key(isGroup: selection.isGroup)
        // Each level's columns, from the rows up.
        var levels: [[String]] = [["\(order) AS o"], ["o"], ["o"], ["o"]]
        var sums = ["count(*) AS n"], texts = ["n::text"]
        for (index, field) in fields.enumerated() {
            let (v, x, i, t, f) = ("v\(index)", "x\(index)", "i\(index)", "t\(index)", "f\(index)")
            levels[0].append("\(PostgresSelectionSQL.value(field)) AS \(v)")
            levels[1] += [v, "CASE WHEN jsonb_typeof(\(v)) = 'number' THEN \(v)::numeric END AS \(x)"]
            levels[2] += [v, x, "scale(\(x)) = 0 AND \(x) BETWEEN -\(half) AND \(half) - 1 AS \(i)",
                          "CASE WHEN jsonb_typeof(\(v)) = 'object' THEN \(v) ? '$double' AND \(v) - '$double' = '{}' ELSE false END AS \(t)"]
            levels[3] += [x, i, t, """
                CASE WHEN \(i) = false THEN CASE WHEN \(x) = 0 OR abs(\(x)) BETWEEN 1e-300 AND 1e300 THEN \(x)::float8 END \
                WHEN \(t) THEN CASE WHEN \(v) = '{"$double": -1e-400}' THEN '-0'::float8 \
                WHEN \(v) ->> '$double' IN ('NaN', 'Infinity', '-Infinity') THEN (\(v) ->> '$double')::float8 END END AS \(f)
                """]
            sums += [
                "count(*) FILTER (WHERE \(i)) AS i\(index)",
                "coalesce(sum(\(x)) FILTER (WHERE \(i)), 0) AS s\(index)",
                "count(*) FILTER (WHERE NOT \(i) OR \(t)) AS d\(index)",
                "sum(\(f) ORDER BY o) FILTER (WHERE NOT \(i) OR \(t)) AS ds\(index)",
                // Whole doubles whose magnitudes add up below 2^53 add up alike in every order.
                "count(*) FILTER (WHERE \(t)) = 0 AND coalesce(bool_and(\(x) = trunc(\(x))) FILTER (WHERE NOT \(i)), true) "
                    + "AND coalesce(sum(abs(\(x))) FILTER (WHERE NOT \(i)), 0) < 9007199254740992 AS w\(index)",
                "count(*) FILTER (WHERE (NOT \(i) OR \(t)) AND \(f) IS NULL) AS u\(index)",
            ]
            let low = "(mod(mod(s\(index), \(wrap)) + \(wrap) + \(half), \(wrap)) - \(half))"
            // float8 as its bits: its text depends on extra_float_digits.
            texts += ["i\(index)::text", "\(low)::text", "((s\(index) - \(low)) / \(wrap))::bigint::text", "d\(index)::text",
                      "coalesce(encode(float8send(ds\(index)), 'hex'), '')", "w\(index)::text", "u\(index)::text"]
        }
        var from = "shelf_documents WHERE \(sql.conditions(selection))"
        for (depth, columns) in levels.enumerated() {
            from = "(SELECT \(columns.joined(separator: ", ")) FROM \(from) OFFSET 0) AS level\(depth)"
        }
        return PostgresQuery(unsafeSQL: "SELECT \(texts.joined(separator: ", ")) FROM (SELECT \(sums.joined(separator: ", ")) FROM \(from)) AS sums",
                             binds: sql.binds)
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
            let at = 1 + 7 * field
            guard let low = Int64(texts[at + 1]) else { throw Unreadable("sum \(texts[at + 1])") }
            let bits = UInt64(texts[at + 4], radix: 16)
            sums.fields.append(ServerSums.Field(integers: try integer(at), low: low, wraps: try integer(at + 2), doubles: try integer(at + 3),
                                                pathOrderSum: bits.map(Double.init(bitPattern:)) ?? -0.0,
                                                orderFree: texts[at + 5] == "true", unreadable: try integer(at + 6)))
        }
        return sums
    }
}
