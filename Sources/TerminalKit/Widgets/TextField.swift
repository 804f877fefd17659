/// A one-line text editor: the text, a cursor between graphemes, the usual editing keys,
/// and a rendering that scrolls sideways so the cursor is always on screen.
///
/// The cursor is a grapheme index (0 is before the first character, `count` after the
/// last), so an emoji or an accented letter is stepped over and deleted as one.
public struct TextField: Widget, Hashable, Sendable {
    public private(set) var characters: [Character]
    /// 0...characters.count.
    public private(set) var cursor: Int
    public var style: Style
    /// Shown dimmed when the text is empty.
    public var placeholder: String

    /// A field holding `text` with the cursor at the end (or at `cursor`, clamped).
    public init(text: String = "", cursor: Int? = nil, style: Style = .plain, placeholder: String = "") {
        self.characters = Array(text)
        self.cursor = min(max(0, cursor ?? Int.max), characters.count)
        self.style = style
        self.placeholder = placeholder
    }

    public var text: String {
        get { String(characters) }
        set {
            characters = Array(newValue)
            cursor = min(cursor, characters.count)
        }
    }

    // MARK: Editing

    /// Inserts `string` before the cursor and moves the cursor after it.
    /// Only the characters either side of the cursor are segmented again, so typing into a
    /// 1 MiB text costs what typing into a short one does.
    public mutating func insert(_ string: String) {
        let low = max(0, cursor - 1), high = min(characters.count, cursor + 1)
        let before = String(characters[low..<cursor]) + string
        let joined = Array(before + String(characters[cursor..<high]))
        characters.replaceSubrange(low..<high, with: joined)
        // Graphemes can merge across the join (a combining mark typed after a letter).
        cursor = low + min(before.count, joined.count)
    }

    public mutating func insert(_ character: Character) { insert(String(character)) }

    /// Deletes the grapheme before the cursor.
    public mutating func backspace() {
        guard cursor > 0 else { return }
        characters.remove(at: cursor - 1)
        cursor -= 1
    }

    /// Deletes the grapheme after the cursor.
    public mutating func deleteForward() {
        guard cursor < characters.count else { return }
        characters.remove(at: cursor)
    }

    public mutating func moveLeft() { cursor = max(0, cursor - 1) }
    public mutating func moveRight() { cursor = min(characters.count, cursor + 1) }
    public mutating func moveToStart() { cursor = 0 }
    public mutating func moveToEnd() { cursor = characters.count }

    /// Deletes everything before the cursor (Ctrl-U).
    public mutating func deleteToStart() {
        characters.removeSubrange(0..<cursor)
        cursor = 0
    }

    /// Deletes everything after the cursor (Ctrl-K).
    public mutating func deleteToEnd() {
        characters.removeSubrange(cursor...)
    }

    /// Deletes the word before the cursor and the spaces after it (Ctrl-W).
    public mutating func deleteWordBackward() {
        var start = cursor
        while start > 0, characters[start - 1] == " " { start -= 1 }
        while start > 0, characters[start - 1] != " " { start -= 1 }
        characters.removeSubrange(start..<cursor)
        cursor = start
    }

    /// Applies an editing key. Returns false for keys a field does not use (Enter, Esc,
    /// Tab, ↑, ↓...), which the form or screen then handles.
    @discardableResult
    public mutating func handle(_ key: Key) -> Bool {
        switch key {
        case .character(let c): insert(c)
        case .backspace, .ctrl("h"): backspace()
        case .delete, .ctrl("d"): deleteForward()
        case .left, .ctrl("b"): moveLeft()
        case .right, .ctrl("f"): moveRight()
        case .home, .ctrl("a"): moveToStart()
        case .end, .ctrl("e"): moveToEnd()
        case .ctrl("u"): deleteToStart()
        case .ctrl("k"): deleteToEnd()
        case .ctrl("w"): deleteWordBackward()
        default: return false
        }
        return true
    }

    // MARK: Rendering

    /// What a field `width` columns wide shows: the graphemes from `start`, after a "…" when
    /// text is hidden on the left (`hidesLeft`) and before a "…" in the last column when text
    /// is hidden on the right (`hidesRight`).
    struct Window: Equatable {
        var start: Int
        var hidesLeft: Bool
        var hidesRight: Bool
    }

    /// The window that keeps the cursor's cell (the whole character under it) in view, off
    /// the markers, scrolled as little as possible: from the start while the cursor fits.
    /// Walks from the cursor and reads at most `width` columns past it, so a long text costs
    /// what the field shows.
    func window(width: Int) -> Window {
        let cell = cursor < characters.count ? max(1, DisplayWidth.of(characters[cursor])) : 1
        // Too narrow for a marker and a character: the cursor's cell alone decides.
        guard width >= 3 else { return Window(start: start(before: max(0, width - cell)), hidesLeft: false, hidesRight: false) }
        let overflows = exceeds(from: 0, width)
        if start(before: (overflows ? width - 1 : width) - cell) == 0 {
            return Window(start: 0, hidesLeft: false, hidesRight: overflows)
        }
        // Scrolled: "…" in the first column, and in the last when text goes on past the edge.
        let start = start(before: width - 1 - cell)
        guard exceeds(from: start, width - 1) else { return Window(start: start, hidesLeft: true, hidesRight: false) }
        let narrower = self.start(before: width - 2 - cell)
        return Window(start: narrower, hidesLeft: true, hidesRight: exceeds(from: narrower, width - 1))
    }

    /// The smallest index from which the graphemes before the cursor take at most `columns`.
    private func start(before columns: Int) -> Int {
        var start = cursor
        var used = 0
        while start > 0 {
            let w = DisplayWidth.of(characters[start - 1])
            if used + w > columns { break }
            used += w
            start -= 1
        }
        return start
    }

    /// Whether the graphemes from `start` take more than `width` columns.
    private func exceeds(from start: Int, _ width: Int) -> Bool {
        var used = 0
        for character in characters[start...] {
            used += DisplayWidth.of(character)
            if used > width { return true }
        }
        return false
    }

    /// The cursor's column relative to the field's first column, for a field `width` wide.
    public func cursorColumn(width: Int) -> Int {
        let window = window(width: width)
        return (window.hidesLeft ? 1 : 0) + characters[window.start..<cursor].reduce(0) { $0 + DisplayWidth.of($1) }
    }

    /// Where the terminal cursor goes when this field, drawn in `area`, has focus.
    public func cursorPosition(in area: Rect) -> Point {
        Point(x: area.x + min(cursorColumn(width: area.width), max(0, area.width - 1)), y: area.y)
    }

    /// Draws the visible part of the text on the first row of `area`, the rest of the row
    /// filled in `style` so the field's extent shows (underline or reverse work without colour).
    /// Hidden text is marked with "…" on its side; a placeholder that does not fit ends in "…".
    public func render(into canvas: inout Canvas, area: Rect) {
        let row = area.row(0)
        canvas.fill(row, style: style)
        guard !row.isEmpty else { return }
        if characters.isEmpty {
            canvas.write(placeholder.truncated(toWidth: row.width), at: row.origin, style: style.dimmed(), clippedTo: row.width)
            return
        }
        let window = window(width: row.width)
        let textX = row.x + (window.hidesLeft ? 1 : 0)
        let textWidth = row.maxX - textX - (window.hidesRight ? 1 : 0)
        if window.hidesLeft { canvas.write("…", at: row.origin, style: style) }
        if window.hidesRight { canvas.write("…", at: Point(x: row.maxX - 1, y: row.y), style: style) }
        // At most one character per column can show.
        let end = min(characters.count, window.start + textWidth * 2 + 8)
        canvas.write(String(characters[window.start..<end]), at: Point(x: textX, y: row.y), style: style, clippedTo: textWidth)
    }
}
