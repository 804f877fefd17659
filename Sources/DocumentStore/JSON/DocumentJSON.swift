import Foundation

/// The JSON of a document file, typed: plain JSON where the type is plain, and a one-key object
/// tagged with `$` where JSON has no such type.
///
/// | Firestore type | on disk |
/// |---|---|
/// | null, boolean, string | `null`, `true`, `"text"` |
/// | integer (64-bit) | `42` (no fraction, no exponent) |
/// | double | `4.0`, `1.5e+300` (always a fraction or an exponent); `{"$double": "NaN"}`, `"Infinity"`, `"-Infinity"` |
/// | timestamp | `{"$timestamp": "2026-11-23T08:00:00.123456Z"}` |
/// | bytes | `{"$bytes": "<base64>"}` |
/// | reference | `{"$ref": "books/hitchhiker"}` |
/// | GeoPoint | `{"$geopoint": {"latitude": 51.5, "longitude": -0.12}}` |
/// | array, map | `[…]`, `{…}`; a map whose only key starts with `$` is written `{"$map": {…}}` |
///
/// Keys are written sorted by their UTF-8 bytes. A timestamp keeps microseconds (the rest is
/// truncated, on write and on read) and lies in 0001-01-01T00:00:00Z...9999-12-31T23:59:59.999999999Z.
///
/// Plain JSON written by a person reads as the plain types: a timestamp-like string is a string
/// (the decoder still maps it to `Date`), `{"latitude": …, "longitude": …}` is a map (which
/// decodes to `GeoPoint`), an integer too large for 64 bits is a double, `{"$unknown": …}` is a
/// map. A known tag holding the wrong thing (`{"$ref": 5}`) makes the document unreadable, with
/// a message naming the field and what the tag holds.
package enum DocumentJSON {
    static let tags: Set<String> = ["$double", "$timestamp", "$bytes", "$ref", "$geopoint", "$map"]

    struct Failure: Error, CustomStringConvertible {
        let field: String
        let message: String
        var description: String { "field \(field): \(message)" }
    }

    // MARK: Reading

    static func fields(_ object: [String: JSONValue], store: Firestore) throws(Failure) -> Fields {
        try fields(object, under: nil, store: store)
    }

    /// A map's fields; `field` names the map in errors (nil: the document itself).
    private static func fields(_ object: [String: JSONValue], under field: String?, store: Firestore) throws(Failure) -> Fields {
        var fields: [String: FirestoreValue] = [:]
        fields.reserveCapacity(object.count)
        for (name, json) in object { fields[name] = try value(json, field: field.map { $0 + "." + name } ?? name, store: store) }
        return Fields(fields)
    }

    static func value(_ json: JSONValue, field: String, store: Firestore) throws(Failure) -> FirestoreValue {
        switch json {
        case .null: return .null
        case .bool(let b): return .boolean(b)
        case .string(let s): return .string(s)
        case .number(let text): return number(text)
        case .array(let items):
            var values: [FirestoreValue] = []
            values.reserveCapacity(items.count)
            for (index, item) in items.enumerated() { values.append(try value(item, field: "\(field)[\(index)]", store: store)) }
            return .array(values)
        case .object(let object):
            if object.count == 1, let (tag, payload) = object.first, tags.contains(tag) {
                return try tagged(tag, payload, field: field, store: store)
            }
            return .map(try fields(object, under: field, store: store))
        }
    }

    /// A literal without fraction or exponent that fits 64 bits is an integer; any other is a double.
    private static func number(_ text: String) -> FirestoreValue {
        if !text.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }),
           let integer = Int64(text) {
            return .integer(integer)
        }
        return .double(Double(text) ?? .nan)
    }

    /// What each tag holds, as an error message says it.
    private static let expected: [String: String] = [
        "$double": "\"NaN\", \"Infinity\", \"-Infinity\" or a number",
        "$timestamp": "an RFC 3339 time in a string, such as \"2014-09-09T12:30:00Z\", from \(Timestamp.storableRangeText)",
        "$bytes": "base64 text in a string, such as \"AAEC\"",
        "$ref": "a document path in a string, such as \"books/hitchhiker\"",
        "$geopoint": "a map {\"latitude\": -90...90, \"longitude\": -180...180}",
        "$map": "a map",
    ]

    private static func tagged(_ tag: String, _ payload: JSONValue, field: String, store: Firestore) throws(Failure) -> FirestoreValue {
        func fail(_ detail: String = "") -> Failure {
            Failure(field: field, message: "{\"\(tag)\": …} expects \(expected[tag]!), found \(payload.described)\(detail)")
        }
        switch (tag, payload) {
        case ("$double", .string("NaN")): return .double(.nan)
        case ("$double", .string("Infinity")): return .double(.infinity)
        case ("$double", .string("-Infinity")): return .double(-.infinity)
        case ("$double", .number(let text)):
            guard let double = Double(text) else { throw fail() }
            return .double(double)
        case ("$timestamp", .string(let text)):
            guard let timestamp = Timestamp(rfc3339: text) else { throw fail() }
            if let problem = timestamp.rangeProblem { throw fail(" (\(problem))") }
            return .timestamp(timestamp.truncatedToMicroseconds)
        case ("$bytes", .string(let text)):
            guard let data = Data(base64Encoded: text) else { throw fail() }
            return .bytes(data)
        case ("$ref", .string(let text)):
            do {
                return .reference(DocumentReference(firestore: store, path: try ResourcePath.parse(text, expectDocument: true, rules: store.idRules)))
            } catch {
                throw fail(" (\(error))")
            }
        case ("$geopoint", .object(let point)):
            guard point.count == 2, case .number(let lat)? = point["latitude"], case .number(let lng)? = point["longitude"],
                  let latitude = Double(lat), let longitude = Double(lng) else { throw fail() }
            if let problem = GeoPoint.problem(latitude: latitude, longitude: longitude) { throw fail(" (\(problem))") }
            return .geoPoint(GeoPoint(latitude: latitude, longitude: longitude))
        case ("$map", .object(let object)):
            return .map(try fields(object, under: field, store: store))
        default:
            throw fail()
        }
    }

    // MARK: Writing

    static func json(_ fields: Fields) -> [String: JSONValue] {
        fields.dictionary(json)
    }

    package static func json(_ value: FirestoreValue) -> JSONValue {
        switch value {
        case .null: return .null
        case .boolean(let b): return .bool(b)
        case .integer(let i): return .number(String(i))
        case .double(let d):
            if d.isNaN { return .object(["$double": .string("NaN")]) }
            if d.isInfinite { return .object(["$double": .string(d < 0 ? "-Infinity" : "Infinity")]) }
            return .number(FirestoreValue.text(of: d))
        case .string(let s): return .string(s)
        case .timestamp(let t): return .object(["$timestamp": .string(t.rfc3339)])
        case .bytes(let data): return .object(["$bytes": .string(data.base64EncodedString())])
        case .reference(let reference): return .object(["$ref": .string(reference.path)])
        case .geoPoint(let point):
            return .object(["$geopoint": .object(["latitude": .number(FirestoreValue.text(of: point.latitude)),
                                                  "longitude": .number(FirestoreValue.text(of: point.longitude))])])
        case .array(let items): return .array(items.map(json))
        case .map(let fields):
            let object = JSONValue.object(json(fields))
            if fields.count == 1, fields.names[0].hasPrefix("$") { return .object(["$map": object]) }
            return object
        }
    }
}
