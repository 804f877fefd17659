import Foundation

/// Reads the JSON form of Firestore's REST API, which bundles hold: values
/// (`{"stringValue": "Dune"}`, `{"integerValue": "42"}`, …), resource names
/// (`projects/p/databases/d/documents/books/dune`) and timestamps (RFC 3339 text or
/// `{"seconds", "nanos"}`). Every error names the element and the field that is wrong.
struct RESTJSON {
    let store: Firestore
    /// The element being read, as messages name it ("element 3").
    let element: String

    func failure(_ field: String, _ reason: String) -> FirestoreErrorCode {
        FirestoreErrorCode(.invalidArgument, "the bundle is not valid: \(element), \(field): \(reason)")
    }

    func object(_ json: JSONValue?, _ field: String) throws -> [String: JSONValue] {
        guard case .object(let object)? = json else { throw failure(field, "expected an object, found \(json?.described ?? "nothing")") }
        return object
    }

    func string(_ json: JSONValue?, _ field: String) throws -> String {
        guard case .string(let text)? = json else { throw failure(field, "expected a string, found \(json?.described ?? "nothing")") }
        return text
    }

    /// An integer, as a JSON number or a string of digits (64-bit integers are strings there).
    func integer(_ json: JSONValue?, _ field: String) throws -> Int64 {
        switch json {
        case .number(let text)?, .string(let text)?:
            if let integer = Int64(text) { return integer }
            throw failure(field, "expected a 64-bit integer, found \(json?.described ?? "")")
        default: throw failure(field, "expected an integer, found \(json?.described ?? "nothing")")
        }
    }

    func timestamp(_ json: JSONValue?, _ field: String) throws -> Timestamp {
        if case .string(let text)? = json {
            guard let time = Timestamp(rfc3339: text) else { throw failure(field, "expected an RFC 3339 time, found \(json?.described ?? "")") }
            return time
        }
        let parts = try object(json, field)
        let seconds = try integer(parts["seconds"] ?? .number("0"), field + ".seconds")
        let nanos = try integer(parts["nanos"] ?? .number("0"), field + ".nanos")
        guard (0..<1_000_000_000).contains(nanos) else { throw failure(field + ".nanos", "expected 0...999999999, found \(nanos)") }
        return Timestamp(seconds: seconds, nanoseconds: Int32(nanos))
    }

    /// The path of a resource name in this store's database: `projects/*/databases/<this
    /// store's database>/documents[/…]` (any project: a store has none).
    func path(ofName json: JSONValue?, _ field: String) throws -> ResourcePath {
        let text = try string(json, field)
        let name: ResourceName
        do { name = try ResourceName(parsing: text, underDocuments: true) } catch { throw failure(field, error.description) }
        guard name.database == store.databaseID else {
            throw failure(field, "\"\(text)\" is in the database \(name.database), not this store's \(store.databaseID)")
        }
        let path = ResourcePath(segments: name.path)
        if !path.segments.isEmpty {
            do { _ = try ResourcePath.parse(path.description, expectDocument: path.isDocument, rules: store.idRules) } catch {
                throw failure(field, "\(publicError(error).localizedDescription)")
            }
        }
        return path
    }

    /// A document's or a map's `fields`; absent is no field.
    func fields(_ json: JSONValue?, _ field: String) throws -> Fields {
        guard let json else { return Fields([:]) }
        var fields: [String: FirestoreValue] = [:]
        for (name, item) in try object(json, field) { fields[name] = try value(item, field + "." + name) }
        return Fields(fields)
    }

    func value(_ json: JSONValue, _ field: String) throws -> FirestoreValue {
        let tagged = try object(json, field)
        guard tagged.count == 1, let (kind, content) = tagged.first else {
            throw failure(field, "expected a value: an object of one key such as \"stringValue\", found keys \(tagged.keys.sorted())")
        }
        switch kind {
        case "nullValue": return .null
        case "booleanValue":
            guard case .bool(let flag) = content else { throw failure(field, "booleanValue holds \(content.described), expected true or false") }
            return .boolean(flag)
        case "integerValue": return .integer(try integer(content, field))
        case "doubleValue": return .double(try double(content, field))
        case "timestampValue": return .timestamp(try timestamp(content, field))
        case "stringValue": return .string(try string(content, field))
        case "bytesValue":
            guard let bytes = Data(base64Encoded: try string(content, field)) else { throw failure(field, "bytesValue is not base64") }
            return .bytes(bytes)
        case "referenceValue":
            let path = try self.path(ofName: content, field)
            guard path.isDocument, !path.segments.isEmpty else { throw failure(field, "referenceValue does not name a document") }
            return .reference(DocumentReference(firestore: store, path: path))
        case "geoPointValue":
            let point = try object(content, field)
            let latitude = try double(point["latitude"] ?? .number("0"), field + ".latitude")
            let longitude = try double(point["longitude"] ?? .number("0"), field + ".longitude")
            if let problem = GeoPoint.problem(latitude: latitude, longitude: longitude) { throw failure(field, problem) }
            return .geoPoint(GeoPoint(latitude: latitude, longitude: longitude))
        case "arrayValue":
            guard case .array(let items)? = try object(content, field)["values"] ?? .array([]) else {
                throw failure(field, "arrayValue.values is not an array")
            }
            return .array(try items.enumerated().map { try value($1, "\(field)[\($0)]") })
        case "mapValue": return .map(try fields(try object(content, field)["fields"], field))
        default: throw failure(field, "\"\(kind)\" is not a kind of value Firestore has")
        }
    }

    /// A double, as a JSON number or as "NaN", "Infinity" or "-Infinity".
    private func double(_ json: JSONValue, _ field: String) throws -> Double {
        switch json {
        case .number(let text): if let number = Double(text) { return number }
        case .string("NaN"): return .nan
        case .string("Infinity"): return .infinity
        case .string("-Infinity"): return -.infinity
        default: break
        }
        throw failure(field, "expected a number, found \(json.described)")
    }
}
