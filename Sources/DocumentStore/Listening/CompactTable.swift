/// A hash table for what a listener keeps per document of a collection of any size: the
/// entries in two dense arrays, `keys` and `values`, and an index of their positions.
///
/// A `Dictionary` of a million entries has 2^21 buckets of a whole key and value each (its
/// load stays under three quarters, so a million needs the next power of two above 1.33
/// million): 100 MiB for a folder's stamps, half of it empty. Here each entry costs its key and
/// value and 4 to 8 bytes of index. Entries `append`ed (a first read's, which are all new) are
/// indexed at the next lookup, or when asked (`indexAppended`): a first read's, once its
/// snapshot is sent (indexing a million ids at the first change after the load took 0.4 s).
/// Removing an entry moves the last one into its place: `keys` and `values` are in no order
/// that lasts.
struct CompactTable<Key: Hashable, Value> {
    private(set) var keys: [Key] = []
    private(set) var values: [Value] = []
    /// Open addressing, linear probing: each slot 0 (empty) or an entry's position + 1. Its
    /// count is a power of two, at least 4/3 of the entries'.
    private var slots: [UInt32] = []
    /// Entries before this position are in `slots`; those after were appended since.
    private var indexed = 0

    init() {}

    var count: Int { keys.count }
    var isEmpty: Bool { keys.isEmpty }

    mutating func reserveCapacity(_ count: Int) {
        keys.reserveCapacity(count)
        values.reserveCapacity(count)
    }

    /// Indexes the entries appended since the last lookup now.
    mutating func indexAppended() { index() }

    /// How many entries were appended and not indexed yet.
    var unindexed: Int { keys.count - indexed }

    /// Adds an entry whose key the table does not hold (the caller knows it is new).
    mutating func append(_ key: Key, _ value: Value) {
        keys.append(key)
        values.append(value)
    }

    subscript(key: Key) -> Value? {
        mutating get {
            index()
            return position(of: key).map { values[$0] }
        }
        set {
            guard let newValue else {
                removeValue(forKey: key)
                return
            }
            index()
            if let position = position(of: key) {
                values[position] = newValue
            } else {
                append(key, newValue)
                index()
            }
        }
    }

    @discardableResult
    mutating func removeValue(forKey key: Key) -> Value? {
        index()
        guard let found = slot(of: key) else { return nil }
        let position = Int(slots[found]) - 1
        removeSlot(found)
        let removed = values[position]
        let last = keys.count - 1
        if position != last {
            slots[slot(of: keys[last])!] = UInt32(position + 1)
            keys.swapAt(position, last)
            values.swapAt(position, last)
        }
        keys.removeLast()
        values.removeLast()
        indexed = keys.count
        return removed
    }

    mutating func removeAll() {
        self = CompactTable()
    }

    // MARK: The index

    private var mask: Int { slots.count - 1 }

    private func home(of key: Key) -> Int { key.hashValue & mask }

    /// The slot holding `key`'s position, or nil.
    private func slot(of key: Key) -> Int? {
        guard !slots.isEmpty else { return nil }
        var slot = home(of: key)
        while slots[slot] != 0 {
            if keys[Int(slots[slot]) - 1] == key { return slot }
            slot = (slot + 1) & mask
        }
        return nil
    }

    private func position(of key: Key) -> Int? {
        slot(of: key).map { Int(slots[$0]) - 1 }
    }

    /// Indexes the entries appended since the last lookup, growing the index as needed.
    private mutating func index() {
        guard indexed < keys.count else { return }
        if keys.count * 4 > slots.count * 3 { makeIndex(for: keys.count) }
        for position in indexed..<keys.count {
            var slot = home(of: keys[position])
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = UInt32(position + 1)
        }
        indexed = keys.count
    }

    /// An empty index with room for `count` entries, to which every entry is added again.
    private mutating func makeIndex(for count: Int) {
        var size = max(16, slots.count)
        while count * 4 > size * 3 { size *= 2 }
        slots = [UInt32](repeating: 0, count: size)
        indexed = 0
    }

    /// Empties `slot`, moving back the entries after it that probed past it, so that every
    /// entry stays reachable from its home without tombstones.
    private mutating func removeSlot(_ slot: Int) {
        var hole = slot
        var next = (slot + 1) & mask
        while slots[next] != 0 {
            let home = home(of: keys[Int(slots[next]) - 1])
            // The entry at `next` may fill the hole when its home is not in (hole, next], cyclically.
            let stays = hole <= next ? (hole < home && home <= next) : (hole < home || home <= next)
            if !stays {
                slots[hole] = slots[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        slots[hole] = 0
    }
}
