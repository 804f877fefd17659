/// How a `LiveCollection`'s rows of one version became those of a later one: each earlier
/// row's new position, or -1 when it is gone (removed, or replaced by a newer snapshot of its
/// document). Rows are always in id order, so the rows kept keep their relative order; the
/// positions no earlier row reaches hold new rows.
///
/// With it, what a screen works out per row (sort keys, search texts, an order) follows a
/// change by moving what it has and making values only for the new rows: a change to one
/// document of 100,000 costs one value, not 100,000 lookups.
public struct RowMap: Sendable, Equatable {
    /// Per earlier row, its position now or -1.
    public let positions: [Int32]
    /// How many rows there are now.
    public let count: Int

    public init(positions: [Int32], count: Int) {
        self.positions = positions
        self.count = count
    }

    /// Nothing moved.
    public static func identity(_ count: Int) -> RowMap {
        RowMap(positions: Array(0..<Int32(count)), count: count)
    }

    /// This map, then `next`.
    public func then(_ next: RowMap) -> RowMap {
        RowMap(positions: positions.map { $0 < 0 ? -1 : next.positions[Int($0)] }, count: next.count)
    }

    /// The positions now that no earlier row reaches, in order: the new rows.
    public var added: [Int] {
        var reached = [Bool](repeating: false, count: count)
        for position in positions where position >= 0 { reached[Int(position)] = true }
        return reached.indices.filter { !reached[$0] }
    }
}
