import DocumentStore
import Foundation
import TerminalKit

/// Document values as text, for fields no model maps and documents that do not decode. Values
/// come as `data()` gives them: numbers and booleans as `NSNumber`, and `Timestamp`, `GeoPoint`,
/// `Data`, `DocumentReference` as themselves.
enum RawValue {
    static func text(_ value: Any) -> String {
        switch value {
        case let string as String: return string
        case let number as NSNumber: return text(number)
        case is NSNull: return "null"
        case let timestamp as Timestamp: return timestamp.rfc3339
        case let point as GeoPoint: return "(\(point.latitude), \(point.longitude))"
        case let data as Data: return summary(data)
        case let reference as DocumentReference: return reference.path
        case let array as [Any]: return "[" + array.map(quoted).joined(separator: ", ") + "]"
        case let map as [String: Any]:
            return "{" + map.keys.sorted().map { "\($0): \(quoted(map[$0]!))" }.joined(separator: ", ") + "}"
        default: return "\(value)"
        }
    }

    /// A boolean is an NSNumber too (`as? Int` succeeds on it): its `objCType` "c" tells it apart.
    static func text(_ number: NSNumber) -> String {
        switch String(cString: number.objCType) {
        case "c", "B": return number.boolValue ? "true" : "false"
        case "f", "d": return "\(number.doubleValue)"
        case "Q": return "\(number.uint64Value)"
        default: return "\(number.int64Value)"
        }
    }

    /// "3 bytes: 00 ff 10", or the first eight bytes and "…" for longer data.
    static func summary(_ data: Data) -> String {
        let shown = data.prefix(8).map { String(format: "%02x", $0) }.joined(separator: " ")
        let count = "\(data.count) byte\(data.count == 1 ? "" : "s")"
        return data.isEmpty ? count : count + ": " + shown + (data.count > 8 ? " …" : "")
    }

    /// A `Timestamp`, or a string in RFC 3339 (as plain JSON written by a person holds dates).
    static func timestamp(_ value: Any?) -> Timestamp? {
        switch value {
        case let timestamp as Timestamp: return timestamp
        case let string as String: return Timestamp(rfc3339: string)
        default: return nil
        }
    }

    /// A `GeoPoint`, or a map of latitude and longitude (as plain JSON written by a person holds them).
    static func geoPoint(_ value: Any?) -> GeoPoint? {
        switch value {
        case let point as GeoPoint: return point
        case let map as [String: Any]:
            guard map.count == 2, let latitude = map["latitude"] as? NSNumber, let longitude = map["longitude"] as? NSNumber else { return nil }
            return GeoPoint(latitude: latitude.doubleValue, longitude: longitude.doubleValue)
        default: return nil
        }
    }

    private static func quoted(_ value: Any) -> String {
        if let string = value as? String { return "\"\(string)\"" }
        return text(value)
    }

    /// One line per field, sorted by name, written "name: value" so a long field name is
    /// never cut; the first line is labelled `title`. A file that cannot be read says why.
    static func lines(for snapshot: DocumentSnapshot, except known: Set<String>, title: String) -> [DetailLine] {
        if let error = snapshot.readError { return [DetailLine("File", error.description, valueStyle: Style(bold: true))] }
        let fields = snapshot.data() ?? [:]
        return fields.keys.sorted().filter { !known.contains($0) }.enumerated().map { index, name in
            DetailLine(index == 0 ? title : "", "\(name): \(text(fields[name]!))")
        }
    }
}
