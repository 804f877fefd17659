/// One row: a status message on the left, e.g. "Saved colors/abc", and a short summary on
/// the right, e.g. "12 colours · 1 unreadable". The right text wins when space is short.
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
            canvas.write(left.truncated(toWidth: room), at: inner.origin, style: style, clippedTo: room)
        }
    }
}
