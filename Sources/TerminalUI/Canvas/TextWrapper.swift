/// Breaks text into lines of at most a given display width: at spaces where it can, inside
/// a word only when the word alone is too long, and always at "\n". Never splits a grapheme.
/// A line that fits is kept as it is; where a line is broken, runs of spaces collapse.
public enum TextWrapper {
    public static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lines += wrapParagraph(String(paragraph), width: width)
        }
        return lines
    }

    private static func wrapParagraph(_ text: String, width: Int) -> [String] {
        // A line that fits is kept exactly, spaces and all (padding around a swatch label).
        if DisplayWidth.of(text) <= width { return [text] }
        var lines: [String] = []
        var line = ""
        var lineWidth = 0
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            var word = String(word)
            var wordWidth = DisplayWidth.of(word)
            // Start a new line when the word does not fit after a space.
            if lineWidth > 0, lineWidth + 1 + wordWidth > width {
                lines.append(line)
                line = ""
                lineWidth = 0
            }
            if lineWidth > 0 {
                line += " "
                lineWidth += 1
            }
            // A word longer than a whole line is cut into pieces.
            while lineWidth + wordWidth > width {
                var piece = ""
                var pieceWidth = 0
                var rest = word[...]
                while let character = rest.first {
                    let w = DisplayWidth.of(character)
                    if lineWidth + pieceWidth + w > width { break }
                    piece.append(character)
                    pieceWidth += w
                    rest = rest.dropFirst()
                }
                if piece.isEmpty, lineWidth == 0 {
                    // A character wider than the whole line: put it alone and let it clip.
                    piece = String(rest.removeFirst())
                }
                lines.append(line + piece)
                line = ""
                lineWidth = 0
                word = String(rest)
                wordWidth = DisplayWidth.of(word)
            }
            line += word
            lineWidth += wordWidth
        }
        lines.append(line)
        return lines
    }
}
