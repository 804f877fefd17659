import DocumentStore
import Foundation

/// Field paths as requests write them: names joined by ".", a name that is not a plain
/// identifier quoted in backticks, with "\" escaping a backtick or a backslash inside
/// (`` address.`zip-code` ``, `` `a.b` ``).
package enum FieldPathText {
    package static func parse(_ text: String, field: String) throws(WireError) -> FieldPath {
        var segments: [String] = []
        var current = ""
        var quoted = false, escaped = false, wasQuoted = false
        func fail(_ reason: String) -> WireError { .invalidArgument("\(field): the field path \"\(text)\" \(reason)") }
        for character in text {
            if escaped {
                current.append(character)
                escaped = false
            } else if quoted {
                switch character {
                case "\\": escaped = true
                case "`": quoted = false
                default: current.append(character)
                }
            } else {
                switch character {
                case "`":
                    guard current.isEmpty, !wasQuoted else { throw fail("has a backtick inside a name") }
                    quoted = true
                    wasQuoted = true
                case ".":
                    guard !current.isEmpty || wasQuoted else { throw fail("has an empty name") }
                    segments.append(current)
                    current = ""
                    wasQuoted = false
                default:
                    guard !wasQuoted else { throw fail("has text after a quoted name") }
                    current.append(character)
                }
            }
        }
        guard !quoted, !escaped else { throw fail("has an unclosed backtick") }
        guard !current.isEmpty || wasQuoted else { throw fail(text.isEmpty ? "is empty" : "has an empty name") }
        segments.append(current)
        return FieldPath(segments)
    }

    /// The path as Firestore writes it, for responses and messages.
    package static func text(_ path: FieldPath) -> String {
        path.segments.map { segment in
            let plain = segment.first.map { $0 == "_" || $0.isLetter && $0.isASCII } ?? false
                && segment.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
            if plain { return segment }
            return "`" + segment.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "`", with: "\\`") + "`"
        }.joined(separator: ".")
    }
}
