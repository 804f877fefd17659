/// A value derived from each row (a sort key, a search text), worked out once per version of
/// the row: a changed document is a new row object, so a change recomputes only what changed.
/// Each value is kept beside the row object it came from, which keeps that object alive, so
/// its identity cannot pass to another row while the value is cached.
@MainActor
final class RowCache<Value> {
    private var version: Int?
    private var values: [Value] = []
    private var byRow: [ObjectIdentifier: (row: AnyObject, value: Value)] = [:]
    /// The values of the first rows of a version, while `prepare` goes through them.
    private var prepared: (version: Int, values: [Value])?

    /// Makes the values of up to `budget` rows that have none yet, in the rows' order, so a
    /// large collection's values can be made a slice at a time; returns how many rows are
    /// covered. Once all are, `values(of:version:make:)` returns them as they are.
    func prepare<Row: AnyObject>(_ rows: [Row], version: Int, budget: Int, make: (Row) -> Value) -> Int {
        if self.version == version { return rows.count }
        var values = prepared?.version == version ? prepared!.values : []
        prepared = nil  // one owner, so appending does not copy
        values.reserveCapacity(rows.count)
        var made = 0
        while values.count < rows.count && made < budget {
            let row = rows[values.count]
            let key = ObjectIdentifier(row)
            if let known = byRow[key] {
                values.append(known.value)
            } else {
                let value = make(row)
                byRow[key] = (row, value)
                values.append(value)
                made += 1
            }
        }
        guard values.count == rows.count else {
            prepared = (version, values)
            return values.count
        }
        self.values = values
        self.version = version
        // Values of rows gone since pile up here; drop them once they are many.
        if byRow.count > rows.count + max(1_000, rows.count / 4) {
            byRow = Dictionary(uniqueKeysWithValues: zip(rows, values).map { (ObjectIdentifier($0), ($0 as AnyObject, $1)) })
        }
        return rows.count
    }

    /// Whether every row of `version` has its value.
    func isComplete(version: Int) -> Bool { self.version == version }

    func values<Row: AnyObject>(of rows: [Row], version: Int, make: (Row) -> Value) -> [Value] {
        if self.version == version { return values }
        var updated: [ObjectIdentifier: (row: AnyObject, value: Value)] = [:]
        updated.reserveCapacity(rows.count)
        values = rows.map { row in
            let key = ObjectIdentifier(row)
            let value = byRow[key]?.value ?? make(row)
            updated[key] = (row, value)
            return value
        }
        byRow = updated
        self.version = version
        return values
    }
}
