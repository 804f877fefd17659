import Foundation

/// Label/value lines, labels in bold in a column of their own, values wrapped by display
/// width onto as many rows as they need (continuation rows indented under the value).
/// `offset` scrolls by rows; `rowCount(width:)` tells how far scrolling can go.
///
/// Only the rows up to the bottom of the area are wrapped, and a value shows at most
/// `maxRowsPerValue` rows, then says how long it is: a frame costs what is on screen, even
/// with a 1 MiB word in a field.
public struct DetailWidget: Widget, Hashable, Sendable {
    public var lines: [DetailLine]
    /// Rows scrolled off the top.
    public var offset: Int
    public var labelStyle: Style
    /// The label column is never wider than this fraction of the area.
    public var maxLabelFraction: Double

    /// A value longer than this many rows is cut (the file holds the rest).
    public static let maxRowsPerValue = 200

    public init(lines: [DetailLine], offset: Int = 0, labelStyle: Style = Style(bold: true),
                maxLabelFraction: Double = 0.4) {
        self.lines = lines
        self.offset = offset
        self.labelStyle = labelStyle
        self.maxLabelFraction = maxLabelFraction
    }

    /// `a + b`, or Int.max when that overflows (an offset of .max means "the end").
    private static func sum(_ a: Int, _ b: Int) -> Int {
        let (result, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : result
    }

    /// Gap between the label column and the values.
    private static let gap = 2

    func labelWidth(for width: Int) -> Int {
        let widest = lines.reduce(0) { max($0, DisplayWidth.of(String($1.label.prefix(width)))) }
        return min(widest, Int(Double(width) * maxLabelFraction))
    }

    /// The rows the widget would draw at `width`, before scrolling, up to `limit` rows.
    public func layout(width: Int, limit: Int = .max) -> [(label: String, value: String, style: Style)] {
        let labelWidth = labelWidth(for: width)
        let valueWidth = max(1, width - labelWidth - Self.gap)
        var rows: [(label: String, value: String, style: Style)] = []
        for line in lines {
            guard rows.count < limit else { break }
            let wanted = min(limit - rows.count, Self.maxRowsPerValue)
            var wrapped = TextWrapper.wrap(line.value, width: valueWidth, maxLines: wanted + 1)
            if wrapped.count > Self.maxRowsPerValue {
                wrapped = Array(wrapped.prefix(Self.maxRowsPerValue - 1))
                    + ["… cut here: the value is \(line.value.utf8.count.thousandsSeparated) bytes long"]
            }
            for (index, piece) in wrapped.prefix(wanted).enumerated() {
                rows.append((index == 0 ? line.label.truncated(toWidth: labelWidth) : "", piece, line.valueStyle))
            }
        }
        return rows
    }

    /// How many rows the lines take at `width`, so the app can clamp `offset`.
    public func rowCount(width: Int) -> Int { layout(width: width).count }

    /// The offset actually drawn in an area of `height` rows: at most the last full page.
    public func clampedOffset(width: Int, height: Int) -> Int {
        let wanted = max(0, offset)
        let rows = layout(width: width, limit: Self.sum(wanted, height)).count
        return min(wanted, max(0, rows - height))
    }

    public func render(into canvas: inout Canvas, area: Rect) {
        canvas.fill(area)
        guard !area.isEmpty else { return }
        let wanted = max(0, offset)
        let rows = layout(width: area.width, limit: Self.sum(wanted, area.height))
        let start = min(wanted, max(0, rows.count - area.height))
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
