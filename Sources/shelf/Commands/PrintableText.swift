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

    /// C0 controls, DEL and C1 controls as `\x1b`; tab and newline as `\t`, `\n`.
    private static func escaped(_ scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0x09: return "\\t"
        case 0x0A: return "\\n"
        case 0x0D: return "\\r"
        case 0..<0x20, 0x7F, 0x80..<0xA0: return "\\x" + String(scalar.value, radix: 16).leftPadded(to: 2)
        default: return String(scalar)
        }
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
