/// Column widths for a table in a given width, and rows cut and padded to them, so every
/// row lines up under the header. Widths depend on the width alone, never on the rows in
/// view, so columns stay put while the list scrolls. Columns that do not fit even at their
/// minimum are left out, rightmost first; the first column is always shown.
public struct TableLayout: Hashable, Sendable {
    public static let gap = 2

    public let columns: [ColumnSpec]
    /// Each column's width; 0 for a column left out.
    public let widths: [Int]

    public init(columns: [ColumnSpec], width: Int) {
        // Room for the title and its sort mark (" ▲") whatever the column holds.
        let columns = columns.map { spec in
            var spec = spec
            spec.minWidth = max(spec.minWidth, spec.title.displayWidth + 2)
            return spec
        }
        self.columns = columns
        var shown = 0
        var used = 0
        for (index, column) in columns.enumerated() {
            let needed = column.minWidth + (index == 0 ? 0 : Self.gap)
            if index > 0 && used + needed > width { break }
            used += needed
            shown += 1
        }
        var widths = columns.enumerated().map { $0.offset < shown ? $0.element.minWidth : 0 }
        let spare = max(0, width - used)
        let weights = columns.prefix(shown).map(\.weight)
        let total = weights.reduce(0, +)
        if total > 0 {
            var given = 0
            for (index, weight) in weights.enumerated() where weight > 0 {
                let share = spare * weight / total
                widths[index] += share
                given += share
            }
            // What integer division leaves goes to the first flexible column.
            if let first = weights.firstIndex(where: { $0 > 0 }) { widths[first] += spare - given }
        }
        if shown == 1 { widths[0] = width }
        self.widths = widths
    }

    /// The header: each title, ▲ or ▼ after the column the rows are sorted by, and the
    /// title of the column under the column cursor, if any, in reverse.
    public func header(sortedBy column: Int?, ascending: Bool, cursor: Int? = nil) -> [Span] {
        let cells = columns.enumerated().map { index, spec -> [Span] in
            let mark = index == column ? (ascending ? " ▲" : " ▼") : ""
            return [Span(spec.title + mark, style: Style(bold: true, reverse: index == cursor, underline: index == column))]
        }
        return row(cells)
    }

    /// The cells cut to their columns' widths (ending in "…" when cut) and padded, with the
    /// gap between columns; cells of columns left out are dropped.
    public func row(_ cells: [[Span]]) -> [Span] {
        var spans: [Span] = []
        for (index, width) in widths.enumerated() where width > 0 {
            let cell = index < cells.count ? cells[index].truncated(toWidth: width) : []
            let pad = String(repeating: " ", count: max(0, width - cell.displayWidth))
            if !spans.isEmpty { spans.append(Span(String(repeating: " ", count: Self.gap))) }
            if columns[index].alignment == .right {
                spans.append(Span(pad))
                spans += cell
            } else {
                spans += cell
                if index < lastShown { spans.append(Span(pad)) }
            }
        }
        return spans
    }

    /// The column drawn at `x` columns from the table's left edge, for a click on the header;
    /// nil in a gap or past the last column.
    public func column(atOffset x: Int) -> Int? {
        var start = 0
        for (index, width) in widths.enumerated() where width > 0 {
            if x >= start && x < start + width { return index }
            start += width + Self.gap
        }
        return nil
    }

    private var lastShown: Int { widths.lastIndex(where: { $0 > 0 }) ?? 0 }

    /// How many columns are shown: the first ones (those left out are the rightmost).
    public var shownCount: Int { widths.filter { $0 > 0 }.count }
}
