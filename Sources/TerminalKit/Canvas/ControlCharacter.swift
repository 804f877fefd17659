import Foundation

/// How a control character (C0, DEL, C1) is shown: escaped as `\t`, `\n`, `\r` or `\x1b`, so
/// a name holding `ESC [2J` cannot act on the terminal and takes the columns it is counted
/// for. The one rule for the app's canvas (and `DisplayWidth`) and the commands' output.
public enum ControlCharacter {
    /// The escape for `scalar`, or nil when it is not a control character.
    public static func escaped(_ scalar: Unicode.Scalar) -> String? {
        switch scalar.value {
        case 0x09: return "\\t"
        case 0x0A: return "\\n"
        case 0x0D: return "\\r"
        case 0..<0x20, 0x7F, 0x80..<0xA0: return String(format: "\\x%02x", scalar.value)
        default: return nil
        }
    }

    /// The escape for a grapheme that is a control character ("\r\n" is one), or nil.
    public static func escaped(_ character: Character) -> String? {
        guard let first = character.unicodeScalars.first, escaped(first) != nil else { return nil }
        return character.unicodeScalars.map { escaped($0) ?? String($0) }.joined()
    }
}
