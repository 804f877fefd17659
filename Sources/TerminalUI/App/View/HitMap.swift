import TerminalKit

/// What a click at each cell of a frame means. `AppView.render` makes it with the frame, from
/// the layout and the offsets it drew with, so a click lands on what is drawn there and the
/// model reads a click without asking the view.
public struct HitMap: Sendable {
    /// What is under a point: a tab, a column's title, a document's row (its place in the
    /// list), the rest of the list, the detail pane.
    public enum Hit: Equatable, Sendable {
        case tab(Int), header(column: Int), row(Int), list, detail, elsewhere
    }

    private let layout: ScreenLayout?
    private let tabBar: TabBar
    private let table: TableLayout
    /// The tab's column drawn in each of the table's (the columns as arranged, from the first
    /// in view): a click on a title names the tab's column.
    private let columns: [Int]
    /// The list's place of the first row in view, and how many rows it lists.
    private let firstRow: Int
    private let rowCount: Int

    init(layout: ScreenLayout?, tabBar: TabBar, table: TableLayout, columns: [Int], firstRow: Int, rowCount: Int) {
        self.layout = layout
        self.tabBar = tabBar
        self.table = table
        self.columns = columns
        self.firstRow = firstRow
        self.rowCount = rowCount
    }

    /// A frame with nothing to click (the screen is too small).
    public static let none = HitMap(layout: nil, tabBar: TabBar(titles: [], selected: 0), table: TableLayout(columns: [], width: 1),
                             columns: [], firstRow: 0, rowCount: 0)

    public func hit(at point: Point) -> Hit {
        guard let layout else { return .elsewhere }
        if layout.tabBar.contains(point) {
            return tabBar.index(atColumn: point.x - layout.tabBar.x, width: layout.tabBar.width).map(Hit.tab) ?? .elsewhere
        }
        if layout.header.contains(point) {
            return table.column(atOffset: point.x - layout.header.x).flatMap { columns.indices.contains($0) ? .header(column: columns[$0]) : nil } ?? .list
        }
        if layout.listRows.contains(point) {
            let position = firstRow + point.y - layout.listRows.y
            return position < rowCount ? .row(position) : .list
        }
        if layout.list.contains(point) { return .list }
        if layout.detail.contains(point) { return .detail }
        return .elsewhere
    }
}
