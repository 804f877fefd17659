/// Firestore's server format of a field path, the one the protocol, bundles and messages
/// write: names joined by ".", a name that is not a simple identifier (`[A-Za-z_][A-Za-z_0-9]*`)
/// in backticks, with "\" escaping a backtick or a backslash inside (`` address.`zip-code` ``,
/// `` `a.b` ``, `` `café` ``).
extension FieldPath {
    /// What is wrong with a field path's text, in words a status message can carry.
    package struct ServerFormatError: Error, CustomStringConvertible {
        package let text: String
        package let reason: String
        package var description: String { "the field path \"\(text)\" \(reason)" }
    }

    /// The path as Firestore writes it.
    package var serverFormat: String {
        segments.map { name in
            Self.isSimpleName(name) ? name
                : "`" + name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "`", with: "\\`") + "`"
        }.joined(separator: ".")
    }

    /// A name Firestore leaves unquoted: ASCII letters, digits and "_", not starting with a digit.
    private static func isSimpleName(_ name: String) -> Bool {
        guard let first = name.utf8.first, first == UInt8(ascii: "_") || first.isASCIILetter else { return false }
        return name.utf8.allSatisfy { $0 == UInt8(ascii: "_") || $0.isASCIILetter || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// Reads the server format. A backtick opens a quoted name only at its start and must close
    /// it before the next "." (Firestore's documented form), so `` a`b `` is refused, not guessed at.
    package static func parse(serverFormat text: String) throws(ServerFormatError) -> FieldPath {
        var segments: [String] = []
        var current = ""
        var quoted = false, escaped = false, wasQuoted = false
        func fail(_ reason: String) -> ServerFormatError { ServerFormatError(text: text, reason: reason) }
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
}

private extension UInt8 {
    var isASCIILetter: Bool { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self) }
}
