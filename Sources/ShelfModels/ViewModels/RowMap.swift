/// How a `LiveCollection`'s rows of one version became those of a later one: each earlier
/// row's new position, or -1 when it is gone (removed, or replaced by a newer snapshot of its
/// document). Rows are always in id order, so the rows kept keep their relative order; the
/// positions no earlier row reaches hold new rows.
///
/// With it, what a screen works out per row (sort keys, search texts, an order) follows a
/// change by moving what it has and making values only for the new rows: a change to one
/// document of 100,000 costs one value, not 100,000 lookups.
public struct RowMap: Sendable, Equatable {
    /// The earlier rows before `kept` stayed in their places; `rest` is the position of each
    /// row from there on. A large collection's slices, read in id order, land after nearly all
    /// the rows there: no array of a million positions for each slice.
    private let kept: Int
    private let rest: [Int32]
    /// How many rows there are now.
    public let count: Int

    public init(positions: [Int32], count: Int) {
        self.init(kept: 0, rest: positions, count: count)
    }

    /// The rows of an earlier version: those before `kept` in their places, then `rest`'s.
    public init(kept: Int, rest: [Int32], count: Int) {
        self.kept = kept
        self.rest = rest
        self.count = count
    }

    /// Nothing moved.
    public static func identity(_ count: Int) -> RowMap { RowMap(kept: count, rest: [], count: count) }

    /// How many rows there were.
    public var earlierCount: Int { kept + rest.count }

    /// How many of the earlier rows, from the first, stayed in their places.
    public var keptInPlace: Int { kept }

    /// The positions now of the earlier rows from `keptInPlace` on (-1: gone).
    public var positionsAfterKept: [Int32] { rest }

    /// Per earlier row, its position now or -1.
    public var positions: [Int32] { kept == 0 ? rest : Array(0..<Int32(kept)) + rest }

    /// An earlier row's position now, or -1.
    public func position(of row: Int) -> Int32 { row < kept ? Int32(row) : rest[row - kept] }

    /// This map, then `next`: the rows both kept in place stay so, the others are followed.
    public func then(_ next: RowMap) -> RowMap {
        let bothKept = min(kept, next.kept)
        let rest = (bothKept..<earlierCount).map { row -> Int32 in
            let position = position(of: row)
            return position < 0 ? -1 : next.position(of: Int(position))
        }
        return RowMap(kept: bothKept, rest: rest, count: next.count)
    }

    /// The positions now that no earlier row reaches, in order: the new rows.
    public var added: [Int] {
        // The rows kept in place fill the first positions; the rest come after them.
        var reached = [Bool](repeating: false, count: count - kept)
        for position in rest where position >= 0 { reached[Int(position) - kept] = true }
        return reached.indices.filter { !reached[$0] }.map { $0 + kept }
    }
}
