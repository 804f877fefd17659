/// One row: a status message on the left, e.g. "Saved colors/abc", and a short summary on
/// the right, e.g. "12 colours · 1 unreadable". The right text wins when space is short; a
/// message that does not fit shortens its paths first (`fitted`).
public struct StatusBar: Widget, Hashable, Sendable {
    public var left: String
    public var right: String
    public var style: Style

    public init(left: String, right: String = "", style: Style = Style(reverse: true)) {
        self.left = left
        self.right = right
        self.style = style
    }

    public func render(into canvas: inout Canvas, area: Rect) {
        let row = area.row(0)
        canvas.fill(row, style: style)
        guard row.width > 2 else { return }
        let inner = row.insetBy(dx: 1, dy: 0)  // a space at each end
        let rightText = right.truncated(toWidth: inner.width)
        let rightWidth = rightText.displayWidth
        canvas.write(rightText, at: Point(x: inner.maxX - rightWidth, y: row.y), style: style)
        let room = inner.width - rightWidth - (rightWidth > 0 ? 1 : 0)
        if room > 0 {
            canvas.write(Self.fitted(left, toWidth: room), at: inner.origin, style: style, clippedTo: room)
        }
    }

    /// A message cut to `width` so its reason still shows: a failure names a path, then the
    /// reason after a colon ("cannot write a file in /home/…/books: Permission denied"), so
    /// the paths (words with a "/") before the last colon are shortened in the middle, the
    /// longest first. Otherwise, or when that is not enough, the end is cut. The whole message
    /// stays in the message log (`m`).
    public static func fitted(_ message: String, toWidth width: Int) -> String {
        var excess = message.displayWidth - width
        guard excess > 0 else { return message }
        var words = message.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        guard let reason = words.lastIndex(where: { $0.hasSuffix(":") }) else { return message.truncated(toWidth: width) }
        let paths = words.indices.filter { $0 <= reason && words[$0].contains("/") }
            .sorted { words[$0].displayWidth > words[$1].displayWidth }
        for index in paths where excess > 0 {
            let word = words[index]
            let kept = max(minimumPathWidth, word.displayWidth - excess - 1)  // 1 for "…"
            guard kept + 1 < word.displayWidth else { continue }
            words[index] = middleShortened(word, keeping: kept)
            excess -= word.displayWidth - words[index].displayWidth
        }
        // Paths shortened as far as they go and still too long: cut at the end instead, as
        // shortening would only make the start harder to read.
        return excess > 0 ? message.truncated(toWidth: width) : words.joined(separator: " ")
    }

    /// Columns of a path kept around its "…": enough to recognise it.
    static let minimumPathWidth = 8

    /// `word` with its middle replaced by "…", keeping `kept` columns: a third from its start,
    /// the rest from its end (where a path names the file).
    private static func middleShortened(_ word: String, keeping kept: Int) -> String {
        var head = "", tail = ""
        var headWidth = 0, tailWidth = 0
        for character in word {
            let w = DisplayWidth.of(character)
            if headWidth + w > kept / 3 { break }
            head.append(character)
            headWidth += w
        }
        for character in word.reversed() {
            let w = DisplayWidth.of(character)
            if tailWidth + w > kept - headWidth { break }
            tail.insert(character, at: tail.startIndex)
            tailWidth += w
        }
        return head + "…" + tail
    }
}
