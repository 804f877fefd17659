/// Breaks text into lines of at most a given display width: at spaces where it can, inside
/// a word only when the word alone is too long, and always at "\n". Never splits a grapheme.
/// A line that fits is kept as it is; where a line is broken, runs of spaces collapse.
///
/// One pass over the text that stops after `maxLines` lines, so a frame that shows 20 rows
/// of a 1 MiB word reads about 20 rows' worth of it (a word with no spaces used to cost the
/// square of its length).
public enum TextWrapper {
    /// With `markingCut`, text left out past `maxLines` is marked by "…" ending the last line.
    public static func wrap(_ text: String, width: Int, maxLines: Int = .max, markingCut: Bool = false) -> [String] {
        guard markingCut, maxLines < .max else { return lines(text, width: width, maxLines: maxLines) }
        var wrapped = lines(text, width: width, maxLines: maxLines + 1)
        guard wrapped.count > maxLines else { return wrapped }
        wrapped.removeLast(wrapped.count - maxLines)
        if let last = wrapped.popLast() { wrapped.append((last + "…").truncated(toWidth: width)) }
        return wrapped
    }

    private static func lines(_ text: String, width: Int, maxLines: Int) -> [String] {
        guard width > 0, maxLines > 0 else { return [] }
        var wrapper = Wrapping(width: width, maxLines: maxLines)
        var index = text.startIndex
        while true {
            // A paragraph that fits is kept exactly, spaces and all (padding around a swatch label).
            if let (end, next) = fittingParagraph(in: text, from: index, width: width) {
                wrapper.emit(String(text[index..<end]))
                guard let next, !wrapper.isFull else { break }
                index = next
                continue
            }
            guard let next = wrapper.wrapParagraph(text, from: index), !wrapper.isFull else { break }
            index = next
        }
        return wrapper.lines
    }

    /// When the paragraph starting at `start` fits in `width`: where it ends, and where the
    /// next one starts (nil at the end of the text). Reads at most `width + 1` columns.
    private static func fittingParagraph(in text: String, from start: String.Index, width: Int) -> (String.Index, String.Index?)? {
        var used = 0
        var index = start
        while index < text.endIndex {
            let character = text[index]
            if character == "\n" { return (index, text.index(after: index)) }
            used += DisplayWidth.of(character)
            if used > width { return nil }
            index = text.index(after: index)
        }
        return (index, nil)
    }

    /// The lines so far and the line and word being built.
    private struct Wrapping {
        let width: Int
        let maxLines: Int
        var lines: [String] = []
        var line = ""
        var lineWidth = 0
        var word = ""
        var wordWidth = 0
        /// Lines emitted for the paragraph being wrapped.
        var paragraphLines = 0

        var isFull: Bool { lines.count >= maxLines }

        mutating func emit(_ text: String) {
            if !isFull { lines.append(text) }
            paragraphLines += 1
        }

        /// Wraps the paragraph starting at `start` word by word; returns where the next
        /// paragraph starts, or nil at the end of the text or once enough lines are made.
        mutating func wrapParagraph(_ text: String, from start: String.Index) -> String.Index? {
            var index = start
            paragraphLines = 0
            while index < text.endIndex, !isFull {
                let character = text[index]
                index = text.index(after: index)
                switch character {
                case " ":
                    endWord()
                case "\n":
                    endParagraph()
                    return index
                default:
                    add(character)
                }
            }
            endParagraph()
            return nil
        }

        private mutating func add(_ character: Character) {
            let w = DisplayWidth.of(character)
            // The word no longer fits after the line's words: it starts a line of its own.
            if lineWidth > 0, lineWidth + 1 + wordWidth + w > width {
                emit(line)
                line = ""
                lineWidth = 0
            }
            // A word longer than a whole line is cut into pieces.
            if lineWidth == 0, wordWidth + w > width {
                if word.isEmpty {
                    // A character wider than the whole line: put it alone and let it clip.
                    emit(String(character))
                    return
                }
                emit(word)
                word = ""
                wordWidth = 0
            }
            word.append(character)
            wordWidth += w
        }

        private mutating func endWord() {
            guard !word.isEmpty else { return }
            if lineWidth > 0 {
                line += " " + word
                lineWidth += 1 + wordWidth
            } else {
                line = word
                lineWidth = wordWidth
            }
            word = ""
            wordWidth = 0
        }

        private mutating func endParagraph() {
            endWord()
            // No empty line after the last piece of a cut word.
            if !line.isEmpty || paragraphLines == 0 { emit(line) }
            line = ""
            lineWidth = 0
            paragraphLines = 0
        }
    }
}
