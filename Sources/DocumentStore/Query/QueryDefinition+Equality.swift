/// Two queries are equal when they ask for the same thing, as in Firebase: the same documents,
/// filters, orders (implicit ones included), cursors and limit. Compared through one canonical
/// text, so equality and hashing agree.
extension QueryDefinition: Hashable {
    package static func == (a: QueryDefinition, b: QueryDefinition) -> Bool { a.canonicalID == b.canonicalID }
    package func hash(into hasher: inout Hasher) { hasher.combine(canonicalID) }

    var canonicalID: String {
        var text: String
        switch source {
        case .collection(let path): text = "collection:" + path.segments.map(Self.quoted).joined(separator: "/")
        case .group(let id): text = "group:" + Self.quoted(id)
        }
        text += "|where:" + filters.map(Self.canonical).joined(separator: ",")
        text += "|order:" + orders.map { Self.quoted($0.field.description) + ($0.descending ? " desc" : " asc") }.joined(separator: ",")
        if let limit { text += "|limit:\(limitKind == .first ? "first" : "last") \(limit)" }
        if offset > 0 { text += "|offset:\(offset)" }
        if !words.isEmpty { text += "|words:" + words.map(Self.quoted).joined(separator: ",") }
        if let start { text += "|start:" + Self.canonical(start) }
        if let end { text += "|end:" + Self.canonical(end) }
        return text
    }

    private static func canonical(_ filter: QueryFilter) -> String {
        switch filter {
        case .field(let f): return quoted(f.field.description) + " " + f.op.rawValue + " " + f.value.canonical
        case .and(let filters): return "and(" + filters.map(canonical).joined(separator: ",") + ")"
        case .or(let filters): return "or(" + filters.map(canonical).joined(separator: ",") + ")"
        }
    }

    private static func canonical(_ bound: Bound) -> String {
        (bound.inclusive ? "at[" : "after[") + bound.position.map(\.canonical).joined(separator: ",") + "]"
    }

    /// Bytes, not characters: "é" precomposed and decomposed are two values, as in Firestore.
    static func quoted(_ text: String) -> String {
        "\"" + text.utf8.map { String($0, radix: 16) }.joined(separator: " ") + "\""
    }
}

extension FirestoreValue {
    /// An exact, type-tagged text of the value: 1 and 1.0 differ, as do 0.0 and -0.0.
    var canonical: String {
        switch self {
        case .null: return "null"
        case .boolean(let b): return "b:\(b)"
        case .integer(let i): return "i:\(i)"
        case .double(let d): return "d:\(d.isNaN ? "nan" : String(d.bitPattern, radix: 16))"
        case .timestamp(let t): return "t:\(t.seconds).\(t.nanoseconds)"
        case .string(let s): return "s:" + QueryDefinition.quoted(s)
        case .bytes(let data): return "y:" + data.map { String($0, radix: 16) }.joined(separator: " ")
        case .reference(let r): return "r:" + r.resourcePath.segments.map(QueryDefinition.quoted).joined(separator: "/")
        case .geoPoint(let p): return "g:\(p.latitude.bitPattern),\(p.longitude.bitPattern)"
        case .array(let items): return "[" + items.map(\.canonical).joined(separator: ",") + "]"
        case .map(let fields):  // names in their sorted order
            return "{" + fields.map { QueryDefinition.quoted($0.name) + ":" + $0.value.canonical }.joined(separator: ",") + "}"
        }
    }
}
