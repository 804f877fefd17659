import ShelfModels

/// Per row of a `LiveCollection`, a value derived from it (a sort key, a search text), made
/// once per row and carried along as the rows change (`LiveCollection.rowMap(since:)`): when
/// one document of 100,000 changes, one value is made and the rest are moved, not looked up.
/// A large collection's values can be made a slice at a time (`prepare`).
///
/// Generic over the value only, not the model, so the compiler specializes it for sort keys
/// and search texts even where the tab itself is generic.
@MainActor
final class RowCache<Value> {
    /// What a row's slot holds until its value is made.
    private let placeholder: Value
    private var version = -1
    private var values: [Value] = []
    private var isMade: [Bool] = []
    private var missing = 0
    /// No row before this one is missing its value.
    private var firstMissing = 0
    /// How many values were made, for tests: a change to one row makes one.
    private(set) var madeCount = 0

    init(placeholder: Value) {
        self.placeholder = placeholder
    }

    /// How many rows have no value yet.
    func missingCount(_ rows: any VersionedRows) -> Int {
        follow(rows)
        return missing
    }

    /// Makes up to `budget` missing values (`make` is given a row's index), in the rows' order;
    /// returns how many rows have theirs. Many are made on every core: `make` only reads the
    /// rows' stored documents, which nothing changes while it runs (a million search texts
    /// took 2.6 s of one core, the first filter key waiting for them).
    @discardableResult
    func prepare(_ rows: any VersionedRows, budget: Int, make: @Sendable (Int) -> Value) -> Int {
        let indices = missingIndices(upTo: budget, of: rows)
        let made = EveryCore.map(count: indices.count, past: Self.concurrentPast) { make(indices[$0]) }
        return store(made, at: indices)
    }

    /// As `prepare(_:budget:make:)`, the values made a run of rows at a time, each run on one
    /// core (`makeRun` is given the run's rows), and kept on the calling thread in the rows'
    /// order (`keep` gives a run's values, one a row): a run's search texts are folded into
    /// blocks of their own, which are then kept as they are (`RowSearchTexts`).
    @discardableResult
    func prepare<Run>(_ rows: any VersionedRows, budget: Int, makeRun: @Sendable (ArraySlice<Int>) -> Run, keep: (Run) -> [Value]) -> Int {
        let indices = missingIndices(upTo: budget, of: rows)
        let runs = EveryCore.runs(count: indices.count, past: Self.concurrentPast) { makeRun(indices[$0]) }
        return store(runs.flatMap(keep), at: indices)
    }

    /// Made on the calling thread below this many.
    static var concurrentPast: Int { 2_048 }

    /// Every row's value, made now where missing.
    func values(of rows: any VersionedRows, make: @Sendable (Int) -> Value) -> [Value] {
        prepare(rows, budget: .max, make: make)
        return values
    }

    /// Every row's value, made now where missing as `prepare(_:budget:makeRun:keep:)` does.
    func values<Run>(of rows: any VersionedRows, makeRun: @Sendable (ArraySlice<Int>) -> Run, keep: (Run) -> [Value]) -> [Value] {
        prepare(rows, budget: .max, makeRun: makeRun, keep: keep)
        return values
    }

    /// The first `budget` rows missing their values, in order.
    private func missingIndices(upTo budget: Int, of rows: any VersionedRows) -> [Int] {
        follow(rows)
        var indices: [Int] = []
        while missing > indices.count && indices.count < budget && firstMissing < isMade.count {
            if !isMade[firstMissing] { indices.append(firstMissing) }
            firstMissing += 1
        }
        return indices
    }

    /// Keeps the values made for the rows at `indices`; returns how many rows have theirs.
    private func store(_ made: [Value], at indices: [Int]) -> Int {
        assert(made.count == indices.count, "a value for each row")
        for (index, value) in zip(indices, made) {
            values[index] = value
            isMade[index] = true
        }
        missing -= indices.count
        madeCount += indices.count
        return values.count - missing
    }

    /// Every value made so far, changed in place by `body` (the rows without one are left).
    func updateMadeValues(_ body: (inout Value) -> Void) {
        for index in values.indices where isMade[index] { body(&values[index]) }
    }

    /// Brings the values to the rows' version: those made move with their rows. The rows a
    /// change kept in place (all but the last few, as a large collection's slices come in id
    /// order) keep their values where they are, and those of the tail after a change move
    /// together: a slice of a million rows, or a change to one of them, moves few.
    private func follow(_ rows: any VersionedRows) {
        guard version != rows.version else { return }
        let count = rows.rowCount
        defer { version = rows.version }
        guard let map = rows.rowMap(since: version), map.earlierCount == values.count else {
            values = [Value](repeating: placeholder, count: count)
            isMade = [Bool](repeating: false, count: count)
            missing = count
            firstMissing = 0
            return
        }
        let kept = map.keptInPlace
        // The positions between the kept rows and the tail's.
        let span = count - (map.earlierCount - map.tailStart) - kept
        var moved = [Value](repeating: placeholder, count: span)
        var movedIsMade = [Bool](repeating: false, count: span)
        var missingBefore = 0, madeMoved = 0
        // Swapped, not copied: no value is retained and released on the way.
        moved.withUnsafeMutableBufferPointer { moved in
            values.withUnsafeMutableBufferPointer { values in
                for (offset, new) in map.positionsAfterKept.enumerated() {
                    let old = kept + offset
                    guard isMade[old] else { missingBefore += 1; continue }
                    guard new >= 0 else { continue }
                    swap(&moved[Int(new) - kept], &values[old])
                    movedIsMade[Int(new) - kept] = true
                    madeMoved += 1
                }
            }
        }
        values.replaceSubrange(kept..<map.tailStart, with: moved)
        isMade.replaceSubrange(kept..<map.tailStart, with: movedIsMade)
        missing += (span - madeMoved) - missingBefore
        if firstMissing >= kept {
            // The first missing now: in the span, or else where it was in the tail, moved with it.
            let inTail = firstMissing >= map.tailStart ? firstMissing + map.tailShift : kept + span
            firstMissing = movedIsMade.firstIndex(of: false).map { kept + $0 } ?? inTail
        }
    }
}

/// What a `RowCache` needs of the rows it follows.
@MainActor
protocol VersionedRows: AnyObject {
    var version: Int { get }
    var rowCount: Int { get }
    func rowMap(since version: Int) -> RowMap?
}

extension LiveCollection: VersionedRows {
    var rowCount: Int { rows.count }
}
