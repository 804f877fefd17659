import TerminalKit

/// Where each part of the screen goes at a size. Drawing and the mouse's hit testing both
/// read it, so a click lands on what is drawn there.
struct ScreenLayout: Sendable {
    let tabBar: Rect
    let list: Rect
    let detail: Rect

    init(size: Size) {
        tabBar = Rect(x: 0, y: 0, width: size.width, height: 1)
        // Between the tab bar and the status and hint lines; the list takes half the width
        // (room for its columns), the detail the other half.
        let height = size.height - 3
        let listWidth = max(28, size.width / 2)
        list = Rect(x: 0, y: 1, width: listWidth, height: height)
        detail = Rect(x: listWidth, y: 1, width: size.width - listWidth, height: height)
    }

    /// Room kept left of every row of the list, the header's too, for the "!" marker.
    static let markerWidth = 2

    /// The list's header row: the column titles, after the marker column.
    var header: Rect {
        let inner = Frame().inner(of: list)
        return Rect(x: inner.x + Self.markerWidth, y: inner.y, width: max(0, inner.width - Self.markerWidth), height: min(1, inner.height))
    }

    /// Inside the list's frame, below its header row: one document per row.
    var listRows: Rect {
        let inner = Frame().inner(of: list)
        return Rect(x: inner.x, y: inner.y + 1, width: inner.width, height: max(0, inner.height - 1))
    }
}
