/// A row of tab titles; the selected one in bold reverse video.
public struct TabBar: Widget, Hashable, Sendable {
    public var titles: [String]
    public var selected: Int
    public var style: Style

    public init(titles: [String], selected: Int, style: Style = .plain) {
        self.titles = titles
        self.selected = selected
        self.style = style
    }

    /// The tab drawn at column `x` (from the bar's left edge), for a click; nil between tabs.
    public func index(atColumn x: Int) -> Int? {
        var start = 0
        for (index, title) in titles.enumerated() {
            if index > 0 { start += 1 }
            let end = start + title.displayWidth + 2
            if x >= start && x < end { return index }
            start = end
        }
        return nil
    }

    public func render(into canvas: inout Canvas, area: Rect) {
        let row = area.row(0)
        canvas.fill(row, style: style)
        guard !row.isEmpty else { return }
        var spans: [Span] = []
        for (index, title) in titles.enumerated() {
            if index > 0 { spans.append(Span(" ", style: style)) }
            let tabStyle = index == selected ? style.bolded().reversed() : style
            spans.append(Span(" \(title) ", style: tabStyle))
        }
        canvas.write(spans.truncated(toWidth: row.width), at: row.origin, clippedTo: row.width)
    }
}
