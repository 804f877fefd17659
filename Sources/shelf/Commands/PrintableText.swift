import TerminalKit
import TerminalUI

/// Text from files (names, values, error messages quoting them) as a command prints it:
/// control characters escaped, so a file named `ESC[2J` cannot clear the screen, and long lines
/// shortened, so a 5,000-digit number does not flood it.
enum PrintableText {
    static let maxLength = 240

    static func safe(_ text: String, maxLength: Int = PrintableText.maxLength) -> String {
        var result = ""
        var count = 0
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            if count >= maxLength {
                var rest = 1
                while scalars.next() != nil { rest += 1 }
                return result + "… (\(rest) more characters)"
            }
            result += escaped(scalar)
            count += 1
        }
        return result
    }

    /// C0 controls, DEL and C1 controls as `\x1b`, tab and newline as `\t`, `\n`: the app's
    /// rule (`ControlCharacter`), so a name reads the same in both.
    private static func escaped(_ scalar: Unicode.Scalar) -> String {
        ControlCharacter.escaped(scalar) ?? String(scalar)
    }
}
