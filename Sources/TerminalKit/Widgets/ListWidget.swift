/// A scrolling list of rows with one selected row drawn in reverse video. A row wider than
/// the pane ends in "…" (wide characters are never split). When any row has a marker, a
/// marker column is reserved at the left for all rows so the text stays aligned.
public struct ListWidget: Widget, Hashable, Sendable {
    public var rows: [ListRow]
    public var state: ListState
    /// A focused list shows its selection in reverse video; an unfocused one in bold and
    /// underlined, so the focused pane stands out without colour.
    public var isFocused: Bool
    /// Shown (dimmed) in the first row when there are no rows.
    public var emptyText: String
    public var style: Style
    /// Columns kept for markers even when no row in view has one, so rows do not shift as a
    /// marked row scrolls in and out (the rows given are only those in view).
    public var reservedMarkerWidth: Int

    public init(rows: [ListRow], state: ListState, isFocused: Bool = true,
                emptyText: String = "Nothing here", style: Style = .plain, reservedMarkerWidth: Int = 0) {
        self.reservedMarkerWidth = reservedMarkerWidth
        self.rows = rows
        self.state = state
        self.isFocused = isFocused
        self.emptyText = emptyText
        self.style = style
    }

    /// The state this widget draws with in `area`: `state` kept valid for its height.
    /// Store it back in the app so scrolling continues from where it was drawn.
    public func renderedState(in area: Rect) -> ListState {
        state.keptVisible(rowCount: rows.count, height: area.height)
    }

    /// Columns reserved for markers: the widest marker plus a space, or 0 without markers.
    public var markerWidth: Int {
        let widest = rows.reduce(0) { max($0, $1.marker.map(DisplayWidth.of) ?? 0) }
        return max(widest > 0 ? widest + 1 : 0, reservedMarkerWidth)
    }

    public func render(into canvas: inout Canvas, area: Rect) {
        canvas.fill(area, style: style)
        guard !area.isEmpty else { return }
        guard !rows.isEmpty else {
            // Wrapped: it may say why the list is empty (a refused filter) at length.
            for (line, text) in TextWrapper.wrap(emptyText, width: area.width, maxLines: area.height, markingCut: true).enumerated() {
                canvas.write(text, at: Point(x: area.x, y: area.y + line), style: style.dimmed(), clippedTo: area.width)
            }
            return
        }
        let visible = renderedState(in: area)
        let markerWidth = min(self.markerWidth, area.width)
        let textWidth = area.width - markerWidth
        for line in 0..<area.height {
            let index = visible.offset + line
            guard index < rows.count else { break }
            let row = rows[index]
            let y = area.y + line
            if let marker = row.marker, markerWidth > 0 {
                canvas.write(marker, at: Point(x: area.x, y: y), style: row.markerStyle,
                             clippedTo: markerWidth - 1)
            }
            if textWidth > 0 {
                canvas.write(row.spans.truncated(toWidth: textWidth),
                             at: Point(x: area.x + markerWidth, y: y), clippedTo: textWidth)
            }
            if index == visible.selected {
                canvas.restyle(area.row(line)) { style in
                    if isFocused {
                        style.reverse = true
                    } else {
                        style.bold = true
                        style.underline = true
                    }
                }
            }
        }
    }
}
