/// A row of tab titles; the selected one in bold reverse video. When they do not all fit, the
/// bar shows the page of tabs holding the selected one, with `‹` at the left when tabs are
/// hidden before it and `›` at the right when tabs are hidden after it.
public struct TabBar: Widget, Hashable, Sendable {
    public var titles: [String]
    public var selected: Int
    public var style: Style

    public init(titles: [String], selected: Int, style: Style = .plain) {
        self.titles = titles
        self.selected = selected
        self.style = style
    }

    /// The marker drawn where tabs are hidden, and the columns it takes with its space.
    static let before = "‹", after = "›", markerWidth = 2

    /// The tabs drawn at `width`: all when they fit; else the page holding the selected tab.
    /// Pages are runs of whole tabs cut from the first tab on, so the same selection always
    /// shows the same tabs, however many keys reached it between frames.
    public func shown(width: Int) -> Range<Int> {
        let widths = titles.map { $0.displayWidth + 2 }
        guard widths.reduce(0, +) + max(0, titles.count - 1) > width else { return titles.indices }
        var start = 0
        while true {
            var used = start > 0 ? Self.markerWidth : 0
            var end = start
            while end < titles.count {
                let tab = (end > start ? 1 : 0) + widths[end]
                // Room for the right marker unless this is the last tab.
                let marker = end + 1 < titles.count ? Self.markerWidth : 0
                if end > start && used + tab + marker > width { break }
                used += tab
                end += 1
            }
            if selected < end || end == titles.count { return start..<end }
            start = end
        }
    }

    /// The tab drawn at column `x` (from the bar's left edge) in a bar `width` wide, for a
    /// click; nil between tabs and on the markers.
    public func index(atColumn x: Int, width: Int) -> Int? {
        let shown = shown(width: width)
        var start = shown.lowerBound > 0 ? Self.markerWidth : 0
        for index in shown {
            if index > shown.lowerBound { start += 1 }
            let end = start + titles[index].displayWidth + 2
            if x >= start && x < end && x < width { return index }
            start = end
        }
        return nil
    }

    public func render(into canvas: inout Canvas, area: Rect) {
        let row = area.row(0)
        canvas.fill(row, style: style)
        guard !row.isEmpty else { return }
        let shown = shown(width: row.width)
        var spans: [Span] = []
        if shown.lowerBound > 0 { spans.append(Span(Self.before + " ", style: style.bolded())) }
        for index in shown {
            if index > shown.lowerBound { spans.append(Span(" ", style: style)) }
            let tabStyle = index == selected ? style.bolded().reversed() : style
            spans.append(Span(" \(titles[index]) ", style: tabStyle))
        }
        let room = row.width - (shown.upperBound < titles.count ? Self.markerWidth : 0)
        canvas.write(spans.truncated(toWidth: max(0, room)), at: row.origin, clippedTo: max(0, room))
        if shown.upperBound < titles.count {
            canvas.write(Self.after, at: Point(x: row.maxX - 1, y: row.y), style: style.bolded())
        }
    }
}
