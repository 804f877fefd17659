import TerminalKit

/// How a tab's columns are arranged by the keys visidata's users reach for: a cursor on one
/// column (h/l), the columns in view scrolled to keep it there, columns moved (H/L), hidden
/// (-, + shows them all again) and widened to their content (_). Indices are the tab's own
/// columns' (`CollectionTab.columns`), so the sort order and filters keep meaning the same.
struct ColumnArrangement: Equatable {
    /// The tab's columns in the order shown, hidden ones left out.
    private(set) var order: [Int]
    /// The cursor's place in `order`.
    private(set) var cursor = 0
    /// The place in `order` of the first column in view (settled before each frame).
    var first = 0
    /// Widths fixed by `_`, by column.
    private(set) var widths: [Int: Int] = [:]
    /// Whether the header marks the cursor's column: once h or l has moved it.
    private(set) var showsCursor = false
    /// How many columns the tab had: a tab whose columns changed starts again.
    let columnCount: Int

    init(columnCount: Int) {
        self.columnCount = columnCount
        order = Array(0..<columnCount)
    }

    /// The column under the cursor.
    var cursorColumn: Int? { order.indices.contains(cursor) ? order[cursor] : nil }

    /// h/l: the cursor one column left or right, stopping at the ends.
    mutating func moveCursor(by step: Int) {
        showsCursor = true
        cursor = min(max(0, cursor + step), max(0, order.count - 1))
    }

    /// H/L: the cursor's column swaps with its neighbour; the cursor stays on it.
    mutating func moveColumn(by step: Int) {
        showsCursor = true
        let target = cursor + step
        guard order.indices.contains(cursor), order.indices.contains(target) else { return }
        order.swapAt(cursor, target)
        cursor = target
    }

    /// -: hides the cursor's column; false when it is the last one shown.
    mutating func hideCursorColumn() -> Bool {
        guard order.count > 1, order.indices.contains(cursor) else { return false }
        order.remove(at: cursor)
        cursor = min(cursor, order.count - 1)
        first = min(first, cursor)
        return true
    }

    /// +: every column shown again, the hidden ones after the others in their own order.
    mutating func showAll() {
        order += (0..<columnCount).filter { !order.contains($0) }
    }

    /// _: the cursor's column at `width` (its content's), or back to its own width.
    mutating func toggleWidth(_ width: Int) {
        guard let column = cursorColumn else { return }
        widths[column] = widths[column] == nil ? width : nil
    }

    /// The columns from the first in view, with their specs as laid out (a fixed width stands
    /// for both the least and the most the column takes).
    func inView(of columns: [ColumnSpec]) -> (indices: [Int], specs: [ColumnSpec]) {
        let indices = Array(order.dropFirst(min(first, max(0, order.count - 1))))
        let specs = indices.map { index -> ColumnSpec in
            var spec = columns[index]
            if let width = widths[index] {
                spec.minWidth = width
                spec.weight = 0
            }
            return spec
        }
        return (indices, specs)
    }

    /// `first` moved as little as needed for the cursor's column to be in view at `width`.
    mutating func keepCursorInView(of columns: [ColumnSpec], width: Int) {
        first = min(first, cursor)
        while first < cursor {
            let (indices, specs) = inView(of: columns)
            let shown = TableLayout(columns: specs, width: width).shownCount
            if indices.prefix(shown).contains(order[cursor]) { break }
            first += 1
        }
    }
}
