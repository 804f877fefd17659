import DocumentStore
import Foundation

/// What the text typed after `/` asks for: comparisons of fields (`pages>400`,
/// `author="Ann Leckie"`, `status!=draft`), kept as Firestore keeps a query's filters (a number
/// is compared with numbers, a text with texts), and the rest as words found in any shown field.
struct ListFilter: Equatable {
    struct Comparison: Equatable {
        /// As typed: a column's title or a field's path.
        var name: String
        var op: Op
        var value: Value
    }

    enum Op: String, CaseIterable {
        // Two-character operators first, so `>=` is not read as `>` then `=`.
        case lessThanOrEqual = "<=", greaterThanOrEqual = ">=", notEqual = "!=", equalTwice = "=="
        case lessThan = "<", greaterThan = ">", equal = "="
    }

    /// A compared value as typed: a number, true, false or null; a text in quotes or bare.
    enum Value: Equatable {
        case integer(Int), double(Double), bool(Bool), null, text(String)

        init(_ typed: String) {
            if typed.count >= 2, typed.first == "\"", typed.last == "\"" {
                self = .text(String(typed.dropFirst().dropLast()))
            } else if let integer = Int(typed) {
                self = .integer(integer)
            } else if let double = Double(typed), double.isFinite {
                self = .double(double)
            } else {
                switch typed {
                case "true": self = .bool(true)
                case "false": self = .bool(false)
                case "null": self = .null
                default: self = .text(typed)
                }
            }
        }

        var any: Any {
            switch self {
            case .integer(let value): value
            case .double(let value): value
            case .bool(let value): value
            case .null: NSNull()
            case .text(let value): value
            }
        }
    }

    var comparisons: [Comparison] = []
    /// The words that are no comparison, as typed (folded when matched: `TextFolding`).
    var text = ""

    /// Words are split at spaces outside quotes; a word is a comparison when it is a name
    /// (a letter or `_`, then letters, digits, `_` or `.`), an operator and a value.
    init(_ typed: String) {
        var words: [String] = []
        for word in Self.words(typed) {
            if let comparison = Self.comparison(word) { comparisons.append(comparison) } else { words.append(word) }
        }
        text = words.joined(separator: " ")
    }

    var isEmpty: Bool { comparisons.isEmpty && text.isEmpty }

    private static func words(_ typed: String) -> [String] {
        var words: [String] = []
        var word = ""
        var inQuotes = false
        for character in typed {
            if character == "\"" { inQuotes.toggle() }
            if character == " " && !inQuotes {
                if !word.isEmpty { words.append(word) }
                word = ""
            } else {
                word.append(character)
            }
        }
        if !word.isEmpty { words.append(word) }
        return words
    }

    private static func comparison(_ word: String) -> Comparison? {
        guard let first = word.unicodeScalars.first, CharacterSet.letters.contains(first) || first == "_" else { return nil }
        let nameEnd = word.firstIndex { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == ".") } ?? word.endIndex
        let rest = word[nameEnd...]
        guard let op = Op.allCases.first(where: { rest.hasPrefix($0.rawValue) }) else { return nil }
        let value = rest.dropFirst(op.rawValue.count)
        guard !value.isEmpty else { return nil }
        return Comparison(name: String(word[..<nameEnd]), op: op, value: Value(String(value)))
    }

    /// The query whose filters are the comparisons, on `collection`; `field` gives the field
    /// a name stands for (a column's, or the name itself as a path).
    func query(on collection: CollectionReference, field: (String) -> FieldPath) -> Query {
        comparisons.reduce(collection as Query) { query, comparison in
            let path = field(comparison.name), value = comparison.value.any
            switch comparison.op {
            case .equal, .equalTwice: return query.whereField(path, isEqualTo: value)
            case .notEqual: return query.whereField(path, isNotEqualTo: value)
            case .lessThan: return query.whereField(path, isLessThan: value)
            case .lessThanOrEqual: return query.whereField(path, isLessThanOrEqualTo: value)
            case .greaterThan: return query.whereField(path, isGreaterThan: value)
            case .greaterThanOrEqual: return query.whereField(path, isGreaterThanOrEqualTo: value)
            }
        }
    }
}

extension ListFilter {
    /// Why the typed filter lists nothing though documents may match: in the list while it is
    /// typed, and said again on Enter.
    static func refusal(of text: String, _ problem: String) -> String {
        "The filter \"\(text.shownInMessage)\" is refused: \(problem)"
    }
}
