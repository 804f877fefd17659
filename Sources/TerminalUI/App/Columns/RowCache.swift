/// A value derived from each row (a sort key, a search text), worked out once per version of
/// the row: a changed document is a new row object, so a change recomputes only what changed.
/// Each value is kept beside the row object it came from, which keeps that object alive, so
/// its identity cannot pass to another row while the value is cached.
@MainActor
final class RowCache<Value> {
    private var version: Int?
    private var values: [Value] = []
    private var byRow: [ObjectIdentifier: (row: AnyObject, value: Value)] = [:]

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
