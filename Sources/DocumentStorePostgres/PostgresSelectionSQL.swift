import DocumentStore
import PostgresNIO

/// SQL for a `ServerSelection`, its values bound as parameters: the rows of its collection
/// (`parent`) or group (`collection_id`), and a condition for each of its conditions, written
/// so that the GIN index on `fields` serves containments (an `OR` of them becomes a bitmap OR).
struct PostgresSelectionSQL {
    private(set) var binds = PostgresBindings()

    /// `$n::type`, with `text` bound as the next parameter.
    mutating func bind(_ text: String, as type: String = "text") -> String {
        binds.append(text)
        return "$\(binds.count)::\(type)"
    }

    /// `$n::text[]`, with `texts` bound as the next parameter.
    mutating func bind(_ texts: [String]) -> String {
        binds.append(texts)
        return "$\(binds.count)::text[]"
    }

    /// The WHERE clause's conditions, ANDed. A collection's rows are also bounded by their
    /// paths ("books/" up to "books0", "/" and the next byte): a slice ordered by path
    /// (`readSlice`) may be read along the primary key, which without the bounds would start at
    /// the first row of the table and pass every other collection's rows first (440 ms instead
    /// of 0.2 ms at a million rows).
    mutating func conditions(_ selection: ServerSelection) -> String {
        var conditions = ["\(selection.isGroup ? "collection_id" : "parent") = \(bind(selection.collection))"]
        if !selection.isGroup {
            let prefix = selection.collection + "/"
            conditions.append("path >= \(bind(prefix)) AND path < \(bind(Self.upperBound(ofPathsUnder: prefix)))")
        }
        for condition in selection.conditions { conditions.append(sql(condition, in: selection)) }
        return conditions.joined(separator: " AND ")
    }

    private mutating func sql(_ condition: ServerCondition, in selection: ServerSelection) -> String {
        switch condition {
        case .containsAny(let jsons): return jsons.isEmpty ? "false" : containment(jsons)
        case .containsNone(let jsons): return "NOT " + containment(jsons)
        case .present(let field): return "\(Self.value(field)) IS NOT NULL"
        case .notNull(let field): return "jsonb_typeof(\(Self.value(field))) <> 'null'"
        case .number(let field): return "\(Self.rank(field)) BETWEEN 3 AND 7"
        case .range(let field, let range):
            return "\(Self.rank(field)) BETWEEN 3 AND 7 AND (\(Self.rank(field)), \(Self.key(field))) \(range.op) (5, \(bind(range.key, as: "numeric")))"
        case .string(let field, let op, let text):
            let value = Self.value(field)
            return "jsonb_typeof(\(value)) = 'string' AND (\(value) #>> '{}') COLLATE \"C\" \(op) \(bind(PostgresNulEscape.storable(text: text)))"
        case .pathIn(let paths): return "path = ANY(\(bind(paths)))"
        case .pathNotIn(let paths): return "path <> ALL(\(bind(paths)))"
        case .path(let op, let path):
            // A path in the collection itself compares by id alone, along the collection's index.
            let byID = !selection.isGroup && Self.parent(of: path).elementsEqual(selection.collection.utf8)
            return "\(Self.key(isGroup: !byID)) \(op) \(key(ofPath: path, isGroup: !byID))"
        case .words(let words):
            return words.map { "search_text LIKE \(bind("%" + Self.likeEscaped($0) + "%"))" }.joined(separator: " AND ")
        case .anyOf(let branches):
            let branches = branches.map { branch in "(" + branch.map { sql($0, in: selection) }.joined(separator: " AND ") + ")" }
            return "(" + branches.joined(separator: " OR ") + ")"
        }
    }

    /// `text` matched as itself in a LIKE pattern (backslash its escape).
    private static func likeEscaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }

    private mutating func containment(_ jsons: [String]) -> String {
        "(" + jsons.map { "fields @> \(bind(PostgresNulEscape.storable(json: $0), as: "jsonb"))" }.joined(separator: " OR ") + ")"
    }

    /// The path's bytes before its last "/" (none when it has none).
    private static func parent(of path: String) -> Substring.UTF8View {
        let utf8 = Substring(path).utf8
        return utf8[..<(utf8.lastIndex(of: UInt8(ascii: "/")) ?? utf8.startIndex)]
    }

    /// The least text above every path that starts with `prefix` (which ends with "/"), in
    /// byte order: the prefix with its "/" made "0", the next byte.
    static func upperBound(ofPathsUnder prefix: String) -> String {
        String(prefix.dropLast()) + "0"
    }

    /// A row's place in Firestore's order of paths (`IDOrder`, see PostgresSchema's migration 7):
    /// among a collection's documents, its id's key (`shelf_name_key`); among a group's, or any
    /// paths, its segments' keys compared one by one (`shelf_path_key`; the bytes of the joined
    /// text would not do: "a/b" < "a-c" by segments). Indexes are made on these expressions.
    static func key(isGroup: Bool) -> String {
        isGroup ? "shelf_path_key(path)" : "shelf_name_key(path)"
    }

    /// `path`'s key as `key(isGroup:)` gives a row's, `path` bound as the next parameter.
    mutating func key(ofPath path: String, isGroup: Bool) -> String {
        "\(isGroup ? "shelf_path_key" : "shelf_name_key")(\(bind(path)) COLLATE \"C\")"
    }

    /// The field's value in a row (`fields -> 'a' -> 'b'`), written out as literals so that
    /// an index on the same expression serves it.
    static func value(_ field: [String]) -> String {
        "fields" + field.map { " -> " + literal($0) }.joined()
    }

    /// The field's place in query orders (see DocumentStore's `ServerOrderRank`).
    static func rank(_ field: [String]) -> String { "shelf_order_rank(\(value(field)))" }
    static func key(_ field: [String]) -> String { "shelf_order_key(\(value(field)))" }
    static func text(_ field: [String]) -> String { "shelf_order_text(\(value(field))) COLLATE \"C\"" }

    /// A string literal (standard_conforming_strings, on since PostgreSQL 9.1: no backslash escapes).
    static func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }
}
