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
    /// row from there on, up to the tail; each row of the tail moved by `shift`. A large
    /// collection's slices, read in id order, land after nearly all the rows there, and a
    /// change elsewhere moves the rows after it by as many as it added or removed: neither
    /// makes an array of a million positions.
    private let kept: Int
    private let rest: [Int32]
    private let tail: Int
    private let shift: Int32
    /// How many rows there are now.
    public let count: Int

    public init(positions: [Int32], count: Int) {
        self.init(kept: 0, rest: positions, count: count)
    }

    /// The rows of an earlier version: those before `kept` in their places, then `rest`'s,
    /// then `tail` rows each `shift` places from where it was.
    public init(kept: Int, rest: [Int32], tail: Int = 0, shift: Int = 0, count: Int) {
        self.kept = kept
        self.rest = rest
        self.tail = tail
        self.shift = Int32(shift)
        self.count = count
    }

    /// Nothing moved.
    public static func identity(_ count: Int) -> RowMap { RowMap(kept: count, rest: [], count: count) }

    /// How many rows there were.
    public var earlierCount: Int { tailStart + tail }

    /// How many of the earlier rows, from the first, stayed in their places.
    public var keptInPlace: Int { kept }

    /// The positions now of the earlier rows from `keptInPlace` up to `tailStart` (-1: gone).
    public var positionsAfterKept: [Int32] { rest }

    /// The first earlier row of the tail, which moved by `tailShift` as every row after it.
    public var tailStart: Int { kept + rest.count }

    public var tailShift: Int { Int(shift) }

    /// Per earlier row, its position now or -1.
    public var positions: [Int32] { (0..<earlierCount).map { position(of: $0) } }

    /// An earlier row's position now, or -1.
    public func position(of row: Int) -> Int32 {
        if row < kept { return Int32(row) }
        if row < tailStart { return rest[row - kept] }
        return Int32(row) + shift
    }

    /// This map, then `next`: the rows both kept in place stay so, those in both tails are in
    /// the tail of both together, the others are followed one by one.
    public func then(_ next: RowMap) -> RowMap {
        let bothKept = min(kept, next.kept)
        // An earlier row of this tail lands in `next`'s tail from this one on.
        let bothTail = min(max(tailStart, next.tailStart - Int(shift)), earlierCount)
        let rest = (bothKept..<max(bothKept, bothTail)).map { row -> Int32 in
            let position = position(of: row)
            return position < 0 ? -1 : next.position(of: Int(position))
        }
        return RowMap(kept: bothKept, rest: rest, tail: earlierCount - max(bothKept, bothTail), shift: Int(shift + next.shift), count: next.count)
    }

    /// The positions now that no earlier row reaches, in order: the new rows.
    public var added: [Int] {
        // The rows kept in place fill the first positions, the tail the last ones; the rest's
        // lie between.
        let end = count - tail
        var reached = [Bool](repeating: false, count: end - kept)
        for position in rest where position >= 0 { reached[Int(position) - kept] = true }
        return reached.indices.filter { !reached[$0] }.map { $0 + kept }
    }
}
