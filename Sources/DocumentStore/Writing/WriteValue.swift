import Foundation

/// What a caller asks to write, before it meets what is stored: values, and `FieldValue`
/// sentinels at any depth of maps (never inside arrays). Both `[String: Any]` data and
/// `Firestore.Encoder`'s output arrive as this.
package enum WriteValue: Sendable {
    case value(FirestoreValue)
    case sentinel(FieldValue)
    case map([String: WriteValue])

    /// Converts caller data; `field` and `document` name the place in errors.
    init(any value: Any, field: String, document: String) throws(DocumentStoreError) {
        if let sentinel = value as? FieldValue { self = .sentinel(sentinel); return }
        if let written = value as? WriteValue { self = written; return }
        if let map = value as? [String: Any] {
            self = .map(try Self.fields(map, under: field, document: document))
            return
        }
        self = .value(try FirestoreValue(any: value, field: field, document: document))
    }

    static func fields(_ data: [String: Any], under field: String = "", document: String) throws(DocumentStoreError) -> [String: WriteValue] {
        var fields: [String: WriteValue] = [:]
        fields.reserveCapacity(data.count)
        for (key, element) in data {
            fields[key] = try WriteValue(any: element, field: field.isEmpty ? key : field + "." + key, document: document)
        }
        return fields
    }

    /// As `Firestore.Encoder.encode` returns it: plain values, sentinels as `FieldValue`.
    var anyValue: Any {
        switch self {
        case .value(let value): return value.anyValue
        case .sentinel(let sentinel): return sentinel
        case .map(let fields): return fields.mapValues(\.anyValue)
        }
    }
}
