/// PostgreSQL's text and `jsonb` cannot hold U+0000, which Firestore's strings can. Stored,
/// U+0000 becomes U+0001 U+0001 and U+0001 becomes U+0001 U+0002, and reading turns them
/// back: reversible, and keeping the order of strings (U+0000 < U+0001 < every other
/// character, and no code is a prefix of another), so filters and orders run in SQL on the
/// stored text as on the strings. Only text holding U+0000 or U+0001 is changed.
enum PostgresNulEscape {
    /// A document's JSON text (as `DocumentJSON` writes it, control characters as `\u00XX`)
    /// as stored.
    static func storable(json: String) -> String {
        guard json.contains("\\u000") else { return json }
        return pieces(json).map { piece in
            switch piece {
            case .escape("0000"): return "\\u0001\\u0001"
            case .escape("0001"): return "\\u0001\\u0002"
            case .escape(let code): return "\\u" + code
            case .text(let text): return text
            }
        }.joined()
    }

    /// Stored JSON text (as PostgreSQL writes `jsonb`, control characters as `\u00xx`) back as
    /// it was written.
    static func original(json: String) -> String {
        guard json.contains("\\u0001") else { return json }
        let pieces = pieces(json)
        var out = ""
        var index = 0
        while index < pieces.count {
            if case .escape("0001") = pieces[index], index + 1 < pieces.count, case .escape(let next) = pieces[index + 1], next == "0001" || next == "0002" {
                out += next == "0001" ? "\\u0000" : "\\u0001"
                index += 2
                continue
            }
            switch pieces[index] {
            case .escape(let code): out += "\\u" + code
            case .text(let text): out += text
            }
            index += 1
        }
        return out
    }

    /// A string compared with stored text in SQL.
    static func storable(text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value < 2 }) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\u{0}": out += "\u{1}\u{1}"
            case "\u{1}": out += "\u{1}\u{2}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// An order text (`shelf_order_text`: a string's is U+0002 and the string) as stored.
    static func storable(orderText: String) -> String {
        guard orderText.unicodeScalars.first == "\u{2}" else { return orderText }
        return "\u{2}" + storable(text: String(orderText.unicodeScalars.dropFirst()))
    }

    private enum Piece {
        /// `\uXXXX`: its four hex digits, lowercased.
        case escape(String)
        /// Anything else, other escapes (`\"`, `\\`) whole.
        case text(String)
    }

    private static func pieces(_ json: String) -> [Piece] {
        var pieces: [Piece] = []
        var text = ""
        var scalars = json.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            guard scalar == "\\", let kind = scalars.next() else { text.unicodeScalars.append(scalar); continue }
            guard kind == "u" else { text += "\\"; text.unicodeScalars.append(kind); continue }
            var code = ""
            for _ in 0..<4 { if let digit = scalars.next() { code.unicodeScalars.append(digit) } }
            if !text.isEmpty { pieces.append(.text(text)); text = "" }
            pieces.append(.escape(code.lowercased()))
        }
        if !text.isEmpty { pieces.append(.text(text)) }
        return pieces
    }
}
