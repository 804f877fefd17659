/// Which column a tab's rows are sorted by, and which way. `s` moves to the next column
/// (ascending first), `S` turns the direction around.
struct SortOrder: Hashable, Sendable {
    var column: Int
    var ascending: Bool = true

    /// The column after this one among `shown` (those on screen, in their order), ascending;
    /// after the last of them, or from a column not among them, the first.
    func next(among shown: [Int]) -> SortOrder {
        let place = shown.firstIndex(of: column).map { $0 + 1 } ?? shown.count
        return SortOrder(column: place < shown.count ? shown[place] : shown.first ?? 0, ascending: true)
    }

    var reversed: SortOrder { SortOrder(column: column, ascending: !ascending) }
}
