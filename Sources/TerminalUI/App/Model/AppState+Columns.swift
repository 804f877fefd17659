import TerminalKit

/// The list's columns as the keys arrange them (`ColumnArrangement`): which are in view at a
/// width, and the keys that move the cursor, move, hide, show and widen them.
extension AppState {
    /// The tab's arrangement: the one its keys made, or its columns as they come (also once
    /// its columns changed, as a folder's without a model do when it is read).
    func arrangement(of tab: CollectionTab) -> ColumnArrangement {
        if let arranged = lists[tab].columns, arranged.columnCount == tab.columns.count { return arranged }
        return ColumnArrangement(columnCount: tab.columns.count)
    }

    /// The tab's columns from the first in view, and their layout at the list's width.
    func columnsInView(of tab: CollectionTab) -> (indices: [Int], layout: TableLayout) {
        let (indices, specs) = arrangement(of: tab).inView(of: tab.columns)
        return (indices, TableLayout(columns: specs, width: tableWidth))
    }

    /// h/l, H/L, -, + and _ on the shown tab's columns.
    mutating func arrangeColumns(_ action: Keymap.Action) -> Reply {
        let tab = tab
        var arrangement = arrangement(of: tab)
        var reply = Reply()
        switch action {
        case .columnLeft: arrangement.moveCursor(by: -1)
        case .columnRight: arrangement.moveCursor(by: 1)
        case .moveColumnLeft: arrangement.moveColumn(by: -1)
        case .moveColumnRight: arrangement.moveColumn(by: 1)
        case .hideColumn:
            let title = arrangement.cursorColumn.map { tab.columns[$0].title } ?? ""
            reply.notice = arrangement.hideCursorColumn() ? "Hid the \(title) column (+ shows every column again)" : "The last column stays shown"
        case .showColumns: arrangement.showAll()
        case .widenColumn:
            if let column = arrangement.cursorColumn { arrangement.toggleWidth(widestCell(of: column, in: tab)) }
        default: break
        }
        lists[tab].columns = arrangement
        return reply
    }

    /// Moves the first column in view as little as needed to keep the cursor's column in view.
    mutating func keepColumnCursorInView() {
        guard var arrangement = lists[tab].columns, arrangement.columnCount == tab.columns.count else { return }
        arrangement.keepCursorInView(of: tab.columns, width: tableWidth)
        lists[tab].columns = arrangement
    }

    /// The width the list's columns are laid out in: its header's.
    private var tableWidth: Int { max(1, ScreenLayout(size: size).header.width) }

    /// The width `_` gives a column: its widest cell among the rows in view, and its title,
    /// at most the list's width.
    private func widestCell(of column: Int, in tab: CollectionTab) -> Int {
        let height = ScreenLayout(size: size).listRows.height
        let rows = listed(tab).rows.dropFirst(lists[tab].list.offset).prefix(height)
        var widest = tab.columns[column].title.displayWidth + 2
        for index in rows {
            guard case .cells(let cells) = tab.tableRow(at: index, mode: .none), cells.indices.contains(column) else { continue }
            widest = max(widest, cells[column].prefix.displayWidth + cells[column].text.displayWidth)
        }
        return min(widest, tableWidth)
    }
}
