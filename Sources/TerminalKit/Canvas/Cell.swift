/// One terminal cell. A wide character (CJK, emoji) lives in its first cell with `width` 2,
/// and the cell to its right is a continuation cell (`width` 0, empty text) that the backend
/// skips, since the terminal draws the character across both.
public struct Cell: Hashable, Sendable {
    /// One grapheme cluster, or "" in a continuation cell.
    public var text: String
    /// Display width: 1, 2, or 0 for a continuation cell.
    public var width: Int
    public var style: Style

    public init(text: String, width: Int, style: Style) {
        self.text = text
        self.width = width
        self.style = style
    }

    /// A space.
    public static func blank(_ style: Style = .plain) -> Cell {
        Cell(text: " ", width: 1, style: style)
    }

    /// The right half of a wide character.
    public static func continuation(_ style: Style) -> Cell {
        Cell(text: "", width: 0, style: style)
    }

    public var isContinuation: Bool { width == 0 }
}
