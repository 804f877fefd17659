/// The rows a tab's list shows (indices into the tab's rows, sorted and filtered) and what
/// they were made from, with the way back from a row index to its place in the list.
struct VisibleRows {
    let version: Int
    let sort: SortOrder
    let needle: [UInt8]
    let rows: ListedRows
    /// Place in `rows` per row index, -1 when filtered out; built on first use.
    private let positions: Positions

    init(version: Int, sort: SortOrder, needle: [UInt8], rows: ListedRows, rowCount: Int) {
        self.version = version
        self.sort = sort
        self.needle = needle
        self.rows = rows
        positions = Positions(rows: rows, rowCount: rowCount)
    }

    func position(of index: Int) -> Int? { rows.position(of: index) { positions.table } }

    /// Built lazily and kept: a class, so the cached value builds it once.
    private final class Positions {
        let rows: ListedRows
        let rowCount: Int
        lazy var table: [Int32] = {
            var table = [Int32](repeating: -1, count: rowCount)
            for (position, index) in rows.enumerated() where index < rowCount { table[index] = Int32(position) }
            return table
        }()

        init(rows: ListedRows, rowCount: Int) {
            self.rows = rows
            self.rowCount = rowCount
        }
    }
}
