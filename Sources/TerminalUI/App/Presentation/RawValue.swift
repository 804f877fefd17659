import DocumentStore
import Foundation

/// Document values as text, for fields no model maps and documents that do not decode.
enum RawValue {
    static func text(_ value: Any) -> String {
        switch value {
        case let string as String: return string
        case let bool as Bool: return bool ? "true" : "false"
        case is NSNull: return "null"
        case let array as [Any]: return "[" + array.map(quoted).joined(separator: ", ") + "]"
        case let map as [String: Any]:
            return "{" + map.keys.sorted().map { "\($0): \(quoted(map[$0]!))" }.joined(separator: ", ") + "}"
        default: return "\(value)"
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
