import ShelfModels

/// Per row of a `LiveCollection`, a value derived from it (a sort key, a search text), made
/// once per row and carried along as the rows change (`LiveCollection.rowMap(since:)`): when
/// one document of 100,000 changes, one value is made and the rest are moved, not looked up.
/// A large collection's values can be made a slice at a time (`prepare`).
@MainActor
final class RowCache<Model: Codable & Sendable, Value> {
    private let make: (LiveCollection<Model>.Row) -> Value
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

    init(placeholder: Value, make: @escaping (LiveCollection<Model>.Row) -> Value) {
        self.placeholder = placeholder
        self.make = make
    }

    /// How many rows have no value yet.
    func missingCount(_ live: LiveCollection<Model>) -> Int {
        follow(live)
        return missing
    }

    /// Makes up to `budget` missing values, in the rows' order; returns how many rows have theirs.
    @discardableResult
    func prepare(_ live: LiveCollection<Model>, budget: Int) -> Int {
        follow(live)
        let rows = live.rows
        var made = 0
        while missing > 0 && made < budget {
            if !isMade[firstMissing] {
                values[firstMissing] = make(rows[firstMissing])
                isMade[firstMissing] = true
                missing -= 1
                made += 1
                madeCount += 1
            }
            firstMissing += 1
        }
        return rows.count - missing
    }

    /// Every row's value, made now where missing.
    func values(of live: LiveCollection<Model>) -> [Value] {
        prepare(live, budget: .max)
        return values
    }

    /// Brings the values to the rows' version: those made move with their rows.
    private func follow(_ live: LiveCollection<Model>) {
        guard version != live.version else { return }
        let count = live.rows.count
        var moved = [Value](repeating: placeholder, count: count)
        var movedIsMade = [Bool](repeating: false, count: count)
        if let map = live.rowMap(since: version), map.positions.count == values.count {
            for (old, new) in map.positions.enumerated() where new >= 0 && isMade[old] {
                moved[Int(new)] = values[old]
                movedIsMade[Int(new)] = true
            }
        }
        values = moved
        isMade = movedIsMade
        missing = movedIsMade.reduce(0) { $0 + ($1 ? 0 : 1) }
        firstMissing = movedIsMade.firstIndex(of: false) ?? count
        version = live.version
    }
}
