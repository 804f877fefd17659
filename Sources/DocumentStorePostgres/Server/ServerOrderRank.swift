import DocumentStore
/// Where a value falls in the server's order of a field (the SQL functions `shelf_order_rank`
/// and `shelf_order_text` of PostgresSchema's migration 5 and `shelf_order_key` of its
/// migration 3 compute the same): Firestore's order of types, with numbers split so that
/// within an exact rank the decimal key orders exactly as Firestore (doubles below 2^53 in
/// size are written exactly enough: no integer lies between one and its shortest text), and
/// the types after numbers (rank 8) told apart by a text: timestamps "\u{1}", then strings
/// "\u{2}" and their text (UTF-8 bytes, as Firestore orders them), bytes, references and
/// geopoints "\u{3}", arrays "\u{4}" and their elements (`elementText`), maps "\u{5}".
struct ServerOrderRank {
    let rawValue: Int
    /// A decimal for numbers and booleans, ordering them within their rank.
    let key: String
    /// For rank 8: the class and, for a string, its text; "" otherwise.
    let text: String
    /// Exact ordering: not a large number, and of rank 8 only a string or an array of nulls,
    /// booleans and strings.
    let isExact: Bool

    static let largeNumber = 9_007_199_254_740_992.0  // 2^53

    init(_ value: FirestoreValue?) {
        text = Self.text(value)
        switch value {
        case .null?: (rawValue, key) = (0, "0")
        case .boolean(let b)?: (rawValue, key) = (1, b ? "1" : "0")
        case .double(let d)? where d.isNaN: (rawValue, key) = (2, "0")
        case .double(let d)? where d == -.infinity: (rawValue, key) = (3, "0")
        case .double(let d)? where d == .infinity: (rawValue, key) = (7, "0")
        case .double(let d)?:
            let text = d == 0 ? "0" : DocumentText.positional(FirestoreValue.text(of: d))
            (rawValue, key) = (Self.numberRank(d), text)
        case .integer(let i)?: (rawValue, key) = (Self.numberRank(Double(i)), String(i))
        default: (rawValue, key) = (8, "0")
        }
        switch value {
        case .string(let string)?: isExact = !string.contains("\0")
        case .array(let elements)?: isExact = elements.allSatisfy(Self.isExactElement)
        default: isExact = rawValue != 4 && rawValue != 6 && rawValue != 8
        }
    }

    private static func numberRank(_ value: Double) -> Int {
        value <= -largeNumber ? 4 : (value >= largeNumber ? 6 : 5)
    }

    private static func text(_ value: FirestoreValue?) -> String {
        switch value {
        case .null?, .boolean?, .integer?, .double?: return ""
        case .timestamp?: return "\u{1}"
        case .string(let string)?: return "\u{2}" + string
        case .bytes?, .reference?, .geoPoint?: return "\u{3}"
        case .array(let elements)?: return "\u{4}" + elements.map(elementText).joined()
        case .map?, nil: return "\u{5}"
        }
    }

    /// An element of an array in its text: a letter for its type in Firestore's order, then
    /// for a boolean its value and for a string its text, "\u{1}" and "\u{2}" escaped so that
    /// the "\u{1}" ending each element sorts before anything that follows (a shorter string
    /// first, then a shorter array). Other elements are told apart by their type alone (loose).
    private static func elementText(_ element: FirestoreValue) -> String {
        let text = switch element {
        case .null: "a"
        case .boolean(let b): b ? "b1" : "b0"
        case .integer, .double: "c"
        case .timestamp: "d"
        case .string(let string): "e" + string.replacingOccurrences(of: "\u{2}", with: "\u{2}\u{2}").replacingOccurrences(of: "\u{1}", with: "\u{2}\u{1}")
        case .bytes, .reference, .geoPoint: "f"
        case .array: "i"
        case .map: "k"
        }
        return text + "\u{1}"
    }

    private static func isExactElement(_ element: FirestoreValue) -> Bool {
        switch element {
        case .null, .boolean: true
        case .string(let string): !string.contains("\0")
        default: false
        }
    }
}

/// A comparison of a field with a number of the exact rank 5: Firestore matches the numbers
/// (ranks 3 to 7: not NaN) on that side of it, or equal to it, which (rank, key) compared with
/// (5, key) tells exactly (0 and -0.0 included).
package struct ServerRange: Sendable, Equatable {
    /// "=", "<", "<=", ">" or ">=".
    package var op: String
    /// The number, a decimal.
    package var key: String

    init?(_ op: FilterOperator, _ value: FirestoreValue) {
        let rank = ServerOrderRank(value)
        guard rank.rawValue == 5, let op = Self.sql(op) else { return nil }
        self.op = op
        key = rank.key
    }

    /// The SQL operator of a comparison; nil for the others.
    static func sql(_ op: FilterOperator) -> String? {
        switch op {
        case .equal: return "="
        case .lessThan: return "<"
        case .lessThanOrEqual: return "<="
        case .greaterThan: return ">"
        case .greaterThanOrEqual: return ">="
        default: return nil
        }
    }
}
