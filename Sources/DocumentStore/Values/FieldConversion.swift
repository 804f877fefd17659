import Foundation

/// Turns the values callers pass to `setData`, `updateData` and `addDocument(data:)` into stored
/// JSON, applying `FieldValue` sentinels against what is stored; and stored JSON back into the
/// plain Swift values `data()` returns.
struct FieldConversion {
    let documentPath: String
    /// One instant for every `serverTimestamp()` of a write.
    let writeTime: Timestamp

    enum Mode { case replace, merge }

    /// The document's new fields after `setData(data, merge:)` over `existing`.
    func set(_ data: [String: Any], over existing: [String: JSONValue]?, merge: Bool) throws -> [String: JSONValue] {
        let result = try convertMap(data, existing: merge ? existing ?? [:] : [:], mode: merge ? .merge : .replace, field: "")
        return result
    }

    /// `updateData`: keys are dotted field paths; each replaces the value at its path.
    func update(_ data: [String: Any], in existing: [String: JSONValue]) throws -> [String: JSONValue] {
        var fields = existing
        for (fieldPath, value) in data {
            let keys = fieldPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard !keys.contains(where: \.isEmpty) else {
                throw DocumentStoreError.invalidValue(path: documentPath, field: fieldPath, reason: "a field path cannot have empty parts")
            }
            try Self.setValue(at: keys[...], in: &fields) { current in
                try convert(value, existing: current, mode: .replace, field: fieldPath)
            }
        }
        return fields
    }

    private static func setValue(at keys: ArraySlice<String>, in fields: inout [String: JSONValue],
                                 _ make: (JSONValue?) throws -> JSONValue?) rethrows {
        let key = keys.first!
        if keys.count == 1 {
            fields[key] = try make(fields[key])
            return
        }
        var nested = fields[key]?.objectValue ?? [:]
        try setValue(at: keys.dropFirst(), in: &nested, make)
        fields[key] = .object(nested)
    }

    private func convertMap(_ data: [String: Any], existing: [String: JSONValue], mode: Mode, field: String) throws -> [String: JSONValue] {
        var fields = existing
        for (key, value) in data {
            let path = field.isEmpty ? key : field + "." + key
            fields[key] = try convert(value, existing: existing[key], mode: mode, field: path)
        }
        return fields
    }

    /// nil means "remove the field" (`FieldValue.delete()`).
    private func convert(_ value: Any, existing: JSONValue?, mode: Mode, field: String) throws -> JSONValue? {
        if let sentinel = value as? FieldValue {
            return try apply(sentinel, to: existing, mode: mode, field: field)
        }
        // A model's nested struct arrives as a JSON object: it merges into the stored map too.
        if let map = value as? [String: Any] ?? (value as? JSONValue)?.objectValue.map({ $0 as [String: Any] }) {
            let base = mode == .merge ? existing?.objectValue ?? [:] : [:]
            return .object(try convertMap(map, existing: base, mode: mode, field: field))
        }
        return try plain(value, field: field)
    }

    private func apply(_ sentinel: FieldValue, to existing: JSONValue?, mode: Mode, field: String) throws -> JSONValue? {
        switch sentinel.operation {
        case .serverTimestamp:
            return .string(writeTime.rfc3339)
        case .delete:
            return nil
        case .increment(let by, let isInteger):
            if isInteger, case .number(let text)? = existing, let current = Int64(text),
               case (let sum, false) = current.addingReportingOverflow(Int64(by)) {
                return .number(String(sum))
            }
            if let current = existing?.doubleValue { return .number(try number(current + by, field: field)) }
            return .number(isInteger ? String(Int64(by)) : try number(by, field: field))
        case .arrayUnion(let elements):
            var items: [JSONValue] = []
            if case .array(let current)? = existing { items = current }
            for element in elements {
                let item = try plain(element, field: field)
                if !items.contains(item) { items.append(item) }
            }
            return .array(items)
        case .arrayRemove(let elements):
            guard case .array(let current)? = existing else { return .array([]) }
            let removed = try elements.map { try plain($0, field: field) }
            return .array(current.filter { !removed.contains($0) })
        }
    }

    /// A value with no sentinel in it.
    func plain(_ value: Any, field: String) throws -> JSONValue {
        let type = type(of: value)
        if type == Bool.self { return .bool(value as! Bool) }
        if let integer = value as? any BinaryInteger { return .number(String(describing: integer)) }
        if let double = value as? Double { return .number(try number(double, field: field)) }
        if let float = value as? Float {
            guard float.isFinite else { return .number(try number(Double(float), field: field)) }
            return .number("\(float)")
        }
        if let number = value as? NSNumber {
            switch String(cString: number.objCType) {
            case "c", "B": return .bool(number.boolValue)
            case "f", "d": return .number(try self.number(number.doubleValue, field: field))
            case "Q": return .number(String(number.uint64Value))
            default: return .number(String(number.int64Value))
            }
        }
        switch value {
        case let string as String: return .string(string)
        case is NSNull: return .null
        case let date as Date: return .string(Timestamp(date: date).rfc3339)
        case let timestamp as Timestamp: return .string(timestamp.rfc3339)
        case let point as GeoPoint:
            if let problem = GeoPoint.problem(latitude: point.latitude, longitude: point.longitude) {
                throw DocumentStoreError.invalidValue(path: documentPath, field: field, reason: "invalid GeoPoint: \(problem)")
            }
            return .object(["latitude": .number(try number(point.latitude, field: field)),
                            "longitude": .number(try number(point.longitude, field: field))])
        case let url as URL: return .string(url.absoluteString)
        case let data as Data: return .string(data.base64EncodedString())
        case let reference as DocumentReference: return .string(reference.path)
        case let json as JSONValue: return json
        case let array as [Any]:
            return .array(try array.enumerated().map { index, element in
                if element is FieldValue {
                    throw DocumentStoreError.invalidValue(path: documentPath, field: "\(field)[\(index)]", reason: "FieldValue sentinels cannot be used inside arrays")
                }
                return try plain(element, field: "\(field)[\(index)]")
            })
        case let map as [String: Any]:
            var fields: [String: JSONValue] = [:]
            for (key, element) in map {
                let path = field.isEmpty ? key : field + "." + key
                fields[key] = try plain(element, field: path)
            }
            return .object(fields)
        case let optional as OptionalProtocol where optional.isNone:
            return .null
        case is FieldValue:
            throw DocumentStoreError.invalidValue(path: documentPath, field: field, reason: "a FieldValue cannot be used here")
        default:
            throw DocumentStoreError.invalidValue(path: documentPath, field: field, reason: "values of type \(type) cannot be stored; use strings, numbers, booleans, null, Date, Timestamp, GeoPoint, URL, Data, arrays or maps")
        }
    }

    private func number(_ value: Double, field: String) throws -> String {
        guard value.isFinite else {
            throw DocumentStoreError.invalidValue(path: documentPath, field: field, reason: "\(value) cannot be stored in JSON; expected a finite number")
        }
        return "\(value)"
    }

    /// Stored JSON as the plain Swift values `data()` returns: String, Bool, Int, Double,
    /// NSNull, [Any], [String: Any]. Timestamps come back as their RFC 3339 strings.
    static func plainValue(_ json: JSONValue) -> Any {
        switch json {
        case .null: return NSNull()
        case .bool(let b): return b
        case .number(let text):
            if let integer = Int(text) { return integer }
            return Double(text) ?? 0
        case .string(let s): return s
        case .array(let items): return items.map(plainValue)
        case .object(let fields): return fields.mapValues(plainValue)
        }
    }
}

private protocol OptionalProtocol { var isNone: Bool { get } }
extension Optional: OptionalProtocol { var isNone: Bool { self == nil } }
