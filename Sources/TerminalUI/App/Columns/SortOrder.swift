/// Which column a tab's rows are sorted by, and which way. `s` moves to the next column
/// (ascending first), `S` turns the direction around.
struct SortOrder: Hashable, Sendable {
    var column: Int
    var ascending: Bool = true

    /// The next of the first `columnCount` columns (those shown), ascending; after the last of
    /// them, or from a column past them, the first.
    func next(columnCount: Int) -> SortOrder {
        SortOrder(column: column + 1 < columnCount ? column + 1 : 0, ascending: true)
    }

    var reversed: SortOrder { SortOrder(column: column, ascending: !ascending) }
}
