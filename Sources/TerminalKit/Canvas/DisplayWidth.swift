/// How many terminal columns text takes. A character's width is its first scalar's: 2 for
/// East Asian Wide and Fullwidth characters and for emoji with emoji presentation, 0 for
/// combining marks and format characters, 1 otherwise. The scalars after the first in a
/// grapheme (combining marks, zero-width joiners, variation selectors, skin tones) add
/// nothing. This follows wcwidth, which is what ncurses and the terminal use, so the canvas
/// and the screen agree on where every cell is. Controls, which wcwidth cannot place, take
/// the width of their escape (`\x1b`, `\t`: see `ControlCharacter`), as the canvas draws them.
public enum DisplayWidth {
    /// Columns taken by one grapheme cluster: 0, 1 or 2, or a control's escape's 2 or 4.
    public static func of(_ character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        if first.value >= 0x20 && first.value < 0x7F { return 1 }  // fast path
        // "\r\n" is one Character, escaped as two.
        if let escape = ControlCharacter.escaped(character) { return escape.utf8.count }
        return of(first)
    }

    /// Columns taken by a string: the sum over its grapheme clusters.
    public static func of(_ text: String) -> Int {
        var total = 0
        for character in text { total += of(character) }
        return total
    }

    /// Whether `text` takes more than `width` columns; reads at most `width + 1` columns of it,
    /// so asking about a 1 MiB string costs what asking about a short one does.
    public static func exceeds(_ text: String, _ width: Int) -> Bool {
        var total = 0
        for character in text {
            total += of(character)
            if total > width { return true }
        }
        return false
    }

    /// Columns taken by a single scalar, as wcwidth would say (a control: its escape's).
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if let escape = ControlCharacter.escaped(scalar) { return escape.utf8.count }
        if value < 0x300 { return 1 }  // Latin-1 and Latin Extended, soft hyphen included
        switch value {
        case 0x600...0x605, 0x6DD, 0x70F, 0x890...0x891, 0x8E2, 0x110BD, 0x110CD:
            return 1  // prepended concatenation marks: format characters that are drawn
        case 0x1F1E6...0x1F1FF:
            return 1  // regional indicators: wcwidth gives 1, so a flag is 1 column too
        default:
            break
        }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control:
            return 0
        default:
            break
        }
        if (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value) {
            return 0  // Hangul vowels and final consonants combine into the syllable
        }
        if isWide(value) || scalar.properties.isEmojiPresentation { return 2 }
        return 1
    }

    /// East Asian Wide and Fullwidth ranges (emoji are found by isEmojiPresentation).
    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F,              // Hangul leading consonants
             0x2329...0x232A,              // angle brackets
             0x2E80...0x303E,              // CJK radicals, punctuation (U+303F is narrow)
             0x3041...0x33FF,              // kana, bopomofo, CJK compatibility
             0x3400...0x4DFF,              // CJK extension A, Yijing hexagrams
             0x4E00...0x9FFF,              // CJK unified ideographs
             0xA000...0xA4CF,              // Yi
             0xA960...0xA97F,              // Hangul extended A
             0xAC00...0xD7A3,              // Hangul syllables
             0xF900...0xFAFF,              // CJK compatibility ideographs
             0xFE10...0xFE19,              // vertical forms
             0xFE30...0xFE6F,              // CJK compatibility and small forms
             0xFF00...0xFF60,              // fullwidth forms
             0xFFE0...0xFFE6,              // fullwidth signs
             0x16FE0...0x18DFF,            // Tangut, Khitan and friends
             0x1AFF0...0x1B2FF,            // kana supplements, Nüshu
             0x1F200...0x1F2FF,            // enclosed ideographic supplement
             0x20000...0x2FFFD,            // CJK extensions B-F
             0x30000...0x3FFFD:            // CJK extension G and later
            return true
        default:
            return false
        }
    }
}

extension String {
    /// Columns this string takes on a terminal (see `DisplayWidth`).
    public var displayWidth: Int { DisplayWidth.of(self) }

    /// This string if it fits in `width` columns; otherwise as much of it as fits followed
    /// by "…", never splitting a grapheme. The result can be one column narrower than
    /// `width` when a wide character would straddle the edge.
    public func truncated(toWidth width: Int) -> String {
        guard width > 0 else { return "" }
        guard DisplayWidth.exceeds(self, width) else { return self }
        var result = ""
        var used = 0
        for character in self {
            let w = DisplayWidth.of(character)
            if used + w > width - 1 { break }
            result.append(character)
            used += w
        }
        return result + "…"
    }

    /// Padded with spaces on the right to `width` columns (unchanged when already wider).
    public func padded(toWidth width: Int) -> String {
        let w = displayWidth
        return w >= width ? self : self + String(repeating: " ", count: width - w)
    }
}
