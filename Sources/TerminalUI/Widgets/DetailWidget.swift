/// Label/value lines, labels in bold in a column of their own, values wrapped by display
/// width onto as many rows as they need (continuation rows indented under the value).
/// `offset` scrolls by rows; `rowCount(width:)` tells how far scrolling can go.
public struct DetailWidget: Widget, Hashable, Sendable {
    public var lines: [DetailLine]
    /// Rows scrolled off the top.
    public var offset: Int
    public var labelStyle: Style
    /// The label column is never wider than this fraction of the area.
    public var maxLabelFraction: Double

    public init(lines: [DetailLine], offset: Int = 0, labelStyle: Style = Style(bold: true),
                maxLabelFraction: Double = 0.4) {
        self.lines = lines
        self.offset = offset
        self.labelStyle = labelStyle
        self.maxLabelFraction = maxLabelFraction
    }

    /// Gap between the label column and the values.
    private static let gap = 2

    func labelWidth(for width: Int) -> Int {
        let widest = lines.reduce(0) { max($0, DisplayWidth.of($1.label)) }
        return min(widest, Int(Double(width) * maxLabelFraction))
    }

    /// Every row the widget would draw at `width`, before scrolling.
    func layout(width: Int) -> [(label: String, value: String, style: Style)] {
        let labelWidth = labelWidth(for: width)
        let valueWidth = max(1, width - labelWidth - Self.gap)
        var rows: [(label: String, value: String, style: Style)] = []
        for line in lines {
            let wrapped = TextWrapper.wrap(line.value, width: valueWidth)
            for (index, piece) in wrapped.enumerated() {
                rows.append((index == 0 ? line.label.truncated(toWidth: labelWidth) : "", piece, line.valueStyle))
            }
        }
        return rows
    }

    /// How many rows the lines take at `width`, so the app can clamp `offset`.
    public func rowCount(width: Int) -> Int { layout(width: width).count }

    public func render(into canvas: inout Canvas, area: Rect) {
        canvas.fill(area)
        guard !area.isEmpty else { return }
        let rows = layout(width: area.width)
        let start = min(max(0, offset), max(0, rows.count - area.height))
        let valueX = area.x + labelWidth(for: area.width) + Self.gap
        for line in 0..<area.height {
            let index = start + line
            guard index < rows.count else { break }
            let row = rows[index]
            let y = area.y + line
            canvas.write(row.label, at: Point(x: area.x, y: y), style: labelStyle, clippedTo: area.width)
            if valueX < area.maxX {
                canvas.write(row.value, at: Point(x: valueX, y: y), style: row.style,
                             clippedTo: area.maxX - valueX)
            }
        }
    }
}
