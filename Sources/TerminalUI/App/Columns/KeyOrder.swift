import Foundation
import ShelfModels

/// Orders row indices by their sort keys, made once per row: numbers by value before texts,
/// texts by folded bytes, ties by index (the rows' id order), rows without a key (documents
/// without the field) last whichever the direction.
///
/// Not on the main actor, and over plain values: a comparison is a few integer compares (the
/// text's first 8 bytes as one number), with no isolation check or reference counting, so
/// 100,000 rows sort in tens of milliseconds rather than hundreds.
enum KeyOrder {
    /// 16 bytes, so the two arrays a sort of a million rows holds at once (the entries and a
    /// merge of them) are 32 MB rather than 64 at the app's peak of memory.
    private struct Entry {
        /// A number's bits ordered as the numbers are (`orderedBits`); a text's first 8
        /// bytes, big-endian, zero-padded: ordered as the bytes are.
        var value: UInt64
        var index: Int32
        /// 0 number, 1 text, 2 no key.
        var kind: UInt8
    }

    /// `parallelPast`: from how many rows the sort is done on every core.
    static func order(_ keys: [SortKey?], ascending: Bool, parallelPast: Int = parallelSort) -> [Int] {
        sorted(keys.indices, keys: keys, ascending: ascending, parallelPast: parallelPast)
    }

    /// An order of the rows before a change, carried through it (`map`) to the rows after:
    /// rows kept keep their keys and their order among themselves (ties are by id, and rows
    /// stay in id order), so they need no sorting again; the new rows are sorted by themselves
    /// and merged in. A change to one row of 100,000 costs a binary search, not a sort.
    static func order(following order: [Int], through map: RowMap, keys: [SortKey?], ascending: Bool) -> [Int] {
        var kept: [Int] = []
        kept.reserveCapacity(order.count + map.count - map.earlierCount)
        let inPlace = map.keptInPlace, after = map.positionsAfterKept, tail = map.tailStart, shift = map.tailShift
        for index in order {
            if index < inPlace {
                kept.append(index)
            } else if index >= tail {
                kept.append(index + shift)
            } else if after[index - inPlace] >= 0 {
                kept.append(Int(after[index - inPlace]))
            }
        }
        let added = sorted(map.added, keys: keys, ascending: ascending)
        // Where each new row goes among the kept: the first kept row that comes after it.
        var places: [Int] = []
        places.reserveCapacity(added.count)
        var from = 0
        for index in added {
            var low = from, high = kept.count
            while low < high {
                let middle = (low + high) / 2
                if precedes(kept[middle], index, keys, ascending: ascending) { low = middle + 1 } else { high = middle }
            }
            places.append(low)
            from = low
        }
        // A few are put in place (a change to one row of a million: one move of the rows after
        // it, not a second array of a million); many are merged.
        if added.count <= 64 {
            for (index, place) in zip(added, places).reversed() { kept.insert(index, at: place) }
            return kept
        }
        var merged: [Int] = []
        merged.reserveCapacity(kept.count + added.count)
        from = 0
        for (index, place) in zip(added, places) {
            merged += kept[from..<place]
            merged.append(index)
            from = place
        }
        merged += kept[from...]
        return merged
    }

    /// The same rows in the other direction, from an order of them by `keys` (`S`): each
    /// kind's rows reversed, with each run of equal keys kept in index order (ties are by
    /// index in both directions), rows without a key where they were. One pass instead of a
    /// sort: a million rows in milliseconds rather than a frame of 160 ms.
    static func reversed(_ order: [Int], keys: [SortKey?]) -> [Int] {
        var result: [Int] = []
        result.reserveCapacity(order.count)
        var start = 0
        while start < order.count {
            let kind = entry(order[start], keys).kind
            var end = start + 1
            while end < order.count && entry(order[end], keys).kind == kind { end += 1 }
            if kind == 2 {
                result += order[start..<end]
            } else {
                var runEnd = end
                while runEnd > start {
                    var runStart = runEnd - 1
                    let last = entry(order[runEnd - 1], keys)
                    while runStart > start && compare(entry(order[runStart - 1], keys), last, keys) == 0 { runStart -= 1 }
                    result += order[runStart..<runEnd]
                    runEnd = runStart
                }
            }
            start = end
        }
        return result
    }

    /// Whether row `a` is listed before row `b`: the order `order(_:ascending:)` sorts by.
    static func precedes(_ a: Int, _ b: Int, _ keys: [SortKey?], ascending: Bool) -> Bool {
        isBefore(entry(a, keys), entry(b, keys), keys, ascending: ascending)
    }

    private static func sorted(_ indices: some Collection<Int>, keys: [SortKey?], ascending: Bool,
                               parallelPast: Int = parallelSort) -> [Int] {
        var entries = indices.map { entry($0, keys) }
        let chunks = entries.count >= parallelPast ? max(2, ProcessInfo.processInfo.activeProcessorCount) : 1
        guard chunks > 1 else {
            entries.sort { isBefore($0, $1, keys, ascending: ascending) }
            return entries.map { Int($0.index) }
        }
        // A chunk a core, sorted side by side, then merged: a million rows in about half the
        // time of one sort (which took a frame of 230–420 ms on this project's two cores).
        let bounds = (0...chunks).map { entries.count * $0 / chunks }
        entries.withUnsafeMutableBufferPointer { buffer in
            let base = UnsafeEntries(base: buffer.baseAddress!)
            DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                var part = UnsafeMutableBufferPointer(start: base.base + bounds[chunk], count: bounds[chunk + 1] - bounds[chunk])
                part.sort { isBefore($0, $1, keys, ascending: ascending) }
            }
        }
        var runs = (0..<chunks).map { entries[bounds[$0]..<bounds[$0 + 1]] }
        while runs.count > 1 {
            var merged: [ArraySlice<Entry>] = []
            for pair in stride(from: 0, to: runs.count, by: 2) {
                merged.append(pair + 1 < runs.count ? merge(runs[pair], runs[pair + 1], keys, ascending: ascending)[...] : runs[pair])
            }
            runs = merged
        }
        return runs[0].map { Int($0.index) }
    }

    /// From this many rows a sort is done on every core (on one core, in two chunks).
    static let parallelSort = 100_000

    private static func merge(_ a: ArraySlice<Entry>, _ b: ArraySlice<Entry>, _ keys: [SortKey?], ascending: Bool) -> [Entry] {
        var result: [Entry] = []
        result.reserveCapacity(a.count + b.count)
        var i = a.startIndex, j = b.startIndex
        while i < a.endIndex && j < b.endIndex {
            if isBefore(b[j], a[i], keys, ascending: ascending) {
                result.append(b[j]); j += 1
            } else {
                result.append(a[i]); i += 1
            }
        }
        result += a[i...]
        result += b[j...]
        return result
    }

    /// The entries' storage, which the sorting tasks sort in disjoint chunks.
    private struct UnsafeEntries: @unchecked Sendable {
        let base: UnsafeMutablePointer<Entry>
    }

    private static func entry(_ index: Int, _ keys: [SortKey?]) -> Entry {
        switch keys[index] {
        case .number(let value)?: return Entry(value: orderedBits(value), index: Int32(index), kind: 0)
        case .short(let text)?: return Entry(value: text.first, index: Int32(index), kind: 1)
        case .text(let bytes)?: return Entry(value: ShortText.word(bytes, from: 0, count: 8), index: Int32(index), kind: 1)
        case nil: return Entry(value: 0, index: Int32(index), kind: 2)
        }
    }

    /// The one order: kinds first (numbers, texts, no key) whichever the direction, then by
    /// value in the direction asked, ties by index.
    private static func isBefore(_ a: Entry, _ b: Entry, _ keys: [SortKey?], ascending: Bool) -> Bool {
        if a.kind != b.kind { return a.kind < b.kind }
        let order = compare(a, b, keys)
        if order == 0 || a.kind == 2 { return a.index < b.index }
        return ascending ? order < 0 : order > 0
    }

    /// -1, 0 or 1 for two entries of the same kind.
    private static func compare(_ a: Entry, _ b: Entry, _ keys: [SortKey?]) -> Int {
        switch a.kind {
        case 0: return a.value < b.value ? -1 : (a.value > b.value ? 1 : 0)
        case 1:
            if a.value != b.value { return a.value < b.value ? -1 : 1 }
            guard let x = keys[Int(a.index)], let y = keys[Int(b.index)] else { return 0 }
            return compareTexts(x, y)
        default: return 0
        }
    }

    /// -1, 0 or 1 as two text keys' bytes order (0 for a number, which `entry` never compares
    /// with a text): two short ones by their words, two long ones by `compareBytes`.
    static func compareTexts(_ x: SortKey, _ y: SortKey) -> Int {
        switch (x, y) {
        case let (.short(a), .short(b)): return a.compare(b)
        case let (.text(a), .text(b)): return compareBytes(a, b)
        case let (.short(a), .text(b)): return compareBytes(a.bytes, b)
        case let (.text(a), .short(b)): return compareBytes(a, b.bytes)
        default: return 0
        }
    }

    /// -1, 0 or 1 as the bytes order: one `memcmp` of what they share, then the shorter first.
    /// Titles often share their first 8 bytes ("the ..."), so this is a common step of a sort,
    /// and two generic `lexicographicallyPrecedes` walks cost several times as much.
    static func compareBytes(_ x: [UInt8], _ y: [UInt8]) -> Int {
        let shared = min(x.count, y.count)
        let order = shared == 0 ? 0 : x.withUnsafeBufferPointer { x in
            y.withUnsafeBufferPointer { y in memcmp(x.baseAddress!, y.baseAddress!, shared) }
        }
        if order != 0 { return order < 0 ? -1 : 1 }
        return x.count < y.count ? -1 : (x.count > y.count ? 1 : 0)
    }

    /// A double's bits as an unsigned number that orders as the doubles do: -0 as 0, NaN
    /// first (as Firestore orders it, before every other number).
    static func orderedBits(_ number: Double) -> UInt64 {
        guard !number.isNaN else { return 0 }
        let bits = (number == 0 ? 0.0 : number).bitPattern
        let sign: UInt64 = 1 << 63
        return bits & sign != 0 ? ~bits : bits | sign
    }
}
