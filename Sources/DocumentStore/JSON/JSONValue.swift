/// A JSON value as it stands in a document file.
///
/// Numbers keep their literal text, so nothing is lost between disk and the decoder:
/// `18446744073709551615` stays exact, and whether it fits an `Int8` is decided by the type
/// that reads it, with an error that can name the number.
package enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    var objectValue: [String: JSONValue]? {
        if case .object(let fields) = self { return fields }
        return nil
    }

    /// The value as a person reads it in an error message: `the string "twohundredfifty"`.
    var described: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return "the boolean \(b)"
        case .number(let n): return "the number \(n)"
        case .string(let s):
            let shown = s.count > 60 ? String(s.prefix(57)) + "..." : s
            return "the string \"\(shown)\""
        case .array(let items): return "an array of \(items.count) item\(items.count == 1 ? "" : "s")"
        case .object: return "a map"
        }
    }

    /// Numeric value for ordering and equality in queries.
    var doubleValue: Double? {
        if case .number(let n) = self { return Double(n) }
        return nil
    }
}
