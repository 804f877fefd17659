import TerminalKit

/// Splits a cell's text into spans with every match of the filter highlighted, comparing
/// folded text (case and accents ignored) but drawing the characters as written. Only rows
/// in view are highlighted, so its cost is a screenful of cells.
struct Highlighter {
    static let matchStyle = Style(bold: true, underline: true)

    let needle: [UInt8]

    init(query: String) { needle = TextFolding.fold(query) }

    /// `maxWidth` is the room the cell has: characters past it are never drawn, so they are
    /// not looked at (a 1 MiB value costs what its visible start does), except as far as a
    /// match that starts in view reaches: "Bro…" of a cut "Brontë" is marked.
    func spans(_ text: String, style: Style, maxWidth: Int = .max) -> [Span] {
        guard !needle.isEmpty, !text.isEmpty else { return [Span(text, style: style)] }
        // Folded bytes of the visible text, each remembering the character it came from.
        var characters: [Character] = []
        var bytes: [UInt8] = []
        var owner: [Int] = []
        var width = 0
        for character in text {
            width += DisplayWidth.of(character)
            if width > maxWidth, width - maxWidth > needle.count { break }
            let folded = TextFolding.fold(String(character))
            bytes += folded
            owner += Array(repeating: characters.count, count: folded.count)
            characters.append(character)
        }
        var marked = Array(repeating: false, count: characters.count)
        var start = 0
        while start + needle.count <= bytes.count {
            if bytes[start..<(start + needle.count)].elementsEqual(needle) {
                for byte in start..<(start + needle.count) { marked[owner[byte]] = true }
                start += needle.count
            } else {
                start += 1
            }
        }
        guard marked.contains(true) else { return [Span(text, style: style)] }
        var spans: [Span] = []
        var run = ""
        var runMarked = marked[0]
        let highlighted = style.bolded().underlined()
        for (index, character) in characters.enumerated() {
            if marked[index] != runMarked {
                spans.append(Span(run, style: runMarked ? highlighted : style))
                run = ""
                runMarked = marked[index]
            }
            run.append(character)
        }
        spans.append(Span(run, style: runMarked ? highlighted : style))
        return spans
    }
}
