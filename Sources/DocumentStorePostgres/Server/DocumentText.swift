import DocumentStore
/// A document's fields as JSON text for a database server: the on-disk encoding
/// (`DocumentJSON`), made safe for PostgreSQL's `jsonb`, which keeps numbers as exact decimals
/// but drops their exponent and the sign of zero. A double written with a positive exponent
/// (`1e+16`) is written out in full with a fraction (`10000000000000000.0`), so it reads back
/// as a double and never as the integer `10000000000000000`; -0.0 is written
/// `{"$double": -1e-400}`, a decimal that `jsonb` keeps and that reads back as -0.0.
enum DocumentText {
    static func text(_ fields: Fields) -> String {
        String(decoding: JSONWriter.compactBytes(.object(fields.dictionary(json))), as: UTF8.self)
    }

    static func document(_ text: String?, store: Firestore) -> StoredDocument {
        var scratch = DocumentParser.Scratch()
        return document(text, store: store, scratch: &scratch)
    }

    /// One of many documents, which share the shapes of their maps through `scratch`.
    static func document(_ text: String?, store: Firestore, scratch: inout DocumentParser.Scratch) -> StoredDocument {
        guard let text else { return .missing }
        return StoredDocument.parse(ArraySlice(text.utf8), store: store, scratch: &scratch)
    }

    private static func json(_ value: FirestoreValue) -> JSONValue {
        switch value {
        case .double(let d) where d == 0 && d.sign == .minus: return .object(["$double": .number("-1e-400")])
        case .double(let d) where d.isFinite: return .number(positional(FirestoreValue.text(of: d)))
        case .array(let items): return .array(items.map(json))
        case .map(let fields):
            let object = JSONValue.object(fields.dictionary(json))
            if fields.count == 1, fields.names[0].hasPrefix("$") { return .object(["$map": object]) }
            return object
        default: return DocumentJSON.json(value)
        }
    }

    /// `1.5e+300` as `15` followed by 299 zeros and `.0`; any other text as it is.
    static func positional(_ text: String) -> String {
        guard let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }),
              let exponent = Int(text[text.index(after: e)...].drop { $0 == "+" }), exponent > 0 else { return text }
        var mantissa = Substring(text[..<e])
        let sign = mantissa.first == "-" ? "-" : ""
        if !sign.isEmpty { mantissa = mantissa.dropFirst() }
        let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        let whole = String(parts[0])
        let fraction = parts.count > 1 ? String(parts[1]) : ""
        let digits = whole + fraction
        let point = whole.count + exponent
        if point >= digits.count { return sign + digits + String(repeating: "0", count: point - digits.count) + ".0" }
        return sign + digits.prefix(point) + "." + digits.dropFirst(point)
    }
}
