import Foundation

/// A field value as Firestore types it. Everything inside DocumentStore speaks this: the files,
/// `data()` and `get()`, the encoder and decoder, queries and listeners.
package enum FirestoreValue: Sendable {
    case null
    case boolean(Bool)
    case integer(Int64)
    case double(Double)
    case timestamp(Timestamp)
    case string(String)
    case bytes(Data)
    case reference(DocumentReference)
    case geoPoint(GeoPoint)
    case array([FirestoreValue])
    case map(Fields)

    package var mapValue: Fields? {
        if case .map(let fields) = self { return fields }
        return nil
    }

    var arrayValue: [FirestoreValue]? {
        if case .array(let items) = self { return items }
        return nil
    }

    /// The value with each reference in it naming the document of the same path in `store`
    /// (a document copied from one store to another).
    package func rebased(to store: Firestore) -> FirestoreValue {
        switch self {
        case .reference(let reference): return .reference(store.document(reference.path))
        case .array(let items): return .array(items.map { $0.rebased(to: store) })
        case .map(let fields): return .map(fields.mapValues { $0.rebased(to: store) })
        default: return self
        }
    }

    /// The number as a Double, for arithmetic across integers and doubles.
    package var numberValue: Double? {
        switch self {
        case .integer(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }

    /// The type's name as an error message says it.
    var typeName: String {
        switch self {
        case .null: return "null"
        case .boolean: return "a boolean"
        case .integer: return "an integer"
        case .double: return "a double"
        case .timestamp: return "a timestamp"
        case .string: return "a string"
        case .bytes: return "bytes"
        case .reference: return "a document reference"
        case .geoPoint: return "a GeoPoint"
        case .array: return "an array"
        case .map: return vectorElements == nil ? "a map" : "a vector"
        }
    }

    /// The value as a person reads it in an error message: `the string "twohundredfifty"`.
    package var described: String {
        switch self {
        case .null: return "null"
        case .boolean(let b): return "the boolean \(b)"
        case .integer(let i): return "the number \(i)"
        case .double(let d): return "the number \(Self.text(of: d))"
        case .timestamp(let t): return "the timestamp \(t.rfc3339)"
        case .string(let s):
            let shown = s.count > 60 ? String(s.prefix(57)) + "..." : s
            return "the string \"\(shown)\""
        case .bytes(let data): return "\(data.count) byte\(data.count == 1 ? "" : "s")"
        case .reference(let reference): return "the reference \(reference.path)"
        case .geoPoint(let point): return "the GeoPoint \(point)"
        case .array(let items): return "an array of \(items.count) item\(items.count == 1 ? "" : "s")"
        case .map: return vectorElements.map { "a vector of \($0.count) number\($0.count == 1 ? "" : "s")" } ?? "a map"
        }
    }

    /// A double as written on disk and in messages: the shortest text that reads back exactly,
    /// always with a "." or an exponent so that it reads back as a double, not an integer.
    package static func text(of double: Double) -> String {
        let text = "\(double)"
        return text.contains(where: { $0 == "." || $0 == "e" || $0 == "n" || $0 == "i" }) ? text : text + ".0"
    }
}

extension FirestoreValue: Equatable {
    /// Firestore's equality: same type and same value. An integer never equals a double (1 is
    /// not 1.0), NaN equals NaN, 0.0 is not -0.0, strings are equal when their UTF-8 bytes are.
    package static func == (a: FirestoreValue, b: FirestoreValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case let (.boolean(x), .boolean(y)): return x == y
        case let (.integer(x), .integer(y)): return x == y
        case let (.double(x), .double(y)): return x.bitPattern == y.bitPattern || (x.isNaN && y.isNaN)
        case let (.timestamp(x), .timestamp(y)): return x == y
        case let (.string(x), .string(y)): return x.utf8.elementsEqual(y.utf8)
        case let (.bytes(x), .bytes(y)): return x == y
        case let (.reference(x), .reference(y)): return x.resourcePath == y.resourcePath
        case let (.geoPoint(x), .geoPoint(y)): return x == y
        case let (.array(x), .array(y)): return x == y
        case let (.map(x), .map(y)): return x == y
        default: return false
        }
    }
}

extension FirestoreValue: Hashable {
    /// Consistent with Firestore's `==` above: NaNs hash alike, strings by their bytes, and an
    /// integer never hashes as the double of the same value needs to (they are never equal).
    package func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .boolean(let b): hasher.combine(1); hasher.combine(b)
        case .integer(let i): hasher.combine(2); hasher.combine(i)
        case .double(let d): hasher.combine(3); hasher.combine(d.isNaN ? Double.nan.bitPattern : d.bitPattern)
        case .timestamp(let t): hasher.combine(4); hasher.combine(t)
        case .string(let s): hasher.combine(5); hasher.combine(s.utf8.count); for byte in s.utf8 { hasher.combine(byte) }
        case .bytes(let data): hasher.combine(6); hasher.combine(data)
        case .reference(let reference): hasher.combine(7); hasher.combine(reference.resourcePath)
        case .geoPoint(let point): hasher.combine(8); hasher.combine(point)
        case .array(let items): hasher.combine(9); hasher.combine(items)
        case .map(let fields):
            hasher.combine(10)
            hasher.combine(fields.count)
            for (name, value) in fields {
                for byte in name.utf8 { hasher.combine(byte) }
                hasher.combine(value)
            }
        }
    }
}
