import Foundation

/// The values callers hand to `setData`, `updateData`, `whereField`... and the values `data()`
/// and `get()` hand back, as the Firebase SDK has them.
extension FirestoreValue {
    /// Converts a value the caller passed. `field` names it in errors (`tags[1]`, `cover.small`).
    /// `FieldValue` sentinels are the caller's to handle; here they are an error.
    init(any value: Any, field: String, document: String) throws(DocumentStoreError) {
        func fail(_ reason: String) -> DocumentStoreError {
            .invalidValue(path: document, field: field, reason: reason)
        }
        let type = type(of: value)
        if type == Bool.self { self = .boolean(value as! Bool); return }
        // An NSNumber first (what `data()` and `Firestore.Encoder` return): on Linux `as? Double`
        // also matches one holding an integer or a boolean, which would change its type.
        if type is NSNumber.Type, let number = value as? NSNumber {
            self = try Self.number(number, fail: fail)
            return
        }
        if let integer = value as? any BinaryInteger {
            guard let exact = Int64(exactly: integer) else {
                throw fail("\(integer) is out of range for a 64-bit integer (\(Int64.min)...\(Int64.max)), the only integer Firestore stores")
            }
            self = .integer(exact)
            return
        }
        if let double = value as? Double { self = .double(double); return }
        if let float = value as? Float { self = .double(Double(float)); return }
        switch value {
        case let string as String: self = .string(string)
        case is NSNull: self = .null
        case let timestamp as Timestamp: self = .timestamp(timestamp)
        case let date as Date: self = .timestamp(Timestamp(date: date))
        case let point as GeoPoint: self = .geoPoint(point)
        case let vector as VectorValue: self = .vector(vector.data)
        case let data as Data: self = .bytes(data)
        case let reference as DocumentReference: self = .reference(reference)
        case let url as URL: self = .string(url.absoluteString)
        case let stored as FirestoreValue: self = stored
        case let array as [Any]:
            var items: [FirestoreValue] = []
            items.reserveCapacity(array.count)
            for (index, element) in array.enumerated() {
                if element is FieldValue {
                    throw DocumentStoreError.invalidValue(path: document, field: "\(field)[\(index)]",
                                                          reason: "FieldValue sentinels cannot be used inside arrays")
                }
                items.append(try FirestoreValue(any: element, field: "\(field)[\(index)]", document: document))
            }
            self = .array(items)
        case let map as [String: Any]:
            var fields: [String: FirestoreValue] = [:]
            for (key, element) in map {
                fields[key] = try FirestoreValue(any: element, field: field.isEmpty ? key : field + "." + key, document: document)
            }
            self = .map(Fields(fields))
        case let map as [AnyHashable: Any]:
            var named: [String: Any] = [:]
            for (key, element) in map {
                guard let name = key.base as? String else { throw fail("map keys must be strings, found \(key.base)") }
                named[name] = element
            }
            self = try FirestoreValue(any: named, field: field, document: document)
        case let optional as OptionalProtocol where optional.isNone:
            self = .null
        case is FieldValue:
            throw fail("FieldValue.\(value) cannot be used here")
        default:
            throw fail("values of type \(type) cannot be stored; use String, Bool, a number, NSNull, Date, Timestamp, GeoPoint, VectorValue, Data, DocumentReference, arrays or maps")
        }
    }

    /// A boolean is the NSNumber class `NSNumber(value: true)` makes; "c" alone is also Int8's type.
    private static let booleanClass = ObjectIdentifier(type(of: NSNumber(value: true)))

    private static func number(_ number: NSNumber, fail: (String) -> DocumentStoreError) throws(DocumentStoreError) -> FirestoreValue {
        switch String(cString: number.objCType) {
        case "B": return .boolean(number.boolValue)
        case "c" where ObjectIdentifier(type(of: number)) == booleanClass: return .boolean(number.boolValue)
        case "f", "d": return .double(number.doubleValue)
        case "Q", "L", "I", "S", "C":
            guard number.uint64Value <= UInt64(Int64.max) else {
                throw fail("\(number.uint64Value) is out of range for a 64-bit integer (\(Int64.min)...\(Int64.max)), the only integer Firestore stores")
            }
            return .integer(Int64(number.uint64Value))
        default: return .integer(number.int64Value)
        }
    }

    /// The value as the Firebase SDK's `data()` gives it: numbers and booleans as `NSNumber` (so
    /// `as? Double` works on a stored integer and `as? Int64`, `as? Float` work), `Timestamp`,
    /// `GeoPoint`, `Data` and `DocumentReference` as themselves, `NSNull` for null.
    package var anyValue: Any {
        switch self {
        case .null: return NSNull()
        case .boolean(let b): return NSNumber(value: b)
        case .integer(let i): return NSNumber(value: i)
        case .double(let d): return NSNumber(value: d)
        case .timestamp(let t): return t
        case .string(let s): return s
        case .bytes(let data): return data
        case .reference(let reference): return reference
        case .geoPoint(let point): return point
        case .array(let items): return items.map(\.anyValue)
        case .map(let fields): return vectorValue ?? fields.dictionary(\.anyValue)
        }
    }
}

private protocol OptionalProtocol { var isNone: Bool { get } }
extension Optional: OptionalProtocol { var isNone: Bool { self == nil } }
