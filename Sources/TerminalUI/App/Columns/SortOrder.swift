/// Which column a tab's rows are sorted by, and which way. `s` moves to the next column
/// (ascending first), `S` turns the direction around.
struct SortOrder: Hashable, Sendable {
    var column: Int
    var ascending: Bool = true

    func next(columnCount: Int) -> SortOrder {
        SortOrder(column: (column + 1) % max(1, columnCount), ascending: true)
    }

    var reversed: SortOrder { SortOrder(column: column, ascending: !ascending) }
}
