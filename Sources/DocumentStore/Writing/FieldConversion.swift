import Foundation

/// Applies what a caller writes to what is stored, as Firestore does for `setData` (replace,
/// merge, merge of named fields) and `updateData`, with `FieldValue` sentinels resolved against
/// the stored values.
package struct FieldConversion {
    let documentPath: String
    /// One instant for every `serverTimestamp()` of a write.
    let writeTime: Timestamp

    package enum Merge: Sendable {
        case none
        case all
        case fields([FieldPath])
    }

    private func fail(_ field: String, _ reason: String) -> DocumentStoreError {
        .invalidValue(path: documentPath, field: field, reason: reason)
    }

    // MARK: setData

    /// The document's new fields after `setData(data)` over `existing` (nil: no document).
    func set(_ data: [String: WriteValue], over existing: [String: FirestoreValue]?, merge: Merge) throws(DocumentStoreError) -> [String: FirestoreValue] {
        switch merge {
        case .none:
            return try replace(data, field: "")
        case .all:
            return try mergeMap(data, into: existing ?? [:], field: "")
        case .fields(let paths):
            var fields = existing ?? [:]
            for path in paths {
                guard let value = Self.value(at: path.segments[...], in: data) else {
                    throw fail(path.description, "the field is named in mergeFields but missing from the data")
                }
                try put(value, at: path, in: &fields)
            }
            return fields
        }
    }

    /// Plain data: maps as given, sentinels other than `delete()` resolved against nothing.
    private func replace(_ data: [String: WriteValue], field: String) throws(DocumentStoreError) -> [String: FirestoreValue] {
        var fields: [String: FirestoreValue] = [:]
        fields.reserveCapacity(data.count)
        for (key, value) in data {
            let path = field.isEmpty ? key : field + "." + key
            switch value {
            case .value(let plain): fields[key] = plain
            case .map(let map): fields[key] = .map(Fields(try replace(map, field: path)))
            case .sentinel(let sentinel):
                if case .delete = sentinel.operation {
                    throw fail(path, "FieldValue.delete() can only be used with updateData and with setData and merge: true")
                }
                fields[key] = try apply(sentinel, to: nil, field: path)
            }
        }
        return fields
    }

    /// Deep merge: maps merge into stored maps, everything else replaces.
    private func mergeMap(_ data: [String: WriteValue], into existing: [String: FirestoreValue], field: String) throws(DocumentStoreError) -> [String: FirestoreValue] {
        var fields = existing
        for (key, value) in data {
            let path = field.isEmpty ? key : field + "." + key
            switch value {
            case .value(let plain): fields[key] = plain
            case .map(let map): fields[key] = .map(Fields(try mergeMap(map, into: existing[key]?.mapValue?.dictionary ?? [:], field: path)))
            case .sentinel(let sentinel): fields[key] = try apply(sentinel, to: existing[key], field: path)
            }
        }
        return fields
    }

    // MARK: updateData

    /// `updateData`: each field path replaces the value at its path; no path may lie inside another.
    func update(_ data: [(FieldPath, WriteValue)], in existing: [String: FirestoreValue]) throws(DocumentStoreError) -> [String: FirestoreValue] {
        let paths = data.map(\.0)
        for (i, a) in paths.enumerated() {
            for b in paths[(i + 1)...] where a.isPrefix(of: b) || b.isPrefix(of: a) {
                throw fail(b.description, "the field path conflicts with \(a.description) in the same update")
            }
        }
        var fields = existing
        for (path, value) in data { try put(value, at: path, in: &fields) }
        return fields
    }

    /// Puts `value` at `path` as one field: a map replaces what is there, a sentinel applies to it.
    private func put(_ value: WriteValue, at path: FieldPath, in fields: inout [String: FirestoreValue]) throws(DocumentStoreError) {
        try Self.setValue(at: path.segments[...], in: &fields) { current throws(DocumentStoreError) in
            switch value {
            case .sentinel(let sentinel): return try apply(sentinel, to: current, field: path.description)
            case .map(let map): return .map(Fields(try replace(map, field: path.description)))
            case .value(let plain): return plain
            }
        }
    }

    // MARK: Paths

    private static func value(at path: ArraySlice<String>, in data: [String: WriteValue]) -> WriteValue? {
        guard let value = data[path.first!] else { return nil }
        if path.count == 1 { return value }
        guard case .map(let nested) = value else { return nil }
        return Self.value(at: path.dropFirst(), in: nested)
    }

    /// Sets (or with nil removes) the value at `path`, creating maps on the way.
    package static func setValue(at path: ArraySlice<String>, in fields: inout [String: FirestoreValue],
                                 _ make: (FirestoreValue?) throws(DocumentStoreError) -> FirestoreValue?) throws(DocumentStoreError) {
        let key = path.first!
        if path.count == 1 {
            fields[key] = try make(fields[key])
            return
        }
        var nested = fields[key]?.mapValue?.dictionary ?? [:]
        if fields[key] == nil, try make(nil) == nil { return }  // deleting inside a missing map: nothing to do
        try setValue(at: path.dropFirst(), in: &nested, make)
        fields[key] = .map(Fields(nested))
    }

    // MARK: Sentinels

    /// The value a sentinel leaves at a field holding `existing`; nil removes the field.
    func apply(_ sentinel: FieldValue, to existing: FirestoreValue?, field: String) throws(DocumentStoreError) -> FirestoreValue? {
        switch sentinel.operation {
        case .serverTimestamp:
            return .timestamp(writeTime.truncatedToMicroseconds)
        case .delete:
            return nil
        case .increment(let operand):
            return Self.increment(existing, by: operand)
        case .minimum(let operand):
            return Self.extreme(existing, operand, minimum: true)
        case .maximum(let operand):
            return Self.extreme(existing, operand, minimum: false)
        case .arrayUnion(let elements):
            var items: [FirestoreValue] = []
            if case .array(let current)? = existing { items = current }
            for element in try values(elements, field: field) where !items.contains(where: { Self.same($0, element) }) { items.append(element) }
            return .array(items)
        case .arrayRemove(let elements):
            guard case .array(let current)? = existing else { return .array([]) }
            let removed = try values(elements, field: field)
            return .array(current.filter { item in !removed.contains { Self.same(item, $0) } })
        }
    }

    /// Array transforms match elements as Firestore's server does, by value order: the integer
    /// 1 is the double 1.0 (also inside maps and arrays).
    private static func same(_ a: FirestoreValue, _ b: FirestoreValue) -> Bool {
        ValueOrder.compare(a, b) == 0
    }

    /// Firestore's increment: a field that is not a number becomes the operand (-0.0 stays
    /// -0.0, as it would not added to 0); integers stay integers and saturate at the 64-bit
    /// limits instead of overflowing; with a double on either side the sum is a double.
    static func increment(_ existing: FirestoreValue?, by operand: FirestoreValue) -> FirestoreValue {
        switch (existing, operand) {
        case let (.double(base)?, _):
            return .double(base + (operand.numberValue ?? 0))
        case let (.integer(base)?, .integer(by)):
            return .integer(saturatingSum(base, by))
        case let (.integer(base)?, _):
            return .double(Double(base) + (operand.numberValue ?? 0))
        default:
            return operand.numberValue == nil ? .integer(0) : operand
        }
    }

    private static func saturatingSum(_ a: Int64, _ b: Int64) -> Int64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? (b > 0 ? .max : .min) : sum
    }

    /// Firestore's minimum and maximum: a field that is not a number becomes the operand; two
    /// integers compare exactly; otherwise as doubles, where NaN wins (the stored NaN first) and
    /// a tie keeps what is stored (so 3 stays 3 against 3.0, and -0.0 stays against 0).
    static func extreme(_ existing: FirestoreValue?, _ operand: FirestoreValue, minimum: Bool) -> FirestoreValue {
        guard let existing, let stored = existing.numberValue, let given = operand.numberValue else { return operand }
        if case .integer(let a) = existing, case .integer(let b) = operand {
            return .integer(minimum ? min(a, b) : max(a, b))
        }
        if stored.isNaN { return existing }
        if given.isNaN { return operand }
        if stored == given { return existing }
        return (minimum ? stored < given : stored > given) ? existing : operand
    }

    private func values(_ elements: [Any], field: String) throws(DocumentStoreError) -> [FirestoreValue] {
        var values: [FirestoreValue] = []
        for (index, element) in elements.enumerated() {
            if element is FieldValue { throw fail("\(field)[\(index)]", "FieldValue sentinels cannot be used inside arrays") }
            values.append(try FirestoreValue(any: element, field: "\(field)[\(index)]", document: documentPath))
        }
        return values
    }
}
